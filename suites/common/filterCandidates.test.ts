import { describe, expect, test } from 'vitest';
import { candidateValues, type FilterDef } from './filterCandidates.ts';

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

describe('candidateValues', () => {
  test('gives each filter the distinct values of the sample, sorted; filters without values are left out', () => {
    const c = candidateValues(sample, filters);
    expect(c).toEqual({ insurerIdentifier: ['bup', 'ppp'], paymentAmount: ['ge10', 'ge25', 'ge40'] });
  });

  test('keeps at most 50 values per filter and drops empty ones', () => {
    const many = Array.from({ length: 80 }, (_, i) => ({
      insurer: i % 2 === 0 ? `i${String(i).padStart(2, '0')}` : '',
    }));
    const c = candidateValues(many, [filters[0]]);
    expect(c.insurerIdentifier).toHaveLength(40);
    expect(c.insurerIdentifier).not.toContain('');
  });
});
