import { describe, expect, it } from 'vitest';
import type { ClientRequest } from '../core/clientRequest.ts';
import { operation } from '../spec/operations.ts';
import { clientBodyMatchesSchema } from './clientBodyMatchesSchema.ts';

const check = clientBodyMatchesSchema('patient-create-request.schema.json');
const create = (body: string): ClientRequest => ({
  operation: operation('create-patient'),
  method: 'POST',
  rawPath: '/patients/patient',
  rawQuery: '',
  headers: {},
  body,
});

describe('clientBodyMatchesSchema', () => {
  it('passes a Patient without id', () => {
    const patient = {
      resourceType: 'Patient',
      name: [{ family: 'Patel', given: ['Priya'] }],
      gender: 'female',
      birthDate: '1984-07-19',
    };
    expect(check.run(create(JSON.stringify(patient))).outcome).toBe('pass');
  });

  it('fails a body that is not the documented resource, and one that does not parse', () => {
    const f = check.run(create(JSON.stringify({ resourceType: 'Person', name: 'Priya' })));
    expect(f.outcome).toBe('fail');
    expect(f.message).toMatch(/^Expected a body valid against patient-create-request\.schema\.json, received /);
    expect(check.run(create('{"resourceType":')).message).toMatch(/does not parse/);
  });
});
