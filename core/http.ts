/**
 * The HTTP client (undici). Every call yields an Exchange, never an exception: transport faults
 * (refused, time-out, size cap, bad redirect) become `error` on the exchange. `timeoutMs` bounds a
 * whole call, redirects and a trickling body included (undici's own time-outs are per idle gap);
 * a guard (the run's breaker, core/breaker.ts) may refuse to send a call at all.
 *
 * Load refusals are waited out: an answer HTTP 429 (RFC 6585) or 503 with Retry-After (RFC 9110
 * 15.6.4, 10.2.3) says the target, or a gateway in front of it, is busy, not how it serves the
 * operation. The client waits what Retry-After asks (delay-seconds or an HTTP-date; at most
 * `maxRetryAfterMs`; a 429 without one waits 1, 2, 4 ... s) and sends the same request again,
 * within the run's retry budget (`loadRetries` resends and `loadRetryWaitMs` of waiting in all,
 * shared by every client of the run) and at most MAX_RETRIES_PER_CALL times per call. A call still
 * refused then comes back without an answer (`errorKind` `load-refused`), which is judged `error`,
 * never `fail`. While one call waits, the client's other calls start no earlier either.
 *
 * `timeoutMs` bounds each attempt (every hop of its redirects and the whole body); the waits for
 * Retry-After and for a pacing turn are outside it, bounded by the run's retry budget and the rate.
 *
 * Pacing (a Pacer): at most `maxRequestsPerSecond` requests started per second, evenly spaced, and
 * at most `concurrency` calls in flight at once. Suite workers each get their share of both
 * (app/vitestEngine.ts), so that the whole run keeps to them.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import type { Exchange, ExchangeRequest, ExchangeResponse } from './exchange.ts';

export interface HttpOptions {
  /** Time budget of one call (of each attempt), from sending to the end of the body, redirects included. */
  timeoutMs: number;
  maxResponseBytes: number;
  maxRedirects?: number;
  /** Resends after load refusals, for a client given no shared budget (default 1000; 0 never resends). */
  loadRetries?: number;
  /** Milliseconds of waiting for load refusals in all, for a client given no shared budget (default 600000). */
  loadRetryWaitMs?: number;
  /** Longest single wait for a load refusal; a longer Retry-After is waited this long (default 30000). */
  maxRetryAfterMs?: number;
  /** Requests started per second at most, evenly spaced (default: no limit). */
  maxRequestsPerSecond?: number;
  /** Calls in flight at once at most (default: no limit). */
  concurrency?: number;
}

/** The defaults of the retry budget (config `http.loadRetries`, `http.loadRetryWaitMs`, `http.maxRetryAfterMs`). */
export const LOAD_RETRY_DEFAULTS = { loadRetries: 1000, loadRetryWaitMs: 600_000, maxRetryAfterMs: 30_000 } as const;

/** Resends of one call at most, whatever the run's budget: a call refused this often is left unjudged. */
export const MAX_RETRIES_PER_CALL = 10;

/** First wait for a 429 without Retry-After; it doubles with each resend of the call. */
const BACKOFF_MS = 1000;

/** Consulted around every call (in suite workers: the run's breaker, core/breaker.ts). */
export interface CallGuard {
  /** Why this call is not sent (its exchange then carries the reason as `error`), or undefined. */
  refusal(req: ExchangeRequest, operation?: string): string | undefined;
  /** The exchange of a call that was sent; `req` is the request as first sent, before any redirect. */
  sent(x: Exchange, req: ExchangeRequest): void;
}

/** What a run spent on load refusals. */
export interface LoadRetryTotals {
  /** Resends after a load refusal. */
  retries: number;
  /** Milliseconds of waiting those resends asked for, in all. */
  waitedMs: number;
  /** Calls left unjudged, still refused when no resend was allowed. */
  gaveUp: number;
}

/** The limits of a retry budget. */
export interface RetryLimits {
  loadRetries: number;
  loadRetryWaitMs: number;
}

/** The resends a run may make after load refusals; one per run, shared by its clients. */
export interface RetryBudget {
  /** Takes one resend after a wait of `waitMs`; why it cannot be taken (the budget is spent), or undefined. */
  take(waitMs: number): string | undefined;
  /** Counts a call left unjudged. */
  gaveUp(): void;
  totals(): LoadRetryTotals;
}

