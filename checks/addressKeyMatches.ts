import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { describe, readJson } from './readJson.ts';

/**
 * Retrieve address returns the address asked for (document 2, 4.7; DEC-D2-13): a JSON array with
 * at least one item, the first item's `key` being the id sent.
 */
export function addressKeyMatches(key: string): Check {
  return {
    id: 'address-key-matches',
    summary: `The retrieved address has key ${show(key, 60)}`,
    run: (x) => {
      const json = readJson(x);
      if (!json.ok) return json.finding;
      const items = json.value;
      if (!Array.isArray(items)) return fail(`Expected a JSON array, received ${describe(items)}`);
      if (items.length === 0) return fail('Expected at least one retrieved address, received an empty array');
      const first: unknown = items[0];
      const actual = isRecord(first) ? first.key : undefined;
      if (actual === key) return pass(`key ${show(key, 60)}`, { items: items.length });
      const received = isRecord(first) ? show(actual, 60) : `a first item ${describe(first)}`;
      return fail(`Expected key ${show(key, 60)}, received ${received}`, { items: items.length, key: actual });
    },
  };
}
