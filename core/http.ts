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
 * Transient gateway refusals are waited out too (DEC-R-07): a 503 without a valid Retry-After (the
 * request was not handled, RFC 9110 15.6.4), and a 502 or 504 (RFC 9110 15.6.3, 15.6.5) to a safe
 * method (RFC 9110 9.2.1: nothing it asked for can have been done upstream) are sent again after
 * TRANSIENT_BACKOFF_MS, doubling, at most MAX_TRANSIENT_RETRIES times, within the same budget. A
 * 502 or 504 to any other method is never sent again (the upstream may have acted on it) and is
 * left unjudged like any refusal: none of the documents' answers is a 502, 503 or 504.
 *
 * Content codings are decoded before anything is judged (DEC-R-09): the suite sends no
 * Accept-Encoding, so a target may answer in any coding (RFC 9110 12.5.3); gzip (x-gzip), deflate
 * (zlib or raw) and br are decoded, in the reverse order of `Content-Encoding`, the decoded body
 * bounded by `maxResponseBytes` like any other. An answer in a coding the suite cannot decode, or
 * whose bytes do not decode, comes back without an answer (`errorKind` `undecodable`): not judged.
 *
 * `timeoutMs` bounds each attempt (every hop of its redirects and the whole body); the waits for
 * Retry-After and for a pacing turn are outside it, bounded by the run's retry budget and the rate.
 *
 * Pacing (a Pacer): at most `maxRequestsPerSecond` requests started per second, evenly spaced, and
 * at most `concurrency` calls in flight at once. The state is in shared memory (sharedPacing): the
 * runner's client and every suite worker take from the one state of the run, so that the whole
 * run keeps to both however many calls each worker has in flight.
 *
 * An interrupted run (the client's `signal`, Ctrl-C) waits for nothing more: a wait for Retry-After
 * or for a pacing turn ends at once, and its call is left unjudged.
 *
 * Staging connections: the target's certificate is checked against the default roots plus
 * `tls.ca` (config `http.caFile`), a client certificate is presented when the target asks
 * (`http.clientCertFile`, mTLS), and calls go through `proxy` (config `http.proxy`, or the
 * environment's HTTPS_PROXY, HTTP_PROXY and NO_PROXY) with undici's own proxy agent. A connection
 * that fails on TLS or at the proxy is one line naming the setting to change.
 *
 * Under a connect guard (`connectGuard`, core/connectGuard.ts: the certification service's runs)
 * every address a call connects to is checked as it connects, the name resolved once and the
 * socket connected to the address checked; a refused connection is the call's error, one line
 * starting "Refused:".
 *
 * An answer past `maxResponseBytes` is cut as it streams in: no more is read once the count passes
 * the cap, and of a cut answer only its first bytes are kept (what its evidence shows), never the
 * whole; one that announces a Content-Length over the cap is never buffered beyond those bytes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import type { Socket } from 'node:net';
import * as tls from 'node:tls';
import { Agent, buildConnector, type Dispatcher, EnvHttpProxyAgent, request } from 'undici';
import { type ConnectGuard, guardedLookup, isConnectRefused, literalRefusal } from './connectGuard.ts';
import type { Exchange, ExchangeRequest, ExchangeResponse } from './exchange.ts';

/** TLS material for the target's connections, read and checked when the config was loaded (core/config.ts). */
export interface TlsSettings {
  /** PEM certificates trusted besides the default roots (config `http.caFile`), and the file they came from. */
  ca?: { pem: string; file: string };
  /** The client certificate presented when the target asks for one (mTLS), its key and the key's passphrase. */
  client?: { cert: string; key: string; passphrase?: string; certFile: string; keyFile: string };
}

/** A proxy, and the setting that names it (`http.proxy`, `HTTPS_PROXY`, `http_proxy` ...). */
export interface ProxyChoice {
  url: string;
  from: string;
}

/** The proxies calls go through, resolved when the config was loaded. */
export interface ProxySettings {
  /** Proxy of calls to http: addresses. */
  http?: ProxyChoice;
  /** Proxy of calls to https: addresses. */
  https?: ProxyChoice;
  /** Hosts reached without a proxy (NO_PROXY: names, .domains, host:port, `*`); '' when none. */
  noProxy: string;
}

export interface HttpOptions {
  /** Time budget of one call (of each attempt), from sending to the end of the body, redirects included. */
  timeoutMs: number;
  /** Bytes of an answer read and judged; an answer past them is cut as it streams in. */
  maxResponseBytes: number;
  /** Bytes of an answer's body kept as its evidence (core/redact.ts); a cut answer keeps only about this much. */
  maxEvidenceBytes?: number;
  /** The target's TLS: extra trusted certificates and a client certificate. */
  tls?: TlsSettings;
  /** The proxies calls go through (none when absent). */
  proxy?: ProxySettings;
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
  /**
   * Checks every address a call connects to (core/connectGuard.ts): a refused connection is the
   * call's `error`, one line starting "Refused:". None by default (the command); the service sets it.
   */
  connectGuard?: ConnectGuard;
}

/** The defaults of the retry budget (config `http.loadRetries`, `http.loadRetryWaitMs`, `http.maxRetryAfterMs`). */
export const LOAD_RETRY_DEFAULTS = { loadRetries: 1000, loadRetryWaitMs: 600_000, maxRetryAfterMs: 30_000 } as const;

/**
 * Calls a run has in flight at once unless the config or --concurrency says otherwise: enough
 * that a target 50 ms away is not waited on one call at a time, few enough that a staging gateway
 * takes them (gateways commonly allow 10 or more per client).
 */
export const DEFAULT_CONCURRENCY = 8;

/** Resends of one call at most, whatever the run's budget: a call refused this often is left unjudged. */
export const MAX_RETRIES_PER_CALL = 10;

/**
 * Bytes of a cut answer kept beyond `maxEvidenceBytes`: the redactor masks the evidence from a
 * prefix this much longer (core/redact.ts), so a value cut at the evidence limit is still masked.
 */
export const CUT_BODY_MARGIN = 64 * 1024;

/** `maxEvidenceBytes` when the options give none (core/evidenceCap.ts). */
const EVIDENCE_BYTES = 64 * 1024;

/** First wait for a 429 without Retry-After; it doubles with each resend of the call. */
const BACKOFF_MS = 1000;

/** First wait after a transient gateway refusal (502, 503 or 504 without Retry-After); it doubles. */
export const TRANSIENT_BACKOFF_MS = 200;

/** Resends of one call after transient gateway refusals at most: a refusal that lasts is left unjudged. */
export const MAX_TRANSIENT_RETRIES = 4;

/** Safe methods (RFC 9110 9.2.1): a 502 or 504 to one of them is sent again, to any other never. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

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
  /**
   * A resend taken whose wait the run's interruption cut short: it is not made, the part of the
   * wait not waited is given back, and the call counts as left unjudged.
   */
  interrupted(unwaitedMs: number): void;
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

  interrupted(unwaitedMs: number): void {
    this.spent.retries -= 1;
    this.spent.waitedMs -= unwaitedMs;
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
 * Set while a call is sent ahead of the one its suite judges (core/sendAhead.ts): it takes a place
 * in flight only while the places reserved for other workers' calls stay free (Pacer).
 */
export const sentAhead = new AsyncLocalStorage<true>();

/** Bytes of a pacing state (sharedPacing): two 32-bit counters, then two 64-bit times. */
const PACING_BYTES = 24;
/** Int32 indexes: calls in flight, and the most there were at once. */
const ACTIVE = 0;
const MOST = 1;
/** BigInt64 indexes (from byte 8): the next start allowed (a hold included), in µs since the epoch. */
const NEXT = 0;
/** The last start allowed (sendNoLaterThan), in µs since the epoch; 0: none. */
const LAST = 1;

/** Atomics.waitAsync (ES2024; Node has it), typed here because the project's lib is ES2022. */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(a: Int32Array, index: number, value: number, timeout?: number): { async: boolean; value: unknown };
  }
).waitAsync;

/** Now, in µs since the epoch, alike in every thread (performance.now() counts from each thread's start). */
const nowMicros = (): number => Math.round((performance.timeOrigin + performance.now()) * 1000);

/**
 * The pacing state of a run, in shared memory: every Pacer built on it (the runner's client and
 * each suite worker's, in their threads) takes its places in flight and its starts from the same
 * counters, so that the limits hold for the run as a whole however its calls are spread over
 * workers, and a time the target asked to wait until holds for all of them.
 */
export function sharedPacing(): SharedArrayBuffer {
  return new SharedArrayBuffer(PACING_BYTES);
}

/**
 * No call of the run starts after `epochMs` (ms since the epoch) until this is called again with
 * a later time: the certification service's worker moves it forward each time it renews its
 * lease on the run, so that a worker paused past its lease (the run then taken over by another)
 * sends nothing more when it resumes, in any thread, before it learns that the run is gone.
 */
export function sendNoLaterThan(state: SharedArrayBuffer, epochMs: number): void {
  Atomics.store(new BigInt64Array(state, 8, 2), LAST, BigInt(Math.round(epochMs * 1000)));
}

/** Now in ms since the epoch, the clock sendNoLaterThan is read by. */
export const pacingNow = (): number => performance.timeOrigin + performance.now();

/**
 * Paces calls: at most `maxRequestsPerSecond` starts a second, evenly spaced (a start every
 * (1000 + PACING_MARGIN_MS)/N ms, every redirect hop counted), at most `concurrency` calls in
 * flight, and no start before a time the target asked to wait until. The state is a
 * sharedPacing() given by the run (shared with its other Pacers, in any thread), or the Pacer's own.
 */
export class Pacer {
  private readonly slots: Int32Array;
  private readonly times: BigInt64Array;
  private readonly interval: number;

  /**
   * @param state the run's sharedPacing(), or none: the Pacer's own
   * @param reserved places in flight a call sent ahead (sentAhead) leaves free: one for each other
   *   worker of the run, so that a worker sending its requests one after another (a state
   *   sequence, a create before its read) never waits behind another's requests sent ahead
   */
  constructor(
    maxRequestsPerSecond?: number,
    private readonly concurrency?: number,
    state: SharedArrayBuffer = sharedPacing(),
    private readonly reserved = 0,
  ) {
    this.interval = maxRequestsPerSecond ? ((1000 + PACING_MARGIN_MS) / maxRequestsPerSecond) * 1000 : 0;
    this.slots = new Int32Array(state, 0, 2);
    this.times = new BigInt64Array(state, 8, 2);
  }

  /** Whether the last start allowed (sendNoLaterThan) has passed: no call may start any more. */
  lapsed(): boolean {
    const last = Atomics.load(this.times, LAST);
    return last !== 0n && nowMicros() > Number(last);
  }

  /** The most calls that were in flight at once, over every Pacer of the state. */
  mostInFlight(): number {
    return Atomics.load(this.slots, MOST);
  }

  /**
   * Waits for a place among the calls in flight; the function returned gives it back. A call sent
   * ahead of the one judged (`ahead`, by default as sentAhead says) takes one only while the
   * reserved places stay free.
   */
  async enter(ahead = sentAhead.getStore() === true): Promise<() => void> {
    const all = this.concurrency ?? Number.POSITIVE_INFINITY;
    const limit = ahead ? Math.max(1, all - this.reserved) : all;
    for (;;) {
      const active = Atomics.load(this.slots, ACTIVE);
      if (active < limit) {
        if (Atomics.compareExchange(this.slots, ACTIVE, active, active + 1) !== active) continue;
        for (let most = Atomics.load(this.slots, MOST); most < active + 1; most = Atomics.load(this.slots, MOST))
          if (Atomics.compareExchange(this.slots, MOST, most, active + 1) === most) break;
        break;
      }
      // Woken by a leaving call (of any thread); the wait ends at once when one left meanwhile.
      const wait = waitAsync(this.slots, ACTIVE, active);
      if (wait.async) await wait.value;
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      Atomics.sub(this.slots, ACTIVE, 1);
      // Every waiter looks again: the place may be one only a call not sent ahead may take.
      Atomics.notify(this.slots, ACTIVE);
    };
  }

  /**
   * Waits for the next start the rate (and any hold) allows, and takes it; rejects with an
   * AbortError at once when `signal` is aborted during the wait (the start is then not taken).
   */
  async turn(signal?: AbortSignal): Promise<void> {
    const now = nowMicros();
    let at: number;
    let after: bigint;
    for (;;) {
      const next = Atomics.load(this.times, NEXT);
      at = Math.max(now, Number(next));
      after = BigInt(Math.round(at + this.interval));
      if (Atomics.compareExchange(this.times, NEXT, next, after) === next) break;
    }
    if (at <= now) return;
    try {
      signal?.throwIfAborted();
      await sleep((at - now) / 1000, undefined, signal ? { signal } : undefined);
    } catch (e) {
      // The start not taken is given back, unless a later one was taken meanwhile.
      Atomics.compareExchange(this.times, NEXT, after, BigInt(Math.round(at)));
      throw e;
    }
    // A timer fires late, never early: the next start is counted from this one as it happened.
    this.notBefore(nowMicros() + this.interval);
  }

  /** No call starts before `until` (performance.now() time of this thread): the target asked to wait. */
  holdUntil(until: number): void {
    this.notBefore((performance.timeOrigin + until) * 1000);
  }

  private notBefore(micros: number): void {
    const until = BigInt(Math.round(micros));
    for (let next = Atomics.load(this.times, NEXT); next < until; next = Atomics.load(this.times, NEXT))
      if (Atomics.compareExchange(this.times, NEXT, next, until) === next) return;
  }
}

/**
 * An answer that refuses the call for load: HTTP 429, or 503 with a valid Retry-After; or a
 * transient gateway refusal (DEC-R-07): a 503 without one, a 502 or a 504.
 */
export interface LoadRefusal {
  status: number;
  /** The Retry-After header as received. */
  retryAfter?: string;
  /** What Retry-After asks to wait, in milliseconds (undefined: absent or not a valid value). */
  waitMs?: number;
  /** A transient gateway refusal: waited out by TRANSIENT_BACKOFF_MS, doubling, MAX_TRANSIENT_RETRIES times at most. */
  transient?: true;
  /** Set when the call must not be sent again whatever the budget (a 502 or 504 to a method that is not safe). */
  notResent?: string;
}

/**
 * The load refusal an answer is, or undefined. `method` is the request's: a 502 or 504 to a method
 * that is not safe is still a refusal (never judged) but is not sent again.
 */
export function loadRefusalOf(
  response: ExchangeResponse | undefined,
  now = Date.now(),
  method = 'GET',
): LoadRefusal | undefined {
  if (response === undefined) return undefined;
  const status = response.status;
  if (status !== 429 && status !== 502 && status !== 503 && status !== 504) return undefined;
  const retryAfter = response.headers['retry-after'];
  const waitMs = retryAfterMs(retryAfter, now);
  const said = { status, ...(retryAfter !== undefined ? { retryAfter } : {}), waitMs };
  if (status === 429 || (status === 503 && waitMs !== undefined)) return said;
  if (status === 503 || SAFE_METHODS.has(method.toUpperCase())) return { ...said, transient: true };
  return {
    ...said,
    transient: true,
    notResent: `a ${status} to ${method.toUpperCase()} is not sent again: the upstream may have acted on it (RFC 9110 9.2.2)`,
  };
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
  const refusing = refusal.transient ? 'refused the call as a passing gateway failure' : 'refused the call for load';
  return retries === 0
    ? `the target ${refusing} ${what} and it was not sent again (${why}); not judged`
    : `the target was still ${refusal.transient ? 'refusing as a passing gateway failure' : 'refusing for load'} ${what} after ${retries} ${retries === 1 ? 'retry' : 'retries'} (${why}); not judged`;
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
  private readonly dispatcher: Dispatcher;
  private readonly alerts = new TlsAlerts();
  private readonly budget: RetryBudget;
  private readonly pacer: Pacer;
  private readonly maxRetryAfterMs: number;
  private readonly signal?: AbortSignal;

  /**
   * @param shared the run's retry budget and this worker's pacer (by default the client has its
   *   own, from `options`), and the run's interruption: once it is aborted the client waits for
   *   nothing (a wait for Retry-After or for a pacing turn ends at once, its call left unjudged)
   */
  constructor(
    private readonly options: HttpOptions,
    private readonly guard?: CallGuard,
    shared: { budget?: RetryBudget; pacer?: Pacer; signal?: AbortSignal } = {},
  ) {
    this.dispatcher = dispatcherOf(options, this.alerts);
    this.budget =
      shared.budget ??
      new LocalRetryBudget({
        loadRetries: options.loadRetries ?? LOAD_RETRY_DEFAULTS.loadRetries,
        loadRetryWaitMs: options.loadRetryWaitMs ?? LOAD_RETRY_DEFAULTS.loadRetryWaitMs,
      });
    this.pacer = shared.pacer ?? new Pacer(options.maxRequestsPerSecond, options.concurrency);
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? LOAD_RETRY_DEFAULTS.maxRetryAfterMs;
    this.signal = shared.signal;
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
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
      const load = loadRefusalOf(attempt.response, Date.now(), first.method);
      let x: Exchange;
      if (load === undefined) {
        x = {
          id: randomUUID(),
          operation,
          ...attempt,
          ...(retries > 0 ? { retries, waitedMs: Math.round(waitedMs) } : {}),
        };
      } else {
        const backoff = load.transient ? TRANSIENT_BACKOFF_MS : BACKOFF_MS;
        const waitMs = Math.min(load.waitMs ?? backoff * 2 ** retries, this.maxRetryAfterMs);
        const most = load.transient ? MAX_TRANSIENT_RETRIES : MAX_RETRIES_PER_CALL;
        let stop = this.signal?.aborted
          ? INTERRUPTED
          : load.notResent !== undefined
            ? load.notResent
            : retries >= most
              ? `at most ${most} per call`
              : this.budget.take(waitMs);
        if (stop === undefined) {
          this.pacer.holdUntil(performance.now() + waitMs);
          const t = performance.now();
          const waited = await waitFor(waitMs, this.signal);
          const spent = performance.now() - t;
          waitedMs += spent;
          if (waited) {
            retries += 1;
            continue;
          }
          this.budget.interrupted(Math.max(0, waitMs - spent));
          stop = INTERRUPTED;
        } else this.budget.gaveUp();
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
        try {
          await this.pacer.turn(this.signal);
        } catch (e) {
          if (!this.signal?.aborted) throw e;
          if (hop === 0) startedAt = new Date().toISOString();
          result = { error: `not sent: ${INTERRUPTED}`, errorKind: 'not-sent' };
          break;
        }
        if (hop === 0) startedAt = new Date().toISOString();
        if (this.pacer.lapsed()) {
          result = { error: `not sent: ${LAPSED}`, errorKind: 'not-sent' };
          break;
        }
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
        dispatcher: this.dispatcher,
        signal,
      });
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
      }
      const cap = this.options.maxResponseBytes;
      // A cut answer is never judged (core/exchange.ts): of it only its evidence is kept.
      const kept = Math.min(cap, (this.options.maxEvidenceBytes ?? EVIDENCE_BYTES) + CUT_BODY_MARGIN);
      const body = new BodyPrefix(announcedLength(headers) > cap ? kept : cap);
      let size = 0;
      let truncated = false;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        body.add(chunk);
        if (size > cap) {
          truncated = true;
          res.body.destroy();
          break;
        }
      }
      if (!truncated && headers['content-encoding'] !== undefined) {
        const decoded = decodeContent(body.kept(), headers['content-encoding'], cap);
        if ('problem' in decoded) return { error: decoded.problem, errorKind: 'undecodable' };
        const response = {
          status: res.statusCode,
          headers,
          bodyText: decoded.bytes.subarray(0, cap).toString('utf8'),
          size,
          truncated: decoded.cut,
        };
        return decoded.cut
          ? {
              response,
              error: `Response body exceeded the cap of ${cap} bytes once decoded (${headers['content-encoding']})`,
              errorKind: 'size-cap',
            }
          : { response };
      }
      const response = {
        status: res.statusCode,
        headers,
        bodyText: body.text(truncated ? kept : cap),
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
        error: describeTransportError(e, req.url, this.options.timeoutMs, {
          tls: this.options.tls,
          proxy: proxyOf(this.options.proxy, req.url),
          alert: this.alerts.take(e),
        }),
        errorKind: isTimeout(e) ? 'time-out' : 'transport',
      };
    }
  }
}

