import { describe, expect, it } from 'vitest';
import { coverageReferencesResolve } from './coverageReferencesResolve.ts';
import { respondedExchange } from './testing.ts';

const coverage = (overrides: Record<string, unknown> = {}) => ({
  resourceType: 'Coverage',
  id: 'cov1',
  contained: [
    { resourceType: 'Patient', id: 'pat1' },
    { resourceType: 'Organization', id: 'org1' },
  ],
  beneficiary: { reference: '#pat1' },
  payor: [{ reference: '#org1' }],
  ...overrides,
});

describe('coverageReferencesResolve', () => {
  it('passes when both references resolve', () => {
    expect(coverageReferencesResolve.run(respondedExchange({ body: coverage() })).outcome).toBe('pass');
  });

  it('fails on a dangling beneficiary', () => {
    expect(
      coverageReferencesResolve.run(
        respondedExchange({ body: coverage({ beneficiary: { reference: 'Patient/pat1' } }) }),
      ).message,
    ).toBe(
      'Expected references "#<id>" of a contained Patient and Organizations, received beneficiary.reference "Patient/pat1" (contained Patient ids ["pat1"], Organization ids ["org1"])',
    );
  });

  it('fails on a payor pointing at the Patient', () => {
    expect(
      coverageReferencesResolve.run(
        respondedExchange({ body: coverage({ payor: [{ reference: '#org1' }, { reference: '#pat1' }] }) }),
      ).message,
    ).toContain('payor[1].reference "#pat1"');
  });

  it('fails on missing members without throwing', () => {
    for (const overrides of [
      { contained: null },
      { beneficiary: null },
      { payor: undefined },
      { payor: [] },
      { payor: [null] },
      { contained: 'x' },
    ]) {
      expect(coverageReferencesResolve.run(respondedExchange({ body: coverage(overrides) })).outcome).toBe('fail');
    }
  });

  it('fails on another resource, empty and non-JSON bodies', () => {
    expect(
      coverageReferencesResolve.run(respondedExchange({ body: { resourceType: 'OperationOutcome' } })).message,
    ).toBe('Expected a Coverage, received resourceType "OperationOutcome"');
    expect(coverageReferencesResolve.run(respondedExchange({ body: '' })).outcome).toBe('fail');
    expect(coverageReferencesResolve.run(respondedExchange({ body: '!' })).outcome).toBe('fail');
  });
});
