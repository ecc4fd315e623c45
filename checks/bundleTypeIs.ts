import { fail, pass, show, type Check } from '../core/check.ts';
import { readBundle } from './readJson.ts';

/**
 * The Bundle has the documented `type` (document 1, 2.1; `collection` for 4.6, `searchset` for
 * 4.11).
 */
export function bundleTypeIs(type: 'collection' | 'searchset'): Check {
  return {
    id: 'bundle-type-is',
    summary: `Bundle.type is ${type}`,
    run: (x) => {
      const read = readBundle(x);
      if (!read.ok) return read.finding;
      const actual = read.value.body.type;
      return actual === type
        ? pass(`type ${type}`)
        : fail(`Expected Bundle.type ${show(type)}, received ${show(actual)}`);
    },
  };
}