/** Why a wait ended early, and a call not sent. */
const INTERRUPTED = 'the run was interrupted';
/** Why a call was not sent after the last start allowed (sendNoLaterThan). */
const LAPSED = "the run's time to send calls had passed (its worker's claim on the run lapsed)";

/** Waits `ms`; false when `signal` was aborted first (the wait then ends at once). */
async function waitFor(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    await sleep(ms, undefined, signal ? { signal } : undefined);
    return true;
  } catch (e) {
    if (signal?.aborted) return false;
    throw e;
  }
}

/** The content codings the suite decodes (RFC 9110 8.4.1), by their registered names. */
const DECODERS: Record<string, (bytes: Buffer, maxOutputLength: number) => Buffer> = {
  gzip: (b, maxOutputLength) => gunzipSync(b, { maxOutputLength }),
  'x-gzip': (b, maxOutputLength) => gunzipSync(b, { maxOutputLength }),
  // "deflate" is the zlib format (RFC 9110 8.4.1.2); some servers send raw deflate: both are read.
  deflate: (b, maxOutputLength) => {
    try {
      return inflateSync(b, { maxOutputLength });
    } catch (e) {
      if (e instanceof RangeError) throw e;
      return inflateRawSync(b, { maxOutputLength });
    }
  },
  br: (b, maxOutputLength) => brotliDecompressSync(b, { maxOutputLength }),
};

