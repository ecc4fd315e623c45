/**
 * A rate-limiting gateway in front of a target, as API gateways are: a real HTTP proxy on
 * 127.0.0.1 (free port) that forwards at most `maxPerSecond` requests in any sliding second and
 * refuses the others with HTTP 429 and `Retry-After` (or 503 with `Retry-After`), never passing
 * them on. Refused requests do not count against the window (a client that keeps asking is not
 * locked out for good). The Host header is passed on as received, so that a sandbox behind it
 * publishes the gateway's own addresses in its discovery documents and every call goes through it.
 */
import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface GatewayOptions {
  /** Requests forwarded in any one second at most (sliding window). */
  maxPerSecond: number;
  /** The refusal's status: 429 Too Many Requests (default) or 503 Service Unavailable. */
  status?: 429 | 503;
  /**
   * Retry-After of a refusal: delay-seconds or an HTTP-date (default '1'), a function of the time
   * the window frees a place (ms from now), or null for none.
   */
  retryAfter?: string | null | ((freeInMs: number) => string);
  /** Paths (without the query) forwarded whatever the rate, and not counted (default: none). */
  exempt?: (path: string) => boolean;
}

export interface GatewayCounts {
  /** Requests received (forwarded or refused). */
  received: number;
  forwarded: number;
  refused: number;
}

export interface RateLimitingGateway {
  url: string;
  readonly counts: GatewayCounts;
  /** Most requests forwarded within any one second so far. */
  readonly peakPerSecond: number;
  /** Most requests received (forwarded or refused, exempt ones included) within any one second so far. */
  readonly peakReceivedPerSecond: number;
  /** Sets the counts back to zero (between runs through one gateway). */
  reset(): void;
  close(): Promise<void>;
}

/** Headers of one connection, not of the message (RFC 9110 7.6.1). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

export async function startRateLimitingGateway(target: string, options: GatewayOptions): Promise<RateLimitingGateway> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const counts: GatewayCounts = { received: 0, forwarded: 0, refused: 0 };
  /** performance.now() of the requests forwarded within the last second, oldest first. */
  let window: number[] = [];
  /** performance.now() of every request received within the last second. */
  let arrivals: number[] = [];
  let peak = 0;
  let peakReceived = 0;

  const refuse = (res: ServerResponse, freeInMs: number) => {
    counts.refused += 1;
    const given = options.retryAfter === undefined ? '1' : options.retryAfter;
    const retryAfter = typeof given === 'function' ? given(freeInMs) : given;
    const body = JSON.stringify({ error: 'rate limit exceeded', limit: options.maxPerSecond });
    res.writeHead(options.status ?? 429, {
      'content-type': 'application/json',
      ...(retryAfter === null ? {} : { 'retry-after': retryAfter }),
    });
    res.end(body);
  };

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    counts.forwarded += 1;
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP_BY_HOP.includes(k)));
    const out = request(
      {
        protocol: upstream.protocol,
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
        agent,
      },
      (answer) => {
        const back = Object.fromEntries(Object.entries(answer.headers).filter(([k]) => !HOP_BY_HOP.includes(k)));
        res.writeHead(answer.statusCode ?? 502, back as Record<string, string | string[]>);
        answer.pipe(res);
      },
    );
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"error":"bad gateway"}');
    });
    req.pipe(out);
  };

  const server = createServer((req, res) => {
    counts.received += 1;
    const now = performance.now();
    arrivals = arrivals.filter((t) => t > now - 1000);
    arrivals.push(now);
    peakReceived = Math.max(peakReceived, arrivals.length);
    if (options.exempt?.((req.url ?? '/').split('?')[0])) {
      forward(req, res);
      return;
    }
    window = window.filter((t) => t > now - 1000);
    if (window.length >= options.maxPerSecond) {
      req.resume(); // the body is read and dropped
      refuse(res, window[0] + 1000 - now);
      return;
    }
    window.push(now);
    peak = Math.max(peak, window.length);
    forward(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    get peakPerSecond() {
      return peak;
    },
    get peakReceivedPerSecond() {
      return peakReceived;
    },
    reset() {
      counts.received = 0;
      counts.forwarded = 0;
      counts.refused = 0;
      peak = 0;
      peakReceived = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        agent.destroy();
      }),
  };
}
