/**
 * Ordering of sort keys: numbers numerically, ISO date or date-time strings by time, anything
 * else lexically (by UTF-16 code units, so the result does not depend on the locale).
 */
const ISO_DATE = /^\d{4}-\d{2}(?:-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?)?$/;

/** Milliseconds of an ISO date or date-time; date-times without offset are read as UTC. */
export function isoTime(text: string): number | undefined {
  const m = ISO_DATE.exec(text);
  if (!m) return undefined;
  const hasTime = text.length > 10;
  const normalised = hasTime && m[1] === undefined ? `${text.replace(' ', 'T')}Z` : text.replace(' ', 'T');
  const ms = Date.parse(normalised.length === 7 ? `${normalised}-01` : normalised);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Negative when a sorts before b, zero on a tie, positive otherwise. */
export function compareSortKeys(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a === b ? 0 : a < b ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') {
    const ta = isoTime(a);
    const tb = isoTime(b);
    if (ta !== undefined && tb !== undefined) return ta === tb ? 0 : ta < tb ? -1 : 1;
  }
  const sa = String(a);
  const sb = String(b);
  return sa === sb ? 0 : sa < sb ? -1 : 1;
}
