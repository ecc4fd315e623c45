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