/** Why one more resend after `waitMs` does not fit the budget, or undefined when it does. */
export function overBudget(spent: LoadRetryTotals, limits: RetryLimits, waitMs: number): string | undefined {
  if (limits.loadRetries === 0) return 'resending is off: http.loadRetries is 0';
  if (spent.retries >= limits.loadRetries) return `the run's budget of ${limits.loadRetries} resends is spent`;
  if (spent.waitedMs + waitMs > limits.loadRetryWaitMs)
    return `the run's budget of ${limits.loadRetryWaitMs / 1000} s of waiting is spent`;
  return undefined;
}

/** A retry budget of one process (the suite workers share theirs through the run folder, core/breaker.ts). */
export class LocalRetryBudget implements RetryBudget {
  private readonly spent: LoadRetryTotals = { retries: 0, waitedMs: 0, gaveUp: 0 };

  constructor(private readonly limits: RetryLimits) {}

  take(waitMs: number): string | undefined {
    const why = overBudget(this.spent, this.limits, waitMs);
    if (why === undefined) {
      this.spent.retries += 1;
      this.spent.waitedMs += waitMs;
    }
    return why;
  }

  gaveUp(): void {
    this.spent.gaveUp += 1;
  }

  totals(): LoadRetryTotals {
    return { ...this.spent };
  }
}

/**
 * Milliseconds added to the second over which N requests are spread: a request reaches the target
 * a little later or earlier than it left (a new connection, a busy machine), and a gateway that
 * counts N per sliding second would refuse the N+1st that jitter brings into its second.
 */
export const PACING_MARGIN_MS = 50;

/**
 * Paces the calls of one client (or of one suite worker): at most `maxRequestsPerSecond` starts a
 * second, evenly spaced (a start every (1000 + PACING_MARGIN_MS)/N ms, every redirect hop counted),
 * at most `concurrency` calls in flight, and no start before a time the target asked to wait until.
 */
export class Pacer {
  /** performance.now() of the next start allowed. */
  private next = 0;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly interval: number;

  constructor(
    maxRequestsPerSecond?: number,
    private readonly concurrency?: number,
  ) {
    this.interval = maxRequestsPerSecond ? (1000 + PACING_MARGIN_MS) / maxRequestsPerSecond : 0;
  }

  /** Waits for a place among the calls in flight; the function returned gives it back. */
  async enter(): Promise<() => void> {
    if (this.concurrency !== undefined) {
      if (this.active < this.concurrency) this.active += 1;
      else await new Promise<void>((resolve) => this.waiting.push(resolve)); // handed over by a leaving call
    }
    let left = false;
    return () => {
      if (left || this.concurrency === undefined) return;
      left = true;
      const nextCall = this.waiting.shift();
      if (nextCall) nextCall();
      else this.active -= 1;
    };
  }

  /** Waits for the next start the rate (and any hold) allows, and takes it. */
  async turn(): Promise<void> {
    const now = performance.now();
    const at = Math.max(now, this.next);
    this.next = at + this.interval;
    if (at <= now) return;
    await sleep(at - now);
    // A timer fires late, never early: the next start is counted from this one as it happened.
    this.next = Math.max(this.next, performance.now() + this.interval);
  }

  /** No call starts before `until` (performance.now() time): the target asked to wait. */
  holdUntil(until: number): void {
    this.next = Math.max(this.next, until);
  }
}

/** An answer that refuses the call for load: HTTP 429, or 503 with a valid Retry-After. */
export interface LoadRefusal {
  status: number;
  /** The Retry-After header as received. */
  retryAfter?: string;
  /** What Retry-After asks to wait, in milliseconds (undefined: absent or not a valid value). */
  waitMs?: number;
}

/** The load refusal an answer is, or undefined (a 503 without a valid Retry-After is a server error, judged). */
export function loadRefusalOf(response: ExchangeResponse | undefined, now = Date.now()): LoadRefusal | undefined {
  if (response === undefined || (response.status !== 429 && response.status !== 503)) return undefined;
  const retryAfter = response.headers['retry-after'];
  const waitMs = retryAfterMs(retryAfter, now);
  if (response.status === 503 && waitMs === undefined) return undefined;
  return { status: response.status, ...(retryAfter !== undefined ? { retryAfter } : {}), waitMs };
}

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
/** The three forms of an HTTP-date (RFC 9110 5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime. */
const IMF_FIXDATE = new RegExp(String.raw`^${DAY}, \d{2} ${MONTH} \d{4} \d{2}:\d{2}:\d{2} GMT$`);
const RFC850_DATE = new RegExp(String.raw`^${DAY}[a-z]*, \d{2}-${MONTH}-\d{2} \d{2}:\d{2}:\d{2} GMT$`);
const ASCTIME_DATE = new RegExp(String.raw`^${DAY} ${MONTH} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$`);

