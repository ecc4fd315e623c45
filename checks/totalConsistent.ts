import { fail, pass, show, skip, type Check } from '../core/check.ts';
import type { RespondedExchange } from '../core/exchange.ts';
import { readBundle } from './readJson.ts';
import { resourceKey } from './resourceKey.ts';

export interface CompletedWalk {
  /** The pages of one query, in order. */
  pages: readonly RespondedExchange[];
  /** The walk reached the end (the last page held fewer than `count` entries or none). */
  complete: boolean;
}

/**
 * `Bundle.total` has one coherent meaning over the pages of a query (document 1, 2.1;
 * DEC-D1-12): either every page's `total` is that page's entry count, or `total` is the same
 * integer on every page and is the number of matches (equal to the distinct entries collected
 * when the walk is complete, at least that many otherwise).
 */
export const totalConsistent: Check<CompletedWalk> = {
  id: 'total-consistent',
  summary: 'Bundle.total is the page size on every page or the same match count on every page',
  run: ({ pages, complete }) => {
    if (pages.length === 0) return skip('No pages to judge');
    const totals: unknown[] = [];
    const counts: number[] = [];
    const distinct = new Set<string>();
    let unkeyed = 0;
    for (const [index, page] of pages.entries()) {
      const bundle = readBundle(page);
      if (!bundle.ok) {
        if (bundle.finding.outcome === 'skip') return bundle.finding;
        return fail(
          `Expected an integer total on every page, received page ${index + 1} that is not a readable Bundle`,
        );
      }
      totals.push(bundle.value.body.total);
      counts.push(bundle.value.entries.length);
      for (const resource of bundle.value.resources) {
        const key = resourceKey(resource);
        if (key === undefined) unkeyed += 1;
        else distinct.add(key);
      }
    }
    const collected = distinct.size + unkeyed;
    const evidence = { totals, entries: counts, collected, complete };
    const bad = totals.findIndex((t) => !Number.isSafeInteger(t));
    if (bad >= 0)
      return fail(
        `Expected an integer total on every page, received ${show(totals[bad], 40)} on page ${bad + 1}`,
        evidence,
      );
    const ints = totals as number[];
    if (ints.every((t, i) => t === counts[i]))
      return pass(`total is the page's entry count on every page (${show(ints)})`, evidence);
    const same = ints.every((t) => t === ints[0]);
    if (same && (complete ? ints[0] === collected : ints[0] >= collected)) {
      return pass(`total ${ints[0]} on every page, ${collected} distinct entries collected`, evidence);
    }
    const matchCount = complete
      ? `${collected} distinct entries collected`
      : `at least ${collected} entries collected so far`;
    return fail(
      `Expected total to be each page's entry count or the same match count on every page (${matchCount}), received totals ${show(ints, 60)} for page entries ${show(counts, 60)}`,
      evidence,
    );
  },
};
