import { describe, expect, test } from 'vitest';
import { expansionPage, pagedBundle, pagingOf, singlePageBundle } from './paging.ts';

const items = Array.from({ length: 23 }, (_, k) => k + 1);
const bundle = (page: number, count: number) =>
  pagedBundle({
    operationId: 'search-remittance-summary',
    type: 'searchset',
    matches: items,
    paging: { page, count },
    totalTag: 'maxCount',
    entry: (n) => ({ resource: { id: n } }),
  });

describe('pagedBundle', () => {
  test('defaults: page 1, count 10', () => {
    expect(pagingOf({})).toEqual({ page: 1, count: 10 });
    expect(pagingOf({ page: '3', count: '7' })).toEqual({ page: 3, count: 7 });
  });

  test('slices the page and tags it with digit strings', () => {
    const b = bundle(3, 10);
    expect(b.entry.map((e) => (e.resource as { id: number }).id)).toEqual([21, 22, 23]);
    expect(b.meta.tag).toEqual([
      { code: 'page', display: '3' },
      { code: 'count', display: '10' },
      { code: 'maxCount', display: '23' },
    ]);
    expect(b.total).toBe(23);
    expect(bundle(4, 10).entry).toEqual([]);
  });

  test('singlePageBundle: one page holding every entry', () => {
    const b = singlePageBundle('searchset', [{ resource: 1 }, { resource: 2 }]);
    expect(b.total).toBe(2);
    expect(b.meta.tag).toEqual([
      { code: 'page', display: '1' },
      { code: 'count', display: '2' },
      { code: 'maxCount', display: '2' },
    ]);
  });
});

describe('Document 2 additions', () => {
  test('pagingOf takes a default count', () => {
    expect(pagingOf({}, 100)).toEqual({ page: 1, count: 100 });
    expect(pagingOf({ count: '5' }, 100)).toEqual({ page: 1, count: 5 });
  });

  test('bundle id, entry search mode and included entries after the page', () => {
    const b = pagedBundle({
      operationId: 'search-register-practitioner-roles',
      id: 'b-1',
      type: 'searchset',
      matches: items,
      paging: { page: 2, count: 3 },
      totalTag: 'maxCount',
      entry: (n) => ({ resource: { id: n }, search: { mode: 'match' } }),
      included: (page) => page.map((n) => ({ resource: { id: `inc-${n}` }, search: { mode: 'include' } })),
    });
    expect(Object.keys(b)).toEqual(['resourceType', 'id', 'meta', 'type', 'total', 'entry']);
    expect(b.entry.map((e) => (e.resource as { id: unknown }).id)).toEqual([4, 5, 6, 'inc-4', 'inc-5', 'inc-6']);
    expect(b.total).toBe(23);
    expect(Object.keys(bundle(1, 10))).not.toContain('id');
  });

  test('expansionPage: offset = (page - 1) x count, total = matches (DEC-D2-04)', () => {
    const p = expansionPage(items, { page: 3, count: 4 });
    expect(p).toEqual({
      tag: [
        { code: 'page', display: '3' },
        { code: 'count', display: '4' },
        { code: 'maxCount', display: '23' },
      ],
      total: 23,
      offset: 8,
      items: [9, 10, 11, 12],
    });
    expect(expansionPage(items, { page: 7, count: 4 }).items).toEqual([]);
  });
});
