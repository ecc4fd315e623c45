import { fail, pass, type Check } from '../core/check.ts';
import { readBundle } from './readJson.ts';

/**
 * A page never holds more entries than the requested `count` (document 1, 2.1, 4.3-4.6;
 * DEC-D1-12). Every element of `entry[]` counts.
 */
export function pageWithinCount(count: number): Check {
  return {
    id: 'page-within-count',
    summary: `A page holds at most ${count} entries`,
    run: (x) => {
      const read = readBundle(x);
      if (!read.ok) return read.finding;
      const n = read.value.entries.length;
      return n <= count
        ? pass(`${n} of at most ${count} entries`, { entries: n, count })
        : fail(`Expected at most ${count} entries, received ${n}`, { entries: n, count });
    },
  };
}
