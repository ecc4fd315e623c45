import { fail, pass, skip, type Check } from '../core/check.ts';
import type { RespondedExchange } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readBundle } from './readJson.ts';
import { resourceKey } from './resourceKey.ts';

export interface PageWalk {
  /** The pages of one query, in the order they were fetched (numbered from 1 in messages). */
  pages: readonly RespondedExchange[];
}

/**
 * No resource appears on two pages of one query (document 1, 2.1; DEC-D1-12). Resources are
 * keyed `resourceType/id`; entries without an id and pages that are not Bundles are left out
 * (other checks judge them).
 */
export const pagesDoNotOverlap: Check<PageWalk> = {
  id: 'pages-do-not-overlap',
  summary: 'No resource appears on two pages of one query',
  run: ({ pages }) => {
    if (pages.length < 2) return skip(`Only ${pages.length} page came back; overlap needs two`);
    const firstPage = new Map<string, number>();
    const duplicates: string[] = [];
    let read = 0;
    pages.forEach((page, index) => {
      const bundle = readBundle(page);
      if (!bundle.ok) return;
      read += 1;
      const onThisPage = new Set<string>();
      for (const resource of bundle.value.resources) {
        const key = resourceKey(resource);
        if (key === undefined || onThisPage.has(key)) continue;
        onThisPage.add(key);
        const earlier = firstPage.get(key);
        if (earlier === undefined) firstPage.set(key, index + 1);
        else duplicates.push(`${key} on pages ${earlier} and ${index + 1}`);
      }
    });
    if (read === 0) return skip('No page could be read as a Bundle');
    const evidence = { pages: pages.length, readable: read, distinct: firstPage.size };
    if (duplicates.length === 0) return pass(`${firstPage.size} distinct resources over ${read} pages`, evidence);
    return fail(`Expected no resource on two pages, received ${listBrief(duplicates, 5)}`, { ...evidence, duplicates });
  },
};
