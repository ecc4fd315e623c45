import { describe, expect, it } from 'vitest';
import type { ClientRequest } from '../core/clientRequest.ts';
import { operation } from '../spec/operations.ts';
import { clientCreateWithoutId as check } from './clientCreateWithoutId.ts';

const PATIENT = { resourceType: 'Patient', name: [{ family: 'Patel', given: ['Priya'] }], birthDate: '1984-07-19' };
const request = (id: string, body: unknown): ClientRequest => ({
  operation: operation(id),
  method: id === 'update-patient' ? 'PUT' : 'POST',
  rawPath: '/patients/patient',
  rawQuery: '',
  headers: {},
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('clientCreateWithoutId', () => {
  it('passes a create-patient body without id', () => {
    expect(check.run(request('create-patient', PATIENT)).outcome).toBe('pass');
  });

  it('fails a create-patient body carrying an id of its own', () => {
    const f = check.run(request('create-patient', { ...PATIENT, id: 'local-1' }));
    expect(f.outcome).toBe('fail');
    expect(f.message).toBe('Expected a body without id (the server gives the new id), received id "local-1"');
  });

  it('applies to the create only: the update carries the id', () => {
    expect(check.appliesTo?.(request('create-patient', PATIENT))).toBe(true);
    expect(check.appliesTo?.(request('update-patient', { ...PATIENT, id: 'PAT-1' }))).toBe(false);
  });

  it('leaves a body that does not parse to the schema check', () => {
    expect(check.run(request('create-patient', '{"resourceType":')).outcome).toBe('pass');
  });
});
