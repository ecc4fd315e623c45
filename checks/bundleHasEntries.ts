import { fail, pass, type Check } from '../core/check.ts';
import { readBundle } from './readJson.ts';

/**
 * The Bundle holds at least `min` entries (document 1, 2.1; used where fixtures guarantee
 * matches). Only entries that carry a `resource` count.
 */
export function bundleHasEntries(min = 1): Check {
  return {
    id: 'bundle-has-entries',
    summary: `The Bundle holds at least ${min} ${min === 1 ? 'entry' : 'entries'}`,
    run: (x) => {
      const read = readBundle(x);
      if (!read.ok) return read.finding;
      const n = read.value.resources.length;
      return n >= min
        ? pass(`${n} ${n === 1 ? 'entry' : 'entries'}`, { entries: n })
        : fail(`Expected at least ${min} ${min === 1 ? 'entry' : 'entries'}, received ${n}`, { entries: n });
    },
  };
}
