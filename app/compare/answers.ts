/**
 * A logged exchange as the comparison reads its answer (core/answerDiff.ts `Answer`), and what the
 * documents say of how an operation's answers compare:
 *
 * - the headers compared are those the operation's table names (spec/operations.ts `headers`: the
 *   media type of a FHIR-style operation, the API version ...); a media type compares without
 *   regard to case or spaces (RFC 9110 8.3.1), its parameters kept;
 * - a Bundle's `entry[]` (D1 2.1) is in order when the request asked for one (`_sort`, among the
 *   operation's documented `sortValues`), and a set otherwise: no order is stated without it;
 * - the target's own address in an answer (a `fullUrl`, a link, a discovery address) reads as
 *   `{target}`: each target is somewhere else, and that is not a difference of behaviour.
 */
import type { Answer, CompareOptions } from '../../core/answerDiff.ts';
import type { LoggedExchange } from '../../core/exchangeLog.ts';
import { isOperationId, operation } from '../../spec/operations.ts';

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

/** Whether the request asked for an order (`_sort`, in its query or form body) the operation documents. */
export function orderRequested(x: LoggedExchange): boolean {
  const e = x.exchange;
  if (e.operation === undefined || !isOperationId(e.operation)) return false;
  if (!operation(e.operation).sortValues?.length) return false;
  try {
    if (new URL(e.url).searchParams.has('_sort')) return true;
  } catch {
    // no query to read
  }
  const type = Object.entries(e.request.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  return /x-www-form-urlencoded/i.test(type) && new URLSearchParams(e.request.body ?? '').has('_sort');
}

/** How two answers to this request compare: the named headers, and `entry[]` in order when one was asked for. */
export function compareOptionsOf(x: LoggedExchange): Omit<CompareOptions, 'ignore'> {
  const ordered = orderRequested(x);
  return { headers: namedHeaders(x.exchange.operation), ordered: (p) => ordered && p === '/entry' };
}
