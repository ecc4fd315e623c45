import { fail, pass, skip, type Check } from '../core/check.ts';
import { isRecord, type RespondedExchange } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readSites, siteIdOf } from './sites.ts';

export interface SitesWalk {
  /** The v2 pages of one listing, in the order they were fetched (numbered from 1 in messages). */
  pages: readonly RespondedExchange[];
  /** Every page was collected (the walk reached the page whose `nextPage` is null). */
  complete?: boolean;
}

/**
 * The pages of list authorised sites v2 do not overlap (document 3, 4.1; DEC-D3-05): no site id
 * appears on two pages; and when every page was collected, the distinct sites (plus those
 * without an id) number `totalRecords`, which is the same on every page. Pages that cannot be
 * read as a sites list are left out (the pagination check judges them).
 */
export const sitesV2PagesDisjoint: Check<SitesWalk> = {
  id: 'sites-v2-pages-disjoint',
  summary: 'No site appears on two pages, and a complete walk collects totalRecords sites',
  run: ({ pages, complete = false }) => {
    const firstPage = new Map<string, number>();
    const duplicates: string[] = [];
    const totals = new Set<number>();
    let unkeyed = 0;
    let read = 0;
    pages.forEach((page, index) => {
      const list = readSites(page);
      if (!list.ok) return;
      read += 1;
      const { sites, pagination } = list.value;
      if (isRecord(pagination) && Number.isSafeInteger(pagination.totalRecords))
        totals.add(pagination.totalRecords as number);
      const onThisPage = new Set<string>();
      for (const site of sites) {
        const id = siteIdOf(site);
        if (id === undefined) {
          unkeyed += 1;
          continue;
        }
        if (onThisPage.has(id)) continue;
        onThisPage.add(id);
        const earlier = firstPage.get(id);
        if (earlier === undefined) firstPage.set(id, index + 1);
        else duplicates.push(`${id} on pages ${earlier} and ${index + 1}`);
      }
    });
    if (read === 0) return skip('No page could be read as a sites list');
    const collected = firstPage.size + unkeyed;
    const evidence = {
      pages: pages.length,
      readable: read,
      distinct: firstPage.size,
      withoutId: unkeyed,
      totalRecords: [...totals],
      complete,
    };
    if (duplicates.length > 0)
      return fail(`Expected no site on two pages, received ${listBrief(duplicates, 5)}`, {
        ...evidence,
        duplicates: duplicates.slice(0, 20),
      });
    const sites = `${collected} distinct ${collected === 1 ? 'site' : 'sites'} over ${read} ${read === 1 ? 'page' : 'pages'}`;
    if (!complete) return pass(`${sites} (walk not complete)`, evidence);
    if (totals.size > 1)
      return fail(`Expected the same totalRecords on every page, received ${[...totals].join(', ')}`, evidence);
    if (totals.size === 0) return pass(`${sites} (no totalRecords to compare)`, evidence);
    const [total] = totals;
    if (total !== collected)
      return fail(
        `Expected ${total} distinct sites over the complete walk (totalRecords), received ${collected}`,
        evidence,
      );
    return pass(`${sites}, as totalRecords says`, evidence);
  },
};
