/**
 * The shared bundle builder (Document 1, 2.1; DEC-D1-02, -12; Document 2, 2.1; DEC-D2-27, -32):
 * 1-based pages, default count 10, `total` and `maxCount` / `maxRecords` = number of matches, tag
 * displays as digit strings, a page beyond the end is empty. Also the ValueSet expansion paging
 * (DEC-D2-04).
 */

export const DEFAULT_COUNT = 10;

export interface Paging {
  page: number;
  count: number;
}

export interface BundleEntry {
  fullUrl?: string;
  resource: unknown;
  search?: { mode: 'match' | 'include' };
}

export interface Bundle {
  resourceType: 'Bundle';
  id?: string;
  meta: { tag: { code: string; display: string }[] };
  type: 'searchset' | 'collection';
  total: number;
  entry: BundleEntry[];
}

/** Paging from validated `page` / `count` parameters (absent = page 1, count `defaultCount`). */
export function pagingOf(values: Readonly<Record<string, string | undefined>>, defaultCount = DEFAULT_COUNT): Paging {
  return { page: Number(values.page ?? 1), count: Number(values.count ?? defaultCount) };
}

export interface PagedBundleOptions<T> {
  operationId: string;
  type: 'searchset' | 'collection';
  matches: readonly T[];
  paging: Paging;
  /** `maxRecords` for the pending-remittance list, `maxCount` elsewhere. */
  totalTag: 'maxCount' | 'maxRecords';
  entry: (item: T) => BundleEntry;
  /** Bundle id (Document 2 lookups carry one). */
  id?: string;
  /** Entries appended after the page's entries (`_include`), computed from the page's items. */
  included?: (page: readonly T[]) => BundleEntry[];
}

export function pagedBundle<T>(o: PagedBundleOptions<T>): Bundle {
  const start = (o.paging.page - 1) * o.paging.count;
  const page = o.matches.slice(start, start + o.paging.count);
  return {
    resourceType: 'Bundle',
    ...(o.id === undefined ? {} : { id: o.id }),
    meta: {
      tag: [
        { code: 'page', display: String(o.paging.page) },
        { code: 'count', display: String(o.paging.count) },
        { code: o.totalTag, display: String(o.matches.length) },
      ],
    },
    type: o.type,
    total: o.matches.length,
    entry: [...page.map(o.entry), ...(o.included?.(page) ?? [])],
  };
}

/**
 * A ValueSet expansion page (DEC-D2-04): `offset` = (page - 1) x count, `total` = number of
 * matching codes, the page's items, and the paging tags of 2.1.
 */
export function expansionPage<T>(
  matches: readonly T[],
  paging: Paging,
): {
  tag: { code: string; display: string }[];
  total: number;
  offset: number;
  items: T[];
} {
  const start = (paging.page - 1) * paging.count;
  return {
    tag: [
      { code: 'page', display: String(paging.page) },
      { code: 'count', display: String(paging.count) },
      { code: 'maxCount', display: String(matches.length) },
    ],
    total: matches.length,
    offset: start,
    items: matches.slice(start, start + paging.count),
  };
}

/**
 * A bundle of every match in one page, for the operations without paging parameters (hospital
 * claims, bills): page 1, and count, maxCount and total all equal the number of entries.
 */
export function singlePageBundle(type: 'searchset' | 'collection', entries: BundleEntry[]): Bundle {
  const n = String(entries.length);
  return {
    resourceType: 'Bundle',
    meta: {
      tag: [
        { code: 'page', display: '1' },
        { code: 'count', display: n },
        { code: 'maxCount', display: n },
      ],
    },
    type,
    total: entries.length,
    entry: entries,
  };
}