/**
 * Milliseconds a Retry-After value asks to wait (RFC 9110 10.2.3: delay-seconds, or an HTTP-date,
 * a date already past asking for no wait); undefined when absent or not a valid value.
 */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  let at = Number.NaN;
  if (IMF_FIXDATE.test(v) || RFC850_DATE.test(v)) at = Date.parse(v);
  else if (ASCTIME_DATE.test(v)) at = Date.parse(`${v} GMT`); // asctime carries no zone: it is GMT
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Why a call is left unjudged after load refusals: one line naming the last refusal. */
export function loadRefusalMessage(refusal: LoadRefusal, retries: number, why: string): string {
  const header = refusal.retryAfter === undefined ? 'no Retry-After' : `Retry-After ${oneLine(refusal.retryAfter, 60)}`;
  const what = `(HTTP ${refusal.status}, ${header})`;
  return retries === 0
    ? `the target refused the call for load ${what} and it was not sent again (${why}); not judged`
    : `the target was still refusing for load ${what} after ${retries} ${retries === 1 ? 'retry' : 'retries'} (${why}); not judged`;
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Headers that carry credentials or identity and must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'su-siteid',
  'su-userid',
  'clientid',
  'secret',
];

export class HttpClient {
  private readonly agent: Agent;
  private readonly budget: RetryBudget;
  private readonly pacer: Pacer;
  private readonly maxRetryAfterMs: number;

  /**
   * @param shared the run's retry budget and this worker's pacer; by default the client has its
   *   own, from `options`
   */
  constructor(
    private readonly options: HttpOptions,
    private readonly guard?: CallGuard,
    shared: { budget?: RetryBudget; pacer?: Pacer } = {},
  ) {
    this.agent = new Agent({
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connectTimeout: Math.min(options.timeoutMs, 10000),
      keepAliveTimeout: 1000,
    });
    this.budget =
      shared.budget ??
      new LocalRetryBudget({
        loadRetries: options.loadRetries ?? LOAD_RETRY_DEFAULTS.loadRetries,
        loadRetryWaitMs: options.loadRetryWaitMs ?? LOAD_RETRY_DEFAULTS.loadRetryWaitMs,
      });
    this.pacer = shared.pacer ?? new Pacer(options.maxRequestsPerSecond, options.concurrency);
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? LOAD_RETRY_DEFAULTS.maxRetryAfterMs;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /**
   * Sends the request (following redirects safely), waits out load refusals within the budget,
   * and records the final exchange.
   */
  async send(req: ExchangeRequest, operation?: string): Promise<Exchange> {
    const first: ExchangeRequest = { ...req, headers: { ...req.headers } };
    const refusal = this.guard?.refusal(first, operation);
    if (refusal !== undefined) {
      return {
        id: randomUUID(),
        operation,
        startedAt: new Date().toISOString(),
        durationMs: 0,
        request: first,
        error: refusal,
        errorKind: 'not-sent',
      };
    }
    let retries = 0;
    let waitedMs = 0;
    for (;;) {
      const attempt = await this.attempt(first);
      const load = loadRefusalOf(attempt.response);
      let x: Exchange;
      if (load === undefined) {
        x = {
          id: randomUUID(),
          operation,
          ...attempt,
          ...(retries > 0 ? { retries, waitedMs: Math.round(waitedMs) } : {}),
        };
      } else {
        const waitMs = Math.min(load.waitMs ?? BACKOFF_MS * 2 ** retries, this.maxRetryAfterMs);
        const stop =
          retries >= MAX_RETRIES_PER_CALL ? `at most ${MAX_RETRIES_PER_CALL} per call` : this.budget.take(waitMs);
        if (stop === undefined) {
          this.pacer.holdUntil(performance.now() + waitMs);
          const t = performance.now();
          await sleep(waitMs);
          waitedMs += performance.now() - t;
          retries += 1;
          continue;
        }
        this.budget.gaveUp();
        x = {
          id: randomUUID(),
          operation,
          startedAt: attempt.startedAt,
          durationMs: attempt.durationMs,
          request: attempt.request,
          error: loadRefusalMessage(load, retries, stop),
          errorKind: 'load-refused',
          loadRefusal: {
            status: load.status,
            ...(load.retryAfter !== undefined ? { retryAfter: load.retryAfter } : {}),
          },
          retries,
          waitedMs: Math.round(waitedMs),
        };
      }
      this.guard?.sent(x, first);
      return x;
    }
  }

  /** One attempt: the request and its redirects, within one time budget, each hop at its pacing turn. */
  private async attempt(first: ExchangeRequest): Promise<Attempt> {
    const leave = await this.pacer.enter();
    try {
      let current = first;
      let result: Outcome = {};
      let startedAt = '';
      let durationMs = 0;
      const maxRedirects = this.options.maxRedirects ?? 5;
      // One budget for the whole call: every hop and every byte of the body (pacing turns excluded).
      for (let hop = 0; ; hop++) {
        await this.pacer.turn();
        if (hop === 0) startedAt = new Date().toISOString();
        const remaining = this.options.timeoutMs - durationMs;
        if (remaining <= 0) {
          result = { error: noCompleteResponse(current.url, this.options.timeoutMs), errorKind: 'time-out' };
          break;
        }
        const t = performance.now();
        result = await this.once(current, AbortSignal.timeout(Math.ceil(remaining)));
        durationMs += performance.now() - t;
        const status = result.response?.status ?? 0;
        const location = result.response?.headers.location;
        if (!(status >= 300 && status < 400 && location && [301, 302, 303, 307, 308].includes(status))) break;
        if (hop >= maxRedirects) {
          result = { ...result, error: `Too many redirects (more than ${maxRedirects})`, errorKind: 'redirects' };
          break;
        }
        current = redirected(current, location, status);
      }
      return { startedAt, durationMs, request: current, ...result };
    } finally {
      leave();
    }
  }

  private async once(req: ExchangeRequest, signal: AbortSignal): Promise<Outcome> {
    try {
      const res = await request(req.url, {
        method: req.method as 'GET',
        headers: req.headers,
        body: req.body,
        dispatcher: this.agent,
        signal,
      });
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > this.options.maxResponseBytes) {
          truncated = true;
          const room = this.options.maxResponseBytes - (size - chunk.length);
          if (room > 0) chunks.push(chunk.subarray(0, room));
          res.body.destroy();
          break;
        }
        chunks.push(chunk);
      }
      const response = {
        status: res.statusCode,
        headers,
        bodyText: Buffer.concat(chunks).toString('utf8'),
        size,
        truncated,
      };
      return truncated
        ? {
            response,
            error: `Response body exceeded the cap of ${this.options.maxResponseBytes} bytes`,
            errorKind: 'size-cap',
          }
        : { response };
    } catch (e) {
      return {
        error: describeTransportError(e, req.url, this.options.timeoutMs),
        errorKind: isTimeout(e) ? 'time-out' : 'transport',
      };
    }
  }
}