/**
 * The body of an answer with its content codings undone, last applied first (RFC 9110 8.4), the
 * decoded bytes bounded by `cap` (`cut` when there were more); a problem when a coding is not one
 * the suite decodes or the bytes do not decode.
 */
export function decodeContent(
  encoded: Buffer,
  contentEncoding: string,
  cap: number,
): { bytes: Buffer; cut: boolean } | { problem: string } {
  const codings = contentEncoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let bytes = encoded;
  // An empty body (HEAD, 204, 304) holds nothing to decode.
  if (encoded.length === 0) return { bytes, cut: false };
  for (const coding of [...codings].reverse()) {
    const decode = DECODERS[coding];
    if (decode === undefined)
      return {
        problem: `the answer is in the content coding ${oneLine(coding, 40)}, which the suite cannot decode (it decodes ${Object.keys(DECODERS).join(', ')}); not judged`,
      };
    try {
      // One byte more than the cap tells a body at the cap from one beyond it.
      bytes = decode(bytes, cap + 1);
    } catch (e) {
      if (e instanceof RangeError) return { bytes: bytes.subarray(0, 0), cut: true };
      return {
        problem: `the answer says Content-Encoding ${oneLine(contentEncoding, 60)}, but its bytes do not decode as ${coding} (${oneLine((e as Error).message, 80)}); not judged`,
      };
    }
  }
  return bytes.length > cap ? { bytes: bytes.subarray(0, cap), cut: true } : { bytes, cut: false };
}

