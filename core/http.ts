/**
 * The HTTP client (undici). Every call yields an Exchange, never an exception: transport faults
 * (refused, time-out, size cap, bad redirect) become `error` on the exchange. `timeoutMs` bounds a
 * whole call, redirects and a trickling body included (undici's own time-outs are per idle gap);
 * a guard (the run's breaker, core/breaker.ts) may refuse to send a call at all.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import type { Exchange, ExchangeRequest } from './exchange.ts';

export interface HttpOptions {
  /** Time budget of one call, from sending to the end of the body, redirects included. */
  timeoutMs: number;
  maxResponseBytes: number;
  maxRedirects?: number;
}

/** Consulted around every call (in suite workers: the run's breaker, core/breaker.ts). */
export interface CallGuard {
  /** Why this call is not sent (its exchange then carries the reason as `error`), or undefined. */
  refusal(req: ExchangeRequest, operation?: string): string | undefined;
  /** The exchange of a call that was sent; `req` is the request as first sent, before any redirect. */
  sent(x: Exchange, req: ExchangeRequest): void;
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

  constructor(
    private readonly options: HttpOptions,
    private readonly guard?: CallGuard,
  ) {
    this.agent = new Agent({
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connectTimeout: Math.min(options.timeoutMs, 10000),
      keepAliveTimeout: 1000,
    });
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** Sends the request (following redirects safely) and records the final exchange. */
  async send(req: ExchangeRequest, operation?: string): Promise<Exchange> {
    const startedAt = new Date().toISOString();
    const t0 = performance.now();
    let current: ExchangeRequest = { ...req, headers: { ...req.headers } };
    const first = current;
    const refusal = this.guard?.refusal(first, operation);
    if (refusal !== undefined) {
      return {
        id: randomUUID(),
        operation,
        startedAt,
        durationMs: 0,
        request: current,
        error: refusal,
        errorKind: 'not-sent',
      };
    }
    let result: Outcome = {};
    const maxRedirects = this.options.maxRedirects ?? 5;
    // One budget for the whole call: every hop and every byte of the body.
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    for (let hop = 0; ; hop++) {
      result = await this.once(current, deadline);
      const status = result.response?.status ?? 0;
      const location = result.response?.headers.location;
      if (!(status >= 300 && status < 400 && location && [301, 302, 303, 307, 308].includes(status))) break;
      if (hop >= maxRedirects) {
        result = { ...result, error: `Too many redirects (more than ${maxRedirects})`, errorKind: 'redirects' };
        break;
      }
      current = redirected(current, location, status);
    }
    const x: Exchange = {
      id: randomUUID(),
      operation,
      startedAt,
      durationMs: performance.now() - t0,
      request: current,
      ...result,
    };
    this.guard?.sent(x, first);
    return x;
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
  if (isTimeout(e)) return `No complete response from ${url} within ${timeoutMs} ms`;
  if (code === 'ECONNREFUSED') return `Connection refused by ${new URL(url).host}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `Host not found: ${new URL(url).hostname}`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    return `Connection closed by ${new URL(url).host} before a complete response`;
  const message = (err.message ?? String(e)).split('\n')[0];
  return `Request to ${url} failed: ${code ? `${code} ` : ''}${message}`;
}
