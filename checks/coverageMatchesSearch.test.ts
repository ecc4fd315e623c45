import { describe, expect, it } from 'vitest';
import { coverageMatchesSearch } from './coverageMatchesSearch.ts';
import { respondedExchange } from './testing.ts';

const coverage = (patient: Record<string, unknown>) => ({
  resourceType: 'Coverage',
  contained: [
    { resourceType: 'Organization', id: 'org1' },
    { resourceType: 'Patient', id: 'pat1', ...patient },
  ],
  beneficiary: { reference: '#pat1' },
});
const smith = { name: [{ family: 'Smith', given: ['John'] }], birthDate: '1980-02-03' };
const search = { firstInitial: 'j', lastName: 'SMITH', dateOfBirth: '1980-02-03' };

describe('coverageMatchesSearch', () => {
  it('passes on the searched member, ignoring case', () => {
    expect(coverageMatchesSearch(search).run(respondedExchange({ body: coverage(smith) })).outcome).toBe('pass');
  });

  it('accepts a single HumanName and a string given', () => {
    expect(
      coverageMatchesSearch(search).run(
        respondedExchange({ body: coverage({ name: { family: 'smith', given: 'Jo' }, birthDate: '1980-02-03' }) }),
      ).outcome,
    ).toBe('pass');
  });

  it('fails naming only the fields that differ', () => {
    expect(
      coverageMatchesSearch(search).run(respondedExchange({ body: coverage({ ...smith, birthDate: '1980-03-02' }) }))
        .message,
    ).toBe('Expected the member with birthDate "1980-02-03", received birthDate "1980-03-02"');
    expect(
      coverageMatchesSearch(search).run(
        respondedExchange({
          body: coverage({ name: [{ family: 'Jones', given: ['Anne'] }], birthDate: '1980-02-03' }),
        }),
      ).message,
    ).toBe('Expected the member with family "SMITH", given starting "j", received family ["Jones"], given ["Anne"]');
  });

  it('judges only the given fields', () => {
    expect(
      coverageMatchesSearch({ lastName: 'smith' }).run(
        respondedExchange({ body: coverage({ ...smith, birthDate: 'x' }) }),
      ).outcome,
    ).toBe('pass');
    expect(coverageMatchesSearch({}).appliesTo?.(respondedExchange({ body: coverage(smith) }))).toBe(false);
  });

  it('fails on missing name parts without throwing', () => {
    for (const patient of [{}, { name: null }, { name: [null, 3] }, { name: [{ family: 7, given: [null] }] }]) {
      expect(coverageMatchesSearch(search).run(respondedExchange({ body: coverage(patient) })).outcome).toBe('fail');
    }
  });

  it('fails without a contained Patient, on another resource and on non-JSON', () => {
    expect(
      coverageMatchesSearch(search).run(respondedExchange({ body: { resourceType: 'Coverage', contained: [] } }))
        .message,
    ).toBe('Expected a contained Patient, received none');
    expect(
      coverageMatchesSearch(search).run(respondedExchange({ body: { resourceType: 'OperationOutcome' } })).outcome,
    ).toBe('fail');
    expect(coverageMatchesSearch(search).run(respondedExchange({ body: '' })).outcome).toBe('fail');
    expect(coverageMatchesSearch(search).run(respondedExchange({ body: 'x' })).outcome).toBe('fail');
  });

  it('compares the member number with the Coverage identifier, ignoring case and spaces', () => {
    const numbered = (identifier: unknown) => ({ ...coverage(smith), identifier });
    const byNumber = coverageMatchesSearch({ membershipNumber: 'BUP100001' });
    expect(
      byNumber.run(respondedExchange({ body: numbered([{ id: 'membershipNumber', value: ' bup100001' }]) })).outcome,
    ).toBe('pass');
    expect(
      byNumber.run(respondedExchange({ body: numbered([{ id: 'membershipNumber', value: 'BUP100002' }]) })).message,
    ).toBe('Expected the member with membershipNumber "BUP100001", received membershipNumber ["BUP100002"]');
    // Without a member number the schema judges the Coverage (D1-2.2-03): no mismatch is claimed.
    expect(byNumber.run(respondedExchange({ body: coverage(smith) })).outcome).toBe('pass');
  });
});