/** The Content-Length an answer announces, or -1. */
function announcedLength(headers: Record<string, string>): number {
  const value = headers['content-length'];
  return value !== undefined && /^\d+$/.test(value.trim()) ? Number(value) : -1;
}

/** The first `limit` bytes of a body as it streams in; the rest is dropped as it arrives. */
class BodyPrefix {
  private chunks: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    const room = this.limit - this.bytes;
    if (room <= 0) return;
    const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(piece);
    this.bytes += piece.length;
  }

  /** The bytes kept. */
  kept(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.bytes);
  }

  /** The text of the first `most` bytes kept. */
  text(most: number): string {
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.bytes);
    this.chunks = [];
    return all.subarray(0, Math.min(most, all.length)).toString('utf8');
  }
}

/**
 * The TLS alert each connection received, by its local address. TLS 1.3 sends a server's refusal
 * of the client (no certificate, an unknown one) after the handshake, and undici then reports only
 * "other side closed"; the alert is kept here for the call's error line. A few at most are kept.
 */
class TlsAlerts {
  private readonly byAddress = new Map<string, string>();

  watch(socket: Socket): void {
    const key = `${socket.localAddress}:${socket.localPort}`;
    socket.on('error', (e: NodeJS.ErrnoException) => {
      if (!e.code?.startsWith('ERR_SSL_')) return;
      if (this.byAddress.size >= 64) this.byAddress.delete(this.byAddress.keys().next().value as string);
      this.byAddress.set(key, e.code);
    });
  }

