import { fail, pass, skip, type Check } from '../core/check.ts';
import { type ClientExchange, fieldsOf, jsonOf } from '../core/clientRequest.ts';
import { isLastPage, pagingTagNumber } from '../core/readers/paging.ts';

interface Page {
  page: number;
  /** No page follows it: fewer entries than `count`, or `total` / `maxCount` reached (DEC-C-04). */
  last: boolean;
}

/** What one answered page of a paged Bundle (Document 2, 2.1) says about the pages after it. */
function pageOf(x: ClientExchange): Page | undefined {
  const bundle = jsonOf(x.responseBody);
  if (x.status !== 200 || typeof bundle !== 'object' || bundle === null) return undefined;
  const page = Number(fieldsOf(x).get('page') ?? pagingTagNumber(bundle, 'page')) || 1;
  return { page, last: isLastPage(bundle, page) };
}

/** The query without `page`: requests for pages of one search share it. */
const searchOf = (x: ClientExchange): string => {
  const fields = fieldsOf(x);
  fields.delete('page');
  fields.sort();
  return fields.toString();
};

/**
 * Document 2, 2.1 and 4.9: register searches are paged Bundles (`page`, `count`, tags `page`,
 * `count`, `maxCount`); the documents do not say how a caller knows the last page (DEC-D1-12,
 * DEC-C-04). A page is last when it holds fewer entries than its `count` or when `total` /
 * `maxCount` show no match beyond it. Judged per search (the query without `page`), in order: the
 * client goes on until it has a last page, and asks for at most one page beyond it (an empty page
 * past the end is how some clients learn it).
 */
export const clientPagesToLastPage: Check<readonly ClientExchange[]> = {
  id: 'client-pages-to-last-page',
  summary: 'The client pages through a search until its last page, and not endlessly past it',
  run: (exchanges) => {
    const searches = new Map<string, Page[]>();
    for (const x of exchanges) {
      if (x.operation?.id !== 'search-register-practitioners') continue;
      const page = pageOf(x);
      if (!page) continue;
      const key = searchOf(x);
      searches.set(key, [...(searches.get(key) ?? []), page]);
    }
    const paged = [...searches.entries()].filter(([, pages]) => pages.length > 1 || !pages[0].last);
    if (paged.length === 0) return skip('The client made no search with more than one page');
    const problems: string[] = [];
    for (const [query, pages] of paged) {
      const at = pages.findIndex((p) => p.last);
      if (at === -1)
        problems.push(`${query || 'the search'}: stopped at page ${pages.at(-1)?.page}, which was not the last`);
      else if (pages.length - at - 1 > 1)
        problems.push(
          `${query || 'the search'}: ${pages.length - at - 1} pages requested after the last page ${pages[at].page}`,
        );
    }
    return problems.length === 0
      ? pass(`Paged to the last page (${paged.map(([, pages]) => pages.length).join(', ')} page(s))`)
      : fail(`Expected the pages up to the last one and no further, received ${problems.join('; ')}`);
  },
};
