import { describe, expect, it } from 'vitest';
import { clientUsesCreatedPatientId as check } from './clientUsesCreatedPatientId.ts';
import { clientExchange as x } from './testing.ts';

const create = x('create-patient', {
  status: 201,
  responseBody: JSON.stringify({ resourceType: 'Patient', id: 'p-7' }),
});
const get = (id: string, status = 200) =>
  x('get-patient', { method: 'GET', rawPath: `/patients/patient/${id}`, status });
const update = (id: string, bodyId: string) =>
  x('update-patient', { method: 'PUT', rawPath: `/patients/${id}`, body: JSON.stringify({ id: bodyId }) });
const condition = (id: string) =>
  x('create-condition', {
    body: JSON.stringify({ note: [{ text: 'n', authorReference: { reference: `patient/${id}` } }] }),
  });

describe('clientUsesCreatedPatientId', () => {
  it('passes a flow that reads, updates and deletes the created patient', () => {
    const del = x('delete-patient', { method: 'DELETE', rawPath: '/patients/patient/p-7' });
    expect(check.run([create, get('p-7'), update('p-7', 'p-7'), condition('p-7'), del]).outcome).toBe('pass');
  });

  it('passes an id stored earlier that the workspace holds (DEC-C-09), and a condition naming it', () => {
    const f = check.run([create, get('p-7'), get('PAT-0001'), condition('PAT-0001')]);
    expect(f.outcome).toBe('pass');
    expect(f.message).toContain('stored earlier that the workspace holds (PAT-0001)');
  });

  it('fails another id in the path, in the update body or in a condition', () => {
    expect(check.run([create, get('p-1', 404)]).message).toBe(
      'Expected the id the create answered (p-7), received GET of patient "p-1"',
    );
    expect(check.run([create, update('p-7', 'p-1')]).message).toMatch(/an update body with id "p-1"/);
    expect(check.run([create, condition('p-1')]).outcome).toBe('fail');
  });

  it('skips a flow without a create or without a request about the patient', () => {
    expect(check.run([get('p-7')]).outcome).toBe('skip');
    expect(check.run([create]).outcome).toBe('skip');
  });
});