  /** The alert of the connection a transport error happened on, if it received one. */
  take(e: unknown): string | undefined {
    const socket = (e as { socket?: { localAddress?: string; localPort?: number } }).socket;
    if (socket?.localPort === undefined) return undefined;
    const key = `${socket.localAddress}:${socket.localPort}`;
    const alert = this.byAddress.get(key);
    this.byAddress.delete(key);
    return alert;
  }
}

/** The default trust roots: Node's bundled ones (and NODE_EXTRA_CA_CERTS where this Node can list them). */
function defaultRoots(): readonly string[] {
  const list = (tls as { getCACertificates?: (type: string) => string[] }).getCACertificates;
  return list ? list('default') : tls.rootCertificates;
}

/**
 * The secure context of the target's connections: the default roots plus `ca`, and the client
 * certificate; undefined when the settings add nothing to Node's defaults. Throws Node's error for
 * material that does not load (core/config.ts checks it first, naming the setting).
 */
export function secureContextOf(settings: TlsSettings | undefined): tls.SecureContext | undefined {
  if (settings?.ca === undefined && settings?.client === undefined) return undefined;
  const client = settings.client;
  return tls.createSecureContext({
    ...(settings.ca ? { ca: [...defaultRoots(), settings.ca.pem] } : {}),
    ...(client
      ? {
          cert: client.cert,
          key: client.key,
          ...(client.passphrase !== undefined ? { passphrase: client.passphrase } : {}),
        }
      : {}),
  });
}

