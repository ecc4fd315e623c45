/**
 * Logged calls for the comparison's tests (`conformance compare`, issue 35): one answered call of a
 * target as core/exchangeLog.ts logs it, and a recorded exchange read back as a harness exchange.
 * One shape for every test of app/compare and reports/compare*, so a change of the log's shape is
 * made here once.
 */
import type { Exchange } from '../../core/exchange.ts';
import type { LoggedExchange } from '../../core/exchangeLog.ts';
import type { ExchangeRecord } from '../../core/results.ts';

export interface LoggedCallOptions {
  /** The answer's JSON body, serialised as it is. */
  body: unknown;
  /** Path and query after the origin. */
  path: string;
  operation: string;
  ordinal?: number;
  method?: string;
  suite?: string;
  test?: string;
  id?: string;
  status?: number;
  request?: { headers: Record<string, string>; body?: string };
  contentType?: string;
}

/** A logged call: the answer of the target at `origin` to a request of an operation. */
export function loggedCall(origin: string, o: LoggedCallOptions): LoggedExchange {
  const text = JSON.stringify(o.body);
  const ordinal = o.ordinal ?? 0;
  return {
    suite: o.suite ?? 'patients',
    test: o.test ?? `${o.operation} > t`,
    ordinal,
    id: o.id ?? `${origin}#${ordinal}`,
    exchange: {
      method: o.method ?? 'GET',
      url: `${origin}${o.path}`,
      operation: o.operation,
      startedAt: '2026-01-01T00:00:00.000Z',
      duration: 1,
      request: o.request ?? { headers: {} },
      status: o.status ?? 200,
      response: {
        headers: { 'content-type': o.contentType ?? 'application/json' },
        body: text,
        size: text.length,
        truncated: false,
      },
    },
  };
}

/** A recorded exchange (results.json) as the harness's exchange, for renderers that read those. */
export const exchangeOfRecord = (r: ExchangeRecord): Exchange => ({
  id: '',
  ...(r.operation !== undefined ? { operation: r.operation } : {}),
  startedAt: r.startedAt,
  durationMs: r.duration,
  request: { method: r.method, url: r.url, headers: r.request.headers },
  response: {
    status: r.status ?? 0,
    headers: r.response?.headers ?? {},
    bodyText: r.response?.body ?? '',
    size: r.response?.size ?? 0,
    truncated: false,
  },
});
