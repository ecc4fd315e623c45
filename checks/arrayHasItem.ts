import { fail, pass, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { describe, readJson } from './readJson.ts';

/** Runs a suite-supplied judgement; one that trips over odd target data does not match. */
function holds(
  predicate: (item: Record<string, unknown>) => boolean | undefined,
  item: Record<string, unknown>,
): boolean {
  try {
    return predicate(item) === true;
  } catch {
    return false;
  }
}

/**
 * The JSON body is an array with at least one item that satisfies `predicate` (document 2, 4.6:
 * drilling down ends when "an item with type `Address` appears"; DEC-D2-11, DEC-D2-12). Items
 * that are not objects never match.
 */
export function arrayHasItem(
  description: string,
  predicate: (item: Record<string, unknown>) => boolean | undefined,
): Check {
  return {
    id: 'array-has-item',
    summary: `The JSON array has an item ${description}`,
    run: (x) => {
      const json = readJson(x);
      if (!json.ok) return json.finding;
      const items = json.value;
      if (!Array.isArray(items)) return fail(`Expected a JSON array, received ${describe(items)}`);
      const at = items.findIndex((item) => isRecord(item) && holds(predicate, item));
      if (at >= 0)
        return pass(`item ${at + 1} of ${items.length} is ${description}`, { items: items.length, at: at + 1 });
      const received =
        items.length === 0 ? 'an empty array' : `none among ${items.length} ${items.length === 1 ? 'item' : 'items'}`;
      return fail(`Expected an item ${description}, received ${received}`, { items: items.length });
    },
  };
}
