import { fail, pass, type Check } from '../core/check.ts';
import { readValueSet } from './valueSet.ts';

/**
 * A code-set page never holds more codes than the requested `count` (document 2, 4.1 and 8:
 * custom page size 1 to 1,000; DEC-D2-03, DEC-D2-04). Every element of `expansion.contains[]`
 * counts; an absent `contains` is an empty page.
 */
export function valueSetPageWithinCount(count: number): Check {
  return {
    id: 'value-set-page-within-count',
    summary: `A code-set page holds at most ${count} codes`,
    run: (x) => {
      const read = readValueSet(x);
      if (!read.ok) return read.finding;
      const n = read.value.contains.length;
      const evidence = { codes: n, count };
      return n <= count
        ? pass(`${n} of at most ${count} codes`, evidence)
        : fail(`Expected at most ${count} codes, received ${n}`, evidence);
    },
  };
}
