/**
 * A logged exchange as the comparison reads its answer (core/answerDiff.ts `Answer`), and what the
 * documents say of how an operation's answers compare:
 *
 * - the headers compared are those the operation's table names (spec/operations.ts `headers`: the
 *   media type of a FHIR-style operation, the API version ...); a media type compares without
 *   regard to case or spaces (RFC 9110 8.3.1), its parameters kept;
 * - a Bundle's `entry[]` (D1 2.1) is in order when the request asked for one (`_sort`, on an
 *   operation that documents `sortValues`), and a set otherwise: no order is stated without it;
 *   under `_sort`, a run of entries with equal sort keys is a set too (ties may come in any order);
 * - the target's own address in an answer (a `fullUrl`, a link, a discovery address) reads as
 *   `{target}`: each target is somewhere else, and that is not a difference of behaviour.
 */
import type { Answer, CompareOptions } from '../../core/answerDiff.ts';
import type { SortKey } from '../../checks/entriesSorted.ts';
import { sentParameters } from '../../checks/sentParametersRead.ts';
import { compareSortKeys } from '../../checks/sortKey.ts';
import { isRecord } from '../../core/exchange.ts';
import type { LoggedExchange } from '../../core/exchangeLog.ts';
import { isOperationId, operation } from '../../spec/operations.ts';
import { sortKeyFor } from '../../suites/common/sortKeys.ts';

/** The origins a run called: what its answers name themselves by. */
export function originsOf(log: readonly LoggedExchange[]): string[] {
  const origins = new Set<string>();
  for (const x of log) {
    try {
      origins.add(new URL(x.exchange.url).origin);
    } catch {
      // an unparsable URL names no origin
    }
  }
  // Longest first: an origin that is a prefix of another is replaced after it.
  return [...origins].sort((a, b) => b.length - a.length || a.localeCompare(b));
}

/** The text with each origin (as written, and JSON-escaped `https:\/\/...`) read as `{target}`. */
export function withoutOrigins(text: string, origins: readonly string[]): string {
  let out = text;
  for (const o of origins) {
    out = out.split(o).join('{target}');
    const escaped = o.replaceAll('/', '\\/');
    if (escaped !== o) out = out.split(escaped).join('{target}');
  }
  return out;
}

/** The header names the operation's table names, lower case. */
export function namedHeaders(operationId: string | undefined): string[] {
  if (operationId === undefined || !isOperationId(operationId)) return [];
  return [...new Set(operation(operationId).headers.map((h) => h.name.toLowerCase()))];
}

/** A media type as RFC 9110 compares it: case-insensitive, no spaces around its separators. */
function mediaType(value: string): string {
  return value
    .toLowerCase()
    .replace(/\s*([;=,])\s*/g, '$1')
    .trim();
}

/** An answer, and its body's text as compared (the target's address read as `{target}`). */
export type ReadAnswer = Answer & { text?: string };

/** The answer of a logged exchange: status 0 and no body when none came. */
export function answerOf(x: LoggedExchange, origins: readonly string[]): ReadAnswer {
  const e = x.exchange;
  if (e.status === undefined || e.response === undefined) return { status: 0, headers: {} };
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(e.response.headers)) {
    const h = name.toLowerCase();
    const v = withoutOrigins(value, origins);
    headers[h] = h === 'content-type' ? mediaType(v) : v.trim();
  }
  const text = withoutOrigins(e.response.body, origins);
  if (text.trim() === '') return { status: e.status, headers, text };
  if (e.response.truncated) return { status: e.status, headers, body: text, text };
  try {
    return { status: e.status, headers, body: JSON.parse(text) as unknown, text };
  } catch {
    return { status: e.status, headers, body: text, text };
  }
}

/**
 * The `_sort` a request asked for, read where the documents send parameters (the form body of a
 * POST, the query of a GET: checks/sentParametersRead.ts `sentParameters`, the suite's one reader
 * of a recorded request's parameters), when its operation documents an order (`sortValues`).
 */
export function requestedSort(x: LoggedExchange): { sort: string; parameters: URLSearchParams } | undefined {
  const e = x.exchange;
  if (e.operation === undefined || !isOperationId(e.operation)) return undefined;
  const op = operation(e.operation);
  if (!op.sortValues?.length) return undefined;
  const parameters = sentParameters(
    { request: { method: e.method, url: e.url, headers: e.request.headers, body: e.request.body } },
    op.method === 'POST' ? 'form' : 'query',
  );
  const sort = parameters.get('_sort');
  return sort === null ? undefined : { sort, parameters };
}

/** Whether the request asked for an order the operation documents (`_sort`). */
export const orderRequested = (x: LoggedExchange): boolean => requestedSort(x) !== undefined;

/** The body of an exchange's answer as JSON, when it is JSON. */
function bodyOf(x: LoggedExchange): unknown {
  try {
    return JSON.parse(x.exchange.response?.body ?? '') as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Whether two entries of the reference's answer may come in either order: the sort key of the
 * requested `_sort` (suites/common/sortKeys.ts, as the suites judge the order) is equal on both
 * (checks/sortKey.ts `compareSortKeys`). Ties may come in any order (DEC-D1-04, DEC-D1-22).
 */
function tiesOf(x: LoggedExchange): CompareOptions['tied'] {
  const asked = requestedSort(x);
  const op = x.exchange.operation;
  if (!asked || op === undefined) return undefined;
  const keyOf = sortKeyFor(op, asked.sort, { body: bodyOf(x), parameters: asked.parameters });
  if (!keyOf) return undefined;
  const key = (entry: unknown): SortKey | undefined => {
    if (!isRecord(entry) || !isRecord(entry.resource)) return undefined;
    try {
      const k = keyOf(entry.resource);
      return typeof k === 'number' && Number.isNaN(k) ? undefined : k;
    } catch {
      return undefined;
    }
  };
  // Entries an `_include` added (search.mode `include`) are not ordered by the sort: no key orders them.
  const included = (entry: unknown): boolean =>
    isRecord(entry) && isRecord(entry.search) && entry.search.mode === 'include';
  return (path, a, b) => {
    if (path !== '/entry') return false;
    if (included(a) && included(b)) return true;
    const [ka, kb] = [key(a), key(b)];
    return ka !== undefined && kb !== undefined && compareSortKeys(ka, kb) === 0;
  };
}

/**
 * How two answers to this request compare: the named headers, and `entry[]` in order when one was
 * asked for, its runs of entries with equal sort keys as sets.
 */
export function compareOptionsOf(x: LoggedExchange): Omit<CompareOptions, 'ignore'> {
  const ordered = orderRequested(x);
  const tied = ordered ? tiesOf(x) : undefined;
  return {
    headers: namedHeaders(x.exchange.operation),
    ordered: (p) => ordered && p === '/entry',
    ...(tied ? { tied } : {}),
  };
}
