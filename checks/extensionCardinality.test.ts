import { describe, expect, it } from 'vitest';
import { extensionCardinality } from './extensionCardinality.ts';
import { respondedExchange } from './testing.ts';

const ext = (...names: string[]) => names.map((n) => ({ url: `https://ref.example/extension/${n}`, valueString: 'x' }));
const check = extensionCardinality({ exactlyOne: ['policyExpired'], atMostOne: ['groupId', 'currency'] });
const patients = extensionCardinality({ atMostOne: ['genderIdentity'], containedType: 'Patient' });
const run = (c: typeof check, body: unknown) => c.run(respondedExchange({ body }));

describe('extensionCardinality', () => {
  it('passes when 1-1 extensions appear once and 0-1 ones at most once', () => {
    expect(run(check, { resourceType: 'Coverage', extension: ext('policyExpired', 'groupId') }).outcome).toBe('pass');
    expect(
      run(patients, {
        resourceType: 'Coverage',
        contained: [
          { resourceType: 'Patient', extension: ext('genderIdentity') },
          { resourceType: 'Organization', extension: ext('genderIdentity', 'genderIdentity') },
        ],
      }).outcome,
    ).toBe('pass');
  });

  it('fails naming each extension outside its cardinality', () => {
    const finding = run(check, { resourceType: 'Coverage', extension: ext('groupId', 'groupId', 'currency') });
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toBe(
      'Expected each extension within its cardinality, received resource policyExpired 0 times (1-1), resource groupId 2 times (0-1)',
    );
    expect(
      run(patients, { contained: [{ resourceType: 'Patient', extension: ext('genderIdentity', 'genderIdentity') }] })
        .outcome,
    ).toBe('fail');
  });

  it('never throws on hostile bodies', () => {
    expect(run(check, { extension: 'x' }).outcome).toBe('fail');
    expect(run(check, []).outcome).toBe('fail');
    expect(run(patients, { contained: 'x' }).outcome).toBe('pass');
    expect(check.run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
    expect(patients.id).toBe(check.id);
  });
});
