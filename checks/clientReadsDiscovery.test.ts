import { describe, expect, it } from 'vitest';
import { clientReadsDiscovery as check } from './clientReadsDiscovery.ts';
import { clientExchange as x } from './testing.ts';

describe('clientReadsDiscovery', () => {
  it('passes a request whose service discovery document was fetched before', () => {
    const f = check.run({
      request: x('find-member-v2', { rawPath: '/w/1/membership/find-member' }),
      fetched: new Set(['membership']),
    });
    expect(f.outcome).toBe('pass');
  });

  it('fails a request at a right address that no fetched document gave', () => {
    const f = check.run({
      request: x('create-patient', { rawPath: '/w/1/patients/patient' }),
      fetched: new Set(['membership']),
    });
    expect(f.outcome).toBe('fail');
    expect(f.message).toBe(
      'Expected the address of create-patient to be read from the patients discovery document (key create_patient_endpoint), received POST /w/1/patients/patient from a client that had not fetched that document',
    );
  });

  it('does not apply to a request of no operation', () => {
    expect(check.appliesTo?.({ request: x(undefined), fetched: new Set() })).toBe(false);
  });
});
