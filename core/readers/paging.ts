/**
 * The one reader of paging tags (D1 2.1, D2 2.1: a Bundle's `meta.tag[]` entries `page`, `count`,
 * `maxCount`, and `maxRecords` on the pending list, DEC-D1-02, each with its number as `display`
 * text) and of the last page (DEC-C-04). Checks, suites, state machines and the client judge ask
 * here. Never throws on odd shapes.
 */

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The paging tags of a Bundle by code, their `display` as given (not yet read as numbers). */
export function pagingTags(body: unknown): Map<string, unknown> {
  const tags = new Map<string, unknown>();
  if (!isRec(body) || !isRec(body.meta) || !Array.isArray(body.meta.tag)) return tags;
  for (const t of body.meta.tag) if (isRec(t) && typeof t.code === 'string') tags.set(t.code, t.display);
  return tags;
}

/** A paging tag read as a number (digit text or a number), NaN when absent or not a number. */
export function pagingTagNumber(body: unknown, code: string): number {
  const v = pagingTags(body).get(code);
  if (typeof v === 'number') return v;
  return typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
}

/**
 * Whether an answered page is the last of its search (DEC-C-04): it holds fewer entries than its
 * `count` tag, or neither `total` nor `maxCount` counts a match beyond it. `page` is the page asked
 * for (default: the page tag, else 1).
 */
export function isLastPage(body: unknown, page?: number): boolean {
  const entries = isRec(body) && Array.isArray(body.entry) ? body.entry.length : 0;
  const count = pagingTagNumber(body, 'count');
  const at = page ?? (pagingTagNumber(body, 'page') || 1);
  const total = isRec(body) && typeof body.total === 'number' ? body.total : 0;
  const matches = Math.max(total, pagingTagNumber(body, 'maxCount') || 0);
  return !(entries > 0 && entries >= count && matches > at * count);
}

/** Where a walk over the pages of one query stands after a page (DEC-R-06). */
export interface WalkStep {
  /** True when no page after this one can hold a record of the query. */
  ends: boolean;
  /** Why, in words for the evidence. */
  why: string;
}

/**
 * Whether a walk over the pages of one query ends at this page (DEC-R-06). `count` is a maximum
 * (D1 4.3 "Maximum records per page") and the page size is the server's (D1 8: "not shown"), so a
 * page shorter than asked for ends the walk only when the paging tags say so: it holds fewer
 * entries than its `count` tag (or `asked`, without one), a stated count (`total`, `maxCount`,
 * `maxRecords`) equals the distinct records `collected` so far, and none exceeds them. An empty
 * page always ends it. Otherwise the next page is asked for (a page past the last is empty).
 *
 * @param items the entries (or code-set items) of this page
 * @param collected the distinct records of the walk so far, this page's included
 * @param asked the `count` the request asked for
 */
export function walkStep(body: unknown, items: number, collected: number, asked: number): WalkStep {
  if (items === 0) return { ends: true, why: 'an empty page' };
  const stated = [
    pagingTagNumber(body, 'maxCount'),
    pagingTagNumber(body, 'maxRecords'),
    isRec(body) && typeof body.total === 'number' ? body.total : Number.NaN,
  ].filter((n) => Number.isFinite(n));
  const beyond = stated.find((n) => n > collected);
  if (beyond !== undefined)
    return { ends: false, why: `a stated count of ${beyond} exceeds the ${collected} collected` };
  const tag = pagingTagNumber(body, 'count');
  const size = Number.isFinite(tag) && tag > 0 ? tag : asked;
  if (items < size && stated.includes(collected))
    return { ends: true, why: `${items} entries of a page of ${size}, and a stated count of ${collected} reached` };
  return { ends: false, why: 'the tags do not say this page is the last' };
}