type Outcome = Pick<Exchange, 'response' | 'error' | 'errorKind'>;
type Attempt = Outcome & Pick<Exchange, 'startedAt' | 'durationMs' | 'request'>;

function redirected(req: ExchangeRequest, location: string, status: number): ExchangeRequest {
  const from = new URL(req.url);
  const to = new URL(location, from);
  const headers = { ...req.headers };
  if (to.origin !== from.origin) {
    for (const name of Object.keys(headers)) if (CREDENTIAL_HEADERS.includes(name.toLowerCase())) delete headers[name];
  }
  const keepsBody = status === 307 || status === 308;
  if (!keepsBody) {
    for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-type') delete headers[name];
  }
  return {
    method: keepsBody ? req.method : req.method === 'HEAD' ? 'HEAD' : 'GET',
    url: to.toString(),
    headers,
    ...(keepsBody && req.body !== undefined ? { body: req.body } : {}),
  };
}

type TransportError = { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };

const TIMEOUT_CODES = ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT'];

/** True when the call ran out of time (its budget, or one of undici's idle time-outs). */
export function isTimeout(e: unknown): boolean {
  const err = e as TransportError;
  return err.name === 'TimeoutError' || TIMEOUT_CODES.includes(err.code ?? err.cause?.code ?? '');
}

/** One line saying why no response could be judged. */
export function describeTransportError(e: unknown, url: string, timeoutMs: number): string {
  const err = e as TransportError;
  const code = err.code ?? err.cause?.code;
  if (isTimeout(e)) return noCompleteResponse(url, timeoutMs);
  if (code === 'ECONNREFUSED') return `Connection refused by ${new URL(url).host}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `Host not found: ${new URL(url).hostname}`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    return `Connection closed by ${new URL(url).host} before a complete response`;
  const message = (err.message ?? String(e)).split('\n')[0];
  return `Request to ${url} failed: ${code ? `${code} ` : ''}${message}`;
}

function noCompleteResponse(url: string, timeoutMs: number): string {
  return `No complete response from ${url} within ${timeoutMs} ms`;
}
