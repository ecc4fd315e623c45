import { describe, expect, it } from 'vitest';
import { organizationTelecomCardinality as check } from './organizationTelecomCardinality.ts';
import { respondedExchange } from './testing.ts';

const org = (...telecom: unknown[]) => ({ resourceType: 'Organization', id: 'ins', name: 'Insurer', telecom });
const coverage = (...contained: unknown[]) => ({ resourceType: 'Coverage', id: 'c1', contained });
const run = (body: unknown) => check.run(respondedExchange({ body }));

describe('organizationTelecomCardinality', () => {
  it('passes with at most one email and one phone', () => {
    expect(
      run(
        coverage(
          { resourceType: 'Patient', id: 'p' },
          org(
            { system: 'email', value: 'a@b.c' },
            { system: 'phone', value: '1' },
            { system: 'fax', value: '2' },
            { system: 'fax', value: '3' },
          ),
        ),
      ).outcome,
    ).toBe('pass');
    expect(run(coverage(org())).outcome).toBe('pass');
    expect(run(org({ system: 'phone', value: '1' })).outcome).toBe('pass');
  });

  it('fails when email or phone is repeated', () => {
    const finding = run(coverage(org({ system: 'email', value: 'a@b.c' }, { system: 'Email', value: 'x@y.z' })));
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toBe(
      'Expected at most one email and one phone per Organization, received contained Organization ins email 2 times (0-1)',
    );
    expect(run(coverage(org({ system: 'phone', value: '1' }, { system: 'phone', value: '1' }))).outcome).toBe('fail');
  });

  it('skips without an Organization and never throws', () => {
    expect(run(coverage({ resourceType: 'Patient' })).outcome).toBe('skip');
    expect(run({ contained: 'x' }).outcome).toBe('skip');
    expect(run(coverage({ resourceType: 'Organization', telecom: 'x' })).outcome).toBe('pass');
    expect(run([]).outcome).toBe('fail');
  });
});
