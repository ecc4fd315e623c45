import type { Check } from '../core/check.ts';
import type { RespondedExchange } from '../core/exchange.ts';
import { type EntrySortOptions, judgeOrder, type SortKey } from './entriesSorted.ts';
import { readBundle, resourcesOfType } from './readJson.ts';

/** The pages of one query, in the order they were fetched. */
export interface SortedPages {
  pages: readonly RespondedExchange[];
}

/**
 * The entries of every page of one query, read as one sequence, follow the requested `_sort`
 * order (DEC-R-06: a sort is over the whole result, so page 2 starts where page 1 ended; a sort
 * applied per page fails). Pages that are not Bundles are left out (other checks judge them).
 */
export function entriesSortedOverPages(
  description: string,
  keyOf: (r: Record<string, unknown>) => SortKey | undefined,
  direction: 'asc' | 'desc',
  options: EntrySortOptions = {},
): Check<SortedPages> {
  const order = direction === 'asc' ? 'ascending' : 'descending';
  return {
    id: 'entries-sorted-over-pages',
    summary: `Entries are in ${order} order of ${description} over every page`,
    run: ({ pages }) => {
      const places: string[] = [];
      const resources: Record<string, unknown>[] = [];
      pages.forEach((page, p) => {
        const read = readBundle(page);
        if (!read.ok) return;
        resourcesOfType(read.value.resources, options.resourceType).forEach((r, i) => {
          resources.push(r);
          places.push(`page ${p + 1} entry ${i + 1}`);
        });
      });
      return judgeOrder(
        resources,
        description,
        keyOf,
        direction,
        (a, b) => `${places[a]} and ${places[b]}`,
        ` over ${pages.length} page${pages.length === 1 ? '' : 's'}`,
      );
    },
  };
}
