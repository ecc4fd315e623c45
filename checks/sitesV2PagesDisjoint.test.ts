import { describe, expect, it } from 'vitest';
import { sitesV2PagesDisjoint } from './sitesV2PagesDisjoint.ts';
import { respondedExchange } from './testing.ts';

const page = (totalRecords: unknown, ...ids: unknown[]) =>
  respondedExchange({
    body: { pagination: { totalRecords }, sites: ids.map((id) => ({ id, name: `Site ${String(id)}` })) },
  });

describe('sitesV2PagesDisjoint', () => {
  it('passes on disjoint pages of a complete walk that add up to totalRecords', () => {
    const finding = sitesV2PagesDisjoint.run({
      pages: [page(5, 'a', 'b'), page(5, 'c', 'd'), page(5, 'e')],
      complete: true,
    });
    expect(finding).toMatchObject({ outcome: 'pass', message: '5 distinct sites over 3 pages, as totalRecords says' });
  });

  it('passes on an incomplete walk without counting, and when complete is not given', () => {
    expect(sitesV2PagesDisjoint.run({ pages: [page(40, 'a', 'b'), page(40, 'c')], complete: false }).message).toBe(
      '3 distinct sites over 2 pages (walk not complete)',
    );
    expect(sitesV2PagesDisjoint.run({ pages: [page(40, 'a')] }).outcome).toBe('pass');
  });

  it('fails on a site on two pages (ids compared as text)', () => {
    expect(sitesV2PagesDisjoint.run({ pages: [page(4, 'a', 'b'), page(4, 'b', 'c')], complete: false }).message).toBe(
      'Expected no site on two pages, received b on pages 1 and 2',
    );
    expect(sitesV2PagesDisjoint.run({ pages: [page(2, 7), page(2, '7')] }).outcome).toBe('fail');
  });

  it('does not count a repeat within one page as overlap', () => {
    expect(sitesV2PagesDisjoint.run({ pages: [page(3, 'a', 'a'), page(3, 'b')], complete: false }).outcome).toBe(
      'pass',
    );
  });

  it('fails when a complete walk collected another number, or totals disagree', () => {
    expect(sitesV2PagesDisjoint.run({ pages: [page(6, 'a', 'b'), page(6, 'c')], complete: true }).message).toBe(
      'Expected 6 distinct sites over the complete walk (totalRecords), received 3',
    );
    expect(sitesV2PagesDisjoint.run({ pages: [page(3, 'a', 'b'), page(4, 'c')], complete: true }).message).toBe(
      'Expected the same totalRecords on every page, received 3, 4',
    );
  });

  it('counts sites without an id towards the total', () => {
    expect(sitesV2PagesDisjoint.run({ pages: [page(3, 'a', undefined), page(3, null)], complete: true }).outcome).toBe(
      'pass',
    );
  });

  it('leaves out unreadable pages, skips when none is readable', () => {
    const bad = [
      respondedExchange({ body: '<html>' }),
      respondedExchange({ body: { sites: 'x' } }),
      respondedExchange({ body: '{', truncated: true }),
    ];
    expect(sitesV2PagesDisjoint.run({ pages: bad, complete: true }).outcome).toBe('skip');
    expect(sitesV2PagesDisjoint.run({ pages: [], complete: true }).outcome).toBe('skip');
    expect(sitesV2PagesDisjoint.run({ pages: [page(2, 'a', 'b'), ...bad], complete: true }).outcome).toBe('pass');
    expect(
      sitesV2PagesDisjoint.run({
        pages: [respondedExchange({ body: { pagination: null, sites: [1, null, 'x', { id: {} }] } })],
        complete: true,
      }).message,
    ).toBe('4 distinct sites over 1 page (no totalRecords to compare)');
  });
});
