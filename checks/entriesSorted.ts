import { fail, pass, show, skip, type Check, type Finding } from '../core/check.ts';
import { readBundle, resourcesOfType } from './readJson.ts';
import { compareSortKeys } from './sortKey.ts';

export interface EntrySortOptions {
  /** Judge only entries of this resourceType. */
  resourceType?: string;
}

export type SortKey = string | number;

function keyOfSafely(
  keyOf: (r: Record<string, unknown>) => SortKey | undefined,
  resource: Record<string, unknown>,
): SortKey | undefined {
  try {
    const key = keyOf(resource);
    if (typeof key === 'number') return Number.isNaN(key) ? undefined : key;
    return typeof key === 'string' ? key : undefined;
  } catch {
    return undefined;
  }
}

/** The order of a list of resources, judged as one sequence; `at` names the places of two entries. */
export function judgeOrder(
  resources: readonly Record<string, unknown>[],
  description: string,
  keyOf: (r: Record<string, unknown>) => SortKey | undefined,
  direction: 'asc' | 'desc',
  at: (a: number, b: number) => string,
  over: string,
): Finding {
  const order = direction === 'asc' ? 'ascending' : 'descending';
  if (resources.length === 0) return skip('No entries to judge the order of');
  const keys = resources.map((r) => keyOfSafely(keyOf, r));
  const missing = keys.filter((k) => k === undefined).length;
  if (missing === keys.length) return skip(`No entry carries ${description}`);
  if (missing > 0) {
    return fail(`Expected every entry to carry ${description}, received ${missing} of ${keys.length} without it`);
  }
  const defined = keys as SortKey[];
  const sign = direction === 'asc' ? 1 : -1;
  for (let i = 1; i < defined.length; i += 1) {
    if (sign * compareSortKeys(defined[i - 1], defined[i]) > 0) {
      return fail(
        `Expected entries in ${order} order of ${description}, received ${show(defined[i - 1], 50)} before ${show(defined[i], 50)} at ${at(i - 1, i)}`,
        { keys: defined.slice(0, 50) },
      );
    }
  }
  return pass(`${defined.length} entries${over} in ${order} order of ${description}`, { keys: defined.slice(0, 50) });
}

/**
 * The entries of a page follow the requested `_sort` order (document 1, 4.3-4.5; DEC-D1-04,
 * DEC-D1-22). Ties may come in any order. Skipped when no entry carries the key; failed when
 * some do and some do not.
 */
export function entriesSorted(
  description: string,
  keyOf: (r: Record<string, unknown>) => SortKey | undefined,
  direction: 'asc' | 'desc',
  options: EntrySortOptions = {},
): Check {
  const order = direction === 'asc' ? 'ascending' : 'descending';
  return {
    id: 'entries-sorted',
    summary: `Entries are in ${order} order of ${description}`,
    run: (x) => {
      const read = readBundle(x);
      if (!read.ok) return read.finding;
      const resources = resourcesOfType(read.value.resources, options.resourceType);
      return judgeOrder(resources, description, keyOf, direction, (a, b) => `entries ${a + 1} and ${b + 1}`, '');
    },
  };
}
