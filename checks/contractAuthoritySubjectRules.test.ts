import { describe, expect, it } from 'vitest';
import { contractAuthoritySubjectRules } from './contractAuthoritySubjectRules.ts';
import { bundle, respondedExchange } from './testing.ts';

const contract = (id: string, display: string | undefined, members: Record<string, unknown> = {}) => ({
  resourceType: 'Contract',
  id,
  subject: [{ reference: 'Site/S1' }],
  ...(display === undefined
    ? {}
    : {
        subType: [
          { coding: [{ system: 'https://ref.example/valueset/contract-subtype/PRICING', code: 'I', display }] },
        ],
      }),
  ...members,
});
const AUTHORITY = { authority: [{ id: 'payor', reference: 'Organization/bup', display: 'bup' }] };
const PRACTITIONER = { subject: [{ reference: 'Site/S1' }, { reference: 'Practitioner/P1' }] };
const run = (body: unknown) => contractAuthoritySubjectRules.run(respondedExchange({ body }));

describe('contractAuthoritySubjectRules', () => {
  it('passes when members match the sub types', () => {
    const finding = run(
      bundle([
        contract('c1', 'FEE_SCHEDULE', AUTHORITY),
        contract('c2', 'PRACTITIONER_BESPOKE_CONTRACT', { ...AUTHORITY, ...PRACTITIONER }),
        contract('c3', 'SELF_PAY', PRACTITIONER),
        contract('c4', 'SELF_PAY'),
      ]),
    );
    expect(finding).toMatchObject({ outcome: 'pass', message: '4 Contracts follow the sub type rules' });
  });

  it('judges a single Contract', () => {
    expect(run(contract('c1', 'FEE_SCHEDULE', AUTHORITY)).message).toBe('1 Contract follows the sub type rules');
    expect(run(contract('c1', 'SELF_PAY', AUTHORITY)).outcome).toBe('fail');
  });

  it('fails on authority outside FEE_SCHEDULE / PRACTITIONER_BESPOKE_CONTRACT', () => {
    expect(run(bundle([contract('c1', 'SELF_PAY', { authority: [{ reference: 'Organization/bup' }] })])).message).toBe(
      'Expected authority only with FEE_SCHEDULE or PRACTITIONER_BESPOKE_CONTRACT and a practitioner subject only with PRACTITIONER_BESPOKE_CONTRACT or SELF_PAY (2.6), received Contract/c1 (SELF_PAY) has authority [{"reference":"Organization/bup"}]',
    );
    expect(run(bundle([contract('c1', 'OTHER', { authority: { reference: 'Organization/x' } })])).outcome).toBe('fail');
  });

  it('fails on a practitioner subject outside PRACTITIONER_BESPOKE_CONTRACT / SELF_PAY', () => {
    expect(run(bundle([contract('c1', 'FEE_SCHEDULE', PRACTITIONER)])).message).toContain(
      'Contract/c1 (FEE_SCHEDULE) has subject {"reference":"Practitioner/P1"}',
    );
    expect(run(bundle([contract('c1', 'FEE_SCHEDULE', { subject: ['Site/S1'] })])).outcome).toBe('fail');
  });

  it('does not judge a site subject, empty members or Contracts without a sub type display', () => {
    expect(
      run(bundle([contract('c1', 'FEE_SCHEDULE', { subject: [{ reference: 'https://x.example/Site/S1' }] })])).outcome,
    ).toBe('pass');
    expect(run(bundle([contract('c1', 'SELF_PAY', { authority: [], subject: null })])).outcome).toBe('pass');
    const mixed = run(
      bundle([contract('c1', 'FEE_SCHEDULE', AUTHORITY), contract('c2', undefined, { ...AUTHORITY, ...PRACTITIONER })]),
    );
    expect(mixed.message).toBe('1 Contract follows the sub type rules (1 without a sub type)');
    expect(run(bundle([contract('c2', undefined, AUTHORITY)])).outcome).toBe('skip');
  });

  it('passes an empty Bundle, fails on other resources', () => {
    expect(run(bundle([])).message).toBe('no entries');
    expect(run({ resourceType: 'Patient' }).message).toBe(
      'Expected a Contract or a Bundle of Contracts, received resourceType "Patient"',
    );
  });

  it('never throws on hostile bodies', () => {
    expect(run(bundle([contract('c1', 'FEE_SCHEDULE', { subType: 'FEE_SCHEDULE' }), null, 5])).outcome).toBe('skip');
    expect(
      run(bundle([{ resourceType: 'Contract', subType: { coding: [{ display: 'SELF_PAY' }] }, authority: 'x' }]))
        .outcome,
    ).toBe('fail');
    expect(run(bundle([{ resourceType: 'Contract', subType: [null, { coding: [1, { display: 7 }] }] }])).outcome).toBe(
      'skip',
    );
    expect(run({ resourceType: 'Bundle', entry: 3 }).outcome).toBe('fail');
    expect(run('').outcome).toBe('fail');
    expect(contractAuthoritySubjectRules.run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
  });
});
