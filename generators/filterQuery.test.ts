import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import type { FilterDef } from './filterQuery.ts';
import { candidateValues, filterQuery } from './filterQuery.ts';

const sample = [
  { id: 'a', insurer: 'bup', amount: 10 },
  { id: 'b', insurer: 'ppp', amount: 25 },
  { id: 'c', insurer: 'bup', amount: 40 },
];
const filters: FilterDef[] = [
  { param: 'insurerIdentifier', valuesFrom: (r) => [String(r.insurer)], matches: (r, v) => r.insurer === v },
  { param: 'paymentAmount', valuesFrom: (r) => [`ge${String(r.amount)}`], matches: () => undefined },
  { param: 'never', valuesFrom: () => [], matches: () => undefined },
  {
    param: 'throws',
    valuesFrom: () => {
      throw new Error('hostile record');
    },
    matches: () => undefined,
  },
];

describe('filterQuery', () => {
  test('candidate values come from the sample, deduplicated; filters without values are dropped', () => {
    const c = candidateValues(sample, filters);
    expect(c.get('insurerIdentifier')).toEqual(['bup', 'ppp']);
    expect(c.has('never')).toBe(false);
    expect(c.has('throws')).toBe(false);
  });

  test('every generated query uses known filters with values some sample record matches', () => {
    fc.assert(
      fc.property(filterQuery(sample, filters, { sortValues: ['createdOn', '-createdOn'] }), (q) => {
        const keys = Object.keys(q.filters);
        if (keys.length < 1 || keys.length > 2) return false;
        if (q.filters.insurerIdentifier && !sample.some((r) => r.insurer === q.filters.insurerIdentifier)) return false;
        return (
          q.page >= 1 &&
          q.page <= 3 &&
          q.count >= 1 &&
          q.count <= 20 &&
          (q.sort === undefined || q.sort.endsWith('createdOn'))
        );
      }),
      { seed: 1, numRuns: 200 },
    );
  });

  test('an empty sample gives an unfiltered query rather than failing', () => {
    const [q] = fc.sample(filterQuery([], filters), { seed: 3, numRuns: 1 });
    expect(q.filters).toEqual({});
  });
});
