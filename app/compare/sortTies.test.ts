/**
 * Under `_sort`, a Bundle's entries compare in order, but entries with equal sort keys may come in
 * any order (DEC-D1-04, DEC-D1-22; checks/entriesSorted.ts): a run of ties is compared as a set,
 * its key read as the suites read it (suites/common/sortKeys.ts) and compared by compareSortKeys.
 */
import { describe, expect, test } from 'vitest';
import type { LoggedExchange } from '../../core/exchangeLog.ts';
import { operations } from '../../spec/operations.ts';
import { sortKeyFor } from '../../suites/common/sortKeys.ts';
import { compareOptionsOf, requestedSort } from './answers.ts';
import { compareLogs } from './compareLogs.ts';

const [REF, CAND] = ['http://127.0.0.1:1001', 'http://127.0.0.1:2002'];

/** A remittance summary search (POST, form body) answered with these entries. */
function search(origin: string, form: string, entries: unknown[]): LoggedExchange {
  const text = JSON.stringify({ resourceType: 'Bundle', type: 'searchset', entry: entries });
  return {
    suite: 'remittance',
    test: 'search-remittance-summary > t',
    ordinal: 0,
    id: `${origin}#0`,
    exchange: {
      method: 'POST',
      url: `${origin}/remittance/summary/search`,
      operation: 'search-remittance-summary',
      startedAt: '2026-01-01T00:00:00.000Z',
      duration: 1,
      request: { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form },
      status: 200,
      response: { headers: { 'content-type': 'application/json' }, body: text, size: text.length, truncated: false },
    },
  };
}

/** A summary entry created at `created` (the key `_sort=createdOn` orders summaries by, DEC-D1-04). */
const summary = (id: string, created: string) => ({
  fullUrl: `urn:${id}`,
  resource: { resourceType: 'PaymentReconciliation', id, created },
});

const [A, B, C, D] = [
  summary('A', '2025-01-01T10:00:00Z'),
  summary('B', '2025-01-02T10:00:00Z'),
  // The same instant as B, written with an offset: a tie by time, as compareSortKeys reads it.
  summary('C', '2025-01-02T11:00:00+01:00'),
  summary('D', '2025-01-03T10:00:00Z'),
];

function differences(form: string, reference: unknown[], candidate: unknown[]) {
  return compareLogs({
    reference: [search(REF, form, reference)],
    candidate: [search(CAND, form, candidate)],
    failures: new Map(),
    configured: [],
    mask: (x) => x,
    maskValue: (v) => v,
    replay: (op) => `conformance compare --only ${op}`,
  }).groups.map((g) => [g.path, g.kind]);
}

describe('entries under _sort: in order, ties as a set', () => {
  test('ties in another order: no difference', () => {
    expect(differences('_sort=createdOn&count=50', [A, B, C, D], [A, C, B, D])).toEqual([]);
    expect(differences('_sort=-createdOn', [D, B, C, A], [D, C, B, A])).toEqual([]);
  });

  test('a real change of order: a difference', () => {
    expect(differences('_sort=createdOn', [A, B, C, D], [B, A, C, D]).length).toBeGreaterThan(0);
    // A tie run that takes in an entry of another key is a difference too.
    expect(differences('_sort=createdOn', [A, B, C, D], [A, B, D, C]).length).toBeGreaterThan(0);
  });

  test('entries an _include added (search.mode include) have no key: among themselves they are a set', () => {
    const inc = (id: string) => ({
      fullUrl: `urn:${id}`,
      resource: { resourceType: 'Location', id },
      search: { mode: 'include' },
    });
    expect(differences('_sort=createdOn', [A, B, D, inc('L1'), inc('L2')], [A, B, D, inc('L2'), inc('L1')])).toEqual(
      [],
    );
    // Still in order against the matches.
    expect(differences('_sort=createdOn', [A, B, D, inc('L1')], [A, B, inc('L1'), D]).length).toBeGreaterThan(0);
  });

  test('without _sort the entries are a set: any order is the same', () => {
    expect(differences('count=50', [A, B, C, D], [D, C, B, A])).toEqual([]);
  });

  test('the _sort is read where the documents send it: the form body of a POST', () => {
    const x = search(REF, 'insurerId=x&_sort=createdOn', [A]);
    expect(requestedSort(x)?.sort).toBe('createdOn');
    expect(compareOptionsOf(x).tied).toBeDefined();
    expect(requestedSort(search(REF, 'insurerId=x', [A]))).toBeUndefined();
    expect(compareOptionsOf(search(REF, 'insurerId=x', [A])).tied).toBeUndefined();
  });

  test("every documented _sort value has the suites' reading of its key", () => {
    const near = new URLSearchParams({ near: '51.5:-0.1:10:km' });
    for (const op of operations)
      for (const sort of op.sortValues ?? [])
        expect(sortKeyFor(op.id, sort, { body: { entry: [] }, parameters: near }), `${op.id} ${sort}`).toBeDefined();
  });
});