/** The dispatcher of a client: undici's Agent, or its proxy agent when a proxy is set; TLS as the settings say. */
function dispatcherOf(options: HttpOptions, alerts: TlsAlerts): Dispatcher {
  const secureContext = secureContextOf(options.tls);
  const guard = options.connectGuard;
  // Under a guard the socket resolves the name through the guard, which checks every address.
  const lookup = guard ? { lookup: guardedLookup(guard) } : {};
  const connector = buildConnector({
    ...(secureContext ? { secureContext } : {}),
    ...lookup,
    timeout: Math.min(options.timeoutMs, 10000),
  });
  const connect: buildConnector.connector = (opts, callback) => {
    // An address written as such is connected to without a lookup: it is checked here.
    const refused = guard ? literalRefusal(opts.hostname, guard) : undefined;
    if (refused) return callback(refused, null);
    return connector(opts, (...args) => {
      if (args[1]) alerts.watch(args[1]);
      callback(...args);
    });
  };
  const agent = { headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs, keepAliveTimeout: 1000, connect };
  const proxy = options.proxy;
  if (proxy?.http === undefined && proxy?.https === undefined) return new Agent(agent);
  // Explicit values, never undici's own reading of the environment: the config resolved it.
  const caOnly = options.tls?.ca ? secureContextOf({ ca: options.tls.ca }) : undefined;
  return new EnvHttpProxyAgent({
    ...agent,
    httpProxy: proxy.http?.url ?? '',
    httpsProxy: proxy.https?.url ?? '',
    noProxy: proxy.noProxy,
    ...(secureContext ? { requestTls: { secureContext } } : {}),
    // The proxy's own connection is resolved through the guard too (runs under a guard use no proxy).
    ...(caOnly || guard ? { proxyTls: { ...(caOnly ? { secureContext: caOnly } : {}), ...lookup } } : {}),
  });
}

