/**
 * A recorded exchange as checks see it (unmasked, in memory). Masking happens when an exchange
 * leaves the process (core/redact.ts).
 */
export interface ExchangeRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface ExchangeResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  bodyText: string;
  /** Bytes received (before the cap cut the body). */
  size: number;
  truncated: boolean;
}

export interface Exchange {
  id: string;
  operation?: string;
  startedAt: string;
  durationMs: number;
  request: ExchangeRequest;
  response?: ExchangeResponse;
  /** Transport failure (refused, time-out, size cap, bad redirect): no response to judge. */
  error?: string;
  /**
   * What kind of failure `error` is: `time-out` (no complete answer within the call's time budget),
   * `transport` (refused, reset, closed early), `not-sent` (the run's breaker stopped the service,
   * core/breaker.ts), `size-cap` or `redirects` (an answer arrived, and is judged as it is),
   * `load-refused` (below), `undecodable` (an answer in a content coding the suite cannot decode,
   * or whose bytes do not decode: no body to judge, DEC-R-09).
   */
  errorKind?: ErrorKind;
  /**
   * Load refusals (HTTP 429, or 503 with Retry-After) waited out before this exchange: how many
   * times the request was sent again (core/http.ts). Absent when the first answer was kept.
   */
  retries?: number;
  /** Milliseconds waited in all before those resends (outside the call's `timeoutMs`). */
  waitedMs?: number;
  /**
   * With `errorKind` `load-refused`: the refusal the target still gave when the run stopped
   * retrying (the answer itself is not kept: it says nothing about the operation).
   */
  loadRefusal?: { status: number; retryAfter?: string };
}

/**
 * `load-refused`: the target still refused the call for load (HTTP 429, or 503 with Retry-After)
 * when the retries allowed were used up; there is no answer to judge and the result is `error`.
 */
export type ErrorKind =
  | 'time-out'
  | 'transport'
  | 'not-sent'
  | 'size-cap'
  | 'redirects'
  | 'load-refused'
  | 'undecodable';

/** An exchange that has a response: what a check's `run` receives. */
export type RespondedExchange = Exchange & { response: ExchangeResponse };

export function hasResponse(x: Exchange): x is RespondedExchange {
  return x.response !== undefined;
}

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string };

const parsed = new WeakMap<ExchangeResponse, JsonParse>();

/** The response body parsed as JSON, memoised per response. */
export function parseJson(x: RespondedExchange): JsonParse {
  const cached = parsed.get(x.response);
  if (cached) return cached;
  let result: JsonParse;
  if (x.response.truncated) result = { ok: false, error: 'body truncated at the size cap' };
  else {
    try {
      result = { ok: true, value: JSON.parse(x.response.bodyText) as unknown };
    } catch (e) {
      result = { ok: false, error: (e as Error).message };
    }
  }
  parsed.set(x.response, result);
  return result;
}

/** The JSON body, or undefined when the body is not JSON. */
export function jsonBody(x: RespondedExchange): unknown {
  const p = parseJson(x);
  return p.ok ? p.value : undefined;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The `resource` of every bundle entry (entries without a resource are skipped). */
export function bundleResources(body: unknown): Record<string, unknown>[] {
  if (!isRecord(body) || !Array.isArray(body.entry)) return [];
  return body.entry
    .map((e) => (isRecord(e) && isRecord(e.resource) ? e.resource : undefined))
    .filter((r): r is Record<string, unknown> => r !== undefined);
}

/** The paging tags of a Bundle: read by the one paging reader (core/readers/paging.ts). */
export { pagingTags } from './readers/paging.ts';

/** The JSON body of any exchange; undefined without a response or with a non-JSON body. */
export function bodyOf(x: Exchange): unknown {
  return hasResponse(x) ? jsonBody(x) : undefined;
}
