import { fail, pass, type Check } from '../core/check.ts';
import { describe, readJson } from './readJson.ts';

/**
 * The JSON body is an array of exactly `length` items (document 2, 4.7: "a JSON array with the
 * retrieved address"; DEC-D2-50: exactly one element is SHOULD).
 */
export function arrayLengthIs(length: number): Check {
  return {
    id: 'array-length-is',
    summary: `The JSON body is an array of exactly ${length} ${length === 1 ? 'item' : 'items'}`,
    run: (x) => {
      const json = readJson(x);
      if (!json.ok) return json.finding;
      const items = json.value;
      if (!Array.isArray(items)) return fail(`Expected a JSON array, received ${describe(items)}`);
      if (items.length === length)
        return pass(`${items.length} ${items.length === 1 ? 'item' : 'items'}`, { items: items.length });
      return fail(`Expected exactly ${length} ${length === 1 ? 'item' : 'items'}, received ${items.length}`, {
        items: items.length,
      });
    },
  };
}