/** The proxy a call to `url` goes through unless NO_PROXY exempts it (an error line names it only when the failure was its). */
function proxyOf(proxy: ProxySettings | undefined, url: string): ProxyChoice | undefined {
  return url.startsWith('https:') ? proxy?.https : proxy?.http;
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

type TransportError = {
  name?: string;
  code?: string;
  message?: string;
  reason?: string;
  address?: string;
  port?: number;
  hostname?: string;
  /** With ERR_TLS_CERT_ALTNAME_INVALID: the name asked for, and the certificate received. */
  host?: string;
  cert?: { subjectaltname?: string };
  /** undici's account of the connection a socket error happened on. */
  socket?: { bytesRead?: number };
  cause?: TransportError;
};

const TIMEOUT_CODES = ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT'];

/** True when the call ran out of time (its budget, or one of undici's idle time-outs). */
export function isTimeout(e: unknown): boolean {
  const err = e as TransportError;
  return err.name === 'TimeoutError' || TIMEOUT_CODES.includes(err.code ?? err.cause?.code ?? '');
}

/** What a transport error line may name besides the error: the settings of the connection. */
export interface TransportContext {
  tls?: TlsSettings;
  /** The proxy the call would go through (NO_PROXY aside). */
  proxy?: ProxyChoice;
  /** The TLS alert the connection received before it closed, if any. */
  alert?: string;
}

/** One line saying why no response could be judged, naming the setting to change where one would help. */
export function describeTransportError(
  e: unknown,
  url: string,
  timeoutMs: number,
  context: TransportContext = {},
): string {
  const err = e as TransportError;
  const code = err.code ?? err.cause?.code;
  if (isConnectRefused(e)) return ((isConnectRefused(err.cause) ? err.cause : err).message ?? 'Refused').split('\n')[0];
  if (isTimeout(e)) return noCompleteResponse(url, timeoutMs);
  const host = new URL(url).host;
  const tlsLine =
    tlsProblem(code, err.code !== undefined ? err : err.cause, host, context) ??
    (context.alert !== undefined ? tlsProblem(context.alert, undefined, host, context) : undefined);
  if (tlsLine !== undefined) return tlsLine;
  const closedLine = closedOverTls(err, code, url, context.tls);
  if (closedLine !== undefined) return closedLine;
  const proxyLine = context.proxy ? proxyProblem(err, code, host, context.proxy) : undefined;
  if (proxyLine !== undefined) return proxyLine;
  if (code === 'ECONNREFUSED') return `Connection refused by ${host}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `Host not found: ${new URL(url).hostname}`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    return `Connection closed by ${host} before a complete response`;
  const message = (err.message ?? String(e)).split('\n')[0];
  return `Request to ${url} failed: ${code ? `${code} ` : ''}${message}`;
}

function noCompleteResponse(url: string, timeoutMs: number): string {
  return `No complete response from ${url} within ${timeoutMs} ms`;
}

/** Verification codes of a certificate no trusted root vouches for (OpenSSL's, as Node reports them). */
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);

/** TLS alerts by which a server refuses the client's certificate, or the lack of one. */
const CLIENT_REFUSED = new Set([
  'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
  'ERR_SSL_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_REVOKED',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN',
  'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
  'ERR_SSL_TLSV1_ALERT_ACCESS_DENIED',
]);

/** What a client reads when the other side does not speak TLS (plain HTTP at an https: address). */
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST']);

const CLIENT_FILES = 'set http.clientCertFile and http.clientKeyFile';

/** The line of a TLS failure, naming the setting to change; undefined when `code` is no TLS failure. */
function tlsProblem(
  code: string | undefined,
  failed: TransportError | undefined,
  host: string,
  context: TransportContext,
): string | undefined {
  if (code === undefined) return undefined;
  const certificate = `the certificate of ${host}${context.proxy?.url.startsWith('https:') ? ` (or of the proxy ${originOf(context.proxy.url)})` : ''}`;
  const ca = context.tls?.ca;
  const client = context.tls?.client;
  if (UNTRUSTED.has(code))
    return ca
      ? `${certificate} is not trusted, the CA of http.caFile (${ca.file}) included (${code}): set http.caFile to the CA that signed it`
      : `${certificate} is not trusted (${code}): set http.caFile to the CA that signed it`;
  if (code === 'CERT_HAS_EXPIRED')
    return `${certificate} has expired (${code}): it must be renewed on the target; no setting accepts an expired certificate`;
  if (code === 'CERT_NOT_YET_VALID')
    return `${certificate} is not valid yet (${code}): check the clock of this machine and of the target`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    // Node's error carries the certificate's names and the name asked for.
    const held = failed?.cert?.subjectaltname;
    const names =
      held && failed?.host
        ? `for ${oneLine(held, 160)}, not ${failed.host}`
        : `for other names${failed?.reason ? ` (${oneLine(failed.reason, 160)})` : ''}`;
    return `${certificate} is ${names} (${code}): set target (or the services' discovery addresses) to a name the certificate holds`;
  }
  if (code === 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED')
    return client
      ? `${host} demands a client certificate and did not take the one of http.clientCertFile (${client.certFile}) (${code}): set http.clientCertFile to a certificate it accepts`
      : `${host} demands a client certificate (${code}): ${CLIENT_FILES}`;
  if (CLIENT_REFUSED.has(code))
    return client
      ? `${host} did not accept the client certificate of http.clientCertFile (${client.certFile}) (${code}): set http.clientCertFile to a certificate it accepts`
      : `${host} refused the TLS handshake (${code}): if it demands a client certificate, ${CLIENT_FILES}`;
  if (code === 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE')
    return client
      ? `${host} refused the TLS handshake (${code}): it may not accept the client certificate of http.clientCertFile (${client.certFile}), or share no TLS version or cipher with this client`
      : `${host} refused the TLS handshake (${code}): if it demands a client certificate, ${CLIENT_FILES}`;
  if (NOT_TLS.has(code))
    return `${host} does not answer in TLS (${code}): if it serves plain HTTP, write its address with http:// in target (or the services' discovery addresses)`;
  return undefined;
}

/**
 * The line of a TLS connection the target closed without a word: during the handshake, or, when a
 * client certificate was presented, before any answer (a server may drop a certificate it does
 * not accept without an alert). Hedged: a close says nothing of why.
 */
function closedOverTls(
  err: TransportError,
  code: string | undefined,
  url: string,
  settings?: TlsSettings,
): string | undefined {
  if (!url.startsWith('https:')) return undefined;
  const host = new URL(url).host;
  const client = settings?.client;
  const hint = client
    ? `it may not accept the client certificate of http.clientCertFile (${client.certFile})`
    : `if it demands a client certificate, ${CLIENT_FILES}`;
  if (/before secure TLS connection was established/.test(err.message ?? ''))
    return `${host} closed the connection during the TLS handshake (${code ?? 'ECONNRESET'}): ${hint}`;
  if (client && code === 'UND_ERR_SOCKET' && err.socket?.bytesRead === 0)
    return `Connection closed by ${host} before any answer: ${hint}`;
  return undefined;
}

/** The line of a failure at the proxy, naming the setting that chose it; undefined when the proxy is not at fault. */
function proxyProblem(
  err: TransportError,
  code: string | undefined,
  host: string,
  proxy: ProxyChoice,
): string | undefined {
  const at = new URL(proxy.url);
  const origin = originOf(proxy.url);
  const tunnel = /Proxy response \((\d+)\) !== 200/.exec(err.message ?? '');
  if (tunnel) {
    const credentials =
      tunnel[1] === '407' ? '; it wants credentials, which go in the proxy address of HTTPS_PROXY or HTTP_PROXY' : '';
    return `the proxy ${origin} (${proxy.from}) refused to open a connection to ${host} (HTTP ${tunnel[1]})${credentials}`;
  }
  const failed = err.code !== undefined ? err : err.cause;
  const port = Number(at.port || (at.protocol === 'https:' ? 443 : 80));
  const hostname = at.hostname.replace(/^\[|\]$/g, '');
  if (code === 'ECONNREFUSED' && failed?.port === port && failed.address !== undefined)
    return `Connection refused by the proxy ${origin}: check ${proxy.from}`;
  if ((code === 'ENOTFOUND' || code === 'EAI_AGAIN') && failed?.hostname === hostname)
    return `Proxy host not found: ${hostname}: check ${proxy.from}`;
  return undefined;
}

/** The scheme, host and port of a proxy address, never its credentials. */
function originOf(url: string): string {
  return new URL(url).origin;
}
