import { describe, expect, it } from 'vitest';
import { encounterLinksClaim } from './encounterLinksClaim.ts';
import { respondedExchange } from './testing.ts';

const base = 'https://target.example/claims';
const encounter = (eid: string, fullUrl: unknown = `${base}/claim/c1/encounter/${eid}`) => ({
  fullUrl,
  resource: { resourceType: 'Encounter', id: eid },
});
const claim = (cid: string, ...eids: string[]) => ({
  fullUrl: `${base}/claim/${cid}`,
  resource: {
    resourceType: 'Claim',
    id: cid,
    item: [{ servicedDate: '2024-01-01', encounter: eids.map((id) => ({ id })) }],
  },
});
const hospitalBundle = (...entry: unknown[]) =>
  respondedExchange({ body: { resourceType: 'Bundle', type: 'searchset', entry } });

describe('encounterLinksClaim', () => {
  it('passes when every Encounter links to a Claim listing it', () => {
    expect(
      encounterLinksClaim.run(hospitalBundle(encounter('e1'), encounter('e2'), claim('c1', 'e1', 'e2'))).outcome,
    ).toBe('pass');
  });

  it('fails when the claim does not list the encounter', () => {
    expect(encounterLinksClaim.run(hospitalBundle(encounter('e1'), claim('c1', 'e9'))).message).toBe(
      'Expected each Encounter fullUrl to end /claim/<claim id>/encounter/<its id> with that Claim listing it, received Encounter e1: Claim "c1" does not list it in item[].encounter[]',
    );
  });

  it('fails on a claim missing from the bundle, a wrong encounter id and a bad fullUrl', () => {
    expect(
      encounterLinksClaim.run(hospitalBundle(encounter('e1', `${base}/claim/c2/encounter/e1`), claim('c1', 'e1')))
        .message,
    ).toContain('fullUrl names claim "c2", not in the bundle');
    expect(
      encounterLinksClaim.run(hospitalBundle(encounter('e1', `${base}/claim/c1/encounter/e2`), claim('c1', 'e1')))
        .message,
    ).toContain('fullUrl names encounter "e2"');
    expect(
      encounterLinksClaim.run(hospitalBundle(encounter('e1', `${base}/encounter/e1`), claim('c1', 'e1'))).outcome,
    ).toBe('fail');
    expect(encounterLinksClaim.run(hospitalBundle(encounter('e1', null), claim('c1', 'e1'))).outcome).toBe('fail');
  });

  it('accepts URL-encoded ids', () => {
    expect(
      encounterLinksClaim.run(
        hospitalBundle(encounter('e 1', `${base}/claim/c%2F1/encounter/e%201`), claim('c/1', 'e 1')),
      ).outcome,
    ).toBe('pass');
    expect(
      encounterLinksClaim.run(hospitalBundle(encounter('e1', `${base}/claim/c1/encounter/%E0%A4%A`), claim('c1', 'e1')))
        .outcome,
    ).toBe('fail');
  });

  it('fails on an Encounter without id and odd claim items without throwing', () => {
    const odd = {
      resource: { resourceType: 'Claim', id: 'c1', item: [null, { encounter: 'x' }, { encounter: [null, { id: 3 }] }] },
    };
    expect(encounterLinksClaim.run(hospitalBundle({ resource: { resourceType: 'Encounter' } }, odd)).outcome).toBe(
      'fail',
    );
    expect(encounterLinksClaim.run(hospitalBundle(encounter('e1'), odd)).outcome).toBe('fail');
  });

  it('applies only to bundles with Encounter entries', () => {
    expect(encounterLinksClaim.appliesTo?.(hospitalBundle(claim('c1')))).toBe(false);
    expect(encounterLinksClaim.appliesTo?.(hospitalBundle())).toBe(false);
    expect(encounterLinksClaim.appliesTo?.(respondedExchange({ body: '' }))).toBe(false);
    expect(encounterLinksClaim.appliesTo?.(respondedExchange({ body: 'x' }))).toBe(false);
    expect(encounterLinksClaim.appliesTo?.(hospitalBundle(encounter('e1')))).toBe(true);
  });
});
