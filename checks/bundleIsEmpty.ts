import { fail, pass, type Check } from '../core/check.ts';
import { readBundle } from './readJson.ts';

/**
 * No match yields an empty result set (document 3, 7: contract operations return no
 * operation-specific errors; DEC-D3-56): a Bundle without resources.
 */
export const bundleIsEmpty: Check = {
  id: 'bundle-is-empty',
  summary: 'No match yields an empty Bundle',
  run: (x) => {
    const read = readBundle(x);
    if (!read.ok) return read.finding;
    const n = read.value.resources.length;
    return n === 0
      ? pass('an empty Bundle')
      : fail(`Expected an empty Bundle, received ${n} ${n === 1 ? 'entry' : 'entries'}`, { entries: n });
  },
};
