import { describe, expect, it } from 'vitest';
import { coverageExtensionUrls } from './coverageExtensionUrls.ts';
import { respondedExchange } from './testing.ts';

const R = 'https://ref.example/r';
const coverage = (urls: string[], patientUrls: string[] = []) => ({
  resourceType: 'Coverage',
  extension: urls.map((url) => ({ url, valueString: 'x' })),
  contained: [{ resourceType: 'Patient', id: 'p', extension: patientUrls.map((url) => ({ url, valueString: 'y' })) }],
});
const run = (body: unknown) => coverageExtensionUrls.run(respondedExchange({ body }));

describe('coverageExtensionUrls', () => {
  it('passes on {ref_url}/extension/<name> with the insuranceSchemePlan exception, and ignores other names', () => {
    const f = run(
      coverage(
        [
          `${R}/extension/policyExpired`,
          `${R}/extension/groupId`,
          `${R}/insuranceSchemePlan`,
          'https://other.example/x/custom',
        ],
        [`${R}/extension/genderIdentity`],
      ),
    );
    expect(f.outcome).toBe('pass');
    expect(f.evidence?.refUrl).toBe(R);
  });

  it('fails on a moved extension, a moved exception and a Patient extension under another base', () => {
    expect(run(coverage([`${R}/StructureDefinition/policyExpired`])).message).toBe(
      `Expected {ref_url}/extension/<name>, received ${R}/StructureDefinition/policyExpired`,
    );
    expect(run(coverage([`${R}/extension/policyExpired`, `${R}/extension/insuranceSchemePlan`])).outcome).toBe('fail');
    expect(run(coverage([`${R}/extension/policyExpired`], [`${R}/Patient/extension/genderIdentity`])).outcome).toBe(
      'fail',
    );
  });

  it('skips without a documented extension and fails on a non-object body', () => {
    expect(run(coverage([])).outcome).toBe('skip');
    expect(run('[1]').outcome).toBe('fail');
  });
});
