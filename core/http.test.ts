import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Exchange } from './exchange.ts';
import {
  type CallGuard,
  HttpClient,
  type HttpOptions,
  LocalRetryBudget,
  loadRefusalOf,
  Pacer,
  pacingNow,
  retryAfterMs,
  sendNoLaterThan,
  sentAhead,
  sharedPacing,
} from './http.ts';

const seen: { url: string; headers: Record<string, string | string[] | undefined> }[] = [];
const timers = new Set<NodeJS.Timeout>();

/** A huge answer streamed to the client: the bytes written until the client left, and when it did. */
const huge = { written: 0, left: Promise.resolve() as Promise<unknown> };
const HUGE_BYTES = 100 * 1024 * 1024;

/** Streams 100 MB ('{"padding":"aaaa...'), honouring back-pressure, until the client goes away. */
function streamHuge(res: ServerResponse, announce: boolean): void {
  huge.written = 0;
  huge.left = once(res, 'close');
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  res.writeHead(200, {
    'content-type': 'application/json',
    ...(announce ? { 'content-length': String(HUGE_BYTES) } : {}),
  });
  const chunk = Buffer.alloc(64 * 1024, 'a');
  const head = Buffer.from('{"padding":"');
  res.write(head);
  huge.written += head.length;
  const pump = (): void => {
    while (!closed && huge.written < HUGE_BYTES) {
      const piece = chunk.subarray(0, Math.min(chunk.length, HUGE_BYTES - huge.written));
      huge.written += piece.length;
      if (!res.write(piece)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!closed) res.end();
  };
  pump();
}
let a: ReturnType<typeof createServer>;
let b: ReturnType<typeof createServer>;
let A = '';
let B = '';

beforeAll(async () => {
  b = createServer((req, res) => {
    seen.push({ url: `B${req.url}`, headers: req.headers });
    res.end('{"ok":true}');
  }).listen(0, '127.0.0.1');
  a = createServer((req, res) => {
    seen.push({ url: `A${req.url}`, headers: req.headers });
    if (req.url === '/slow') return; // never answers
    if (req.url === '/trickle') {
      // A byte every 150 ms: no idle gap ever reaches the time-out, the whole answer never ends.
      res.writeHead(200, { 'content-type': 'application/json' });
      const t = setInterval(() => res.write(' '), 150);
      timers.add(t);
      res.on('close', () => clearInterval(t));
      return;
    }
    if (req.url?.startsWith('/slow-hop/')) {
      // Each hop answers a redirect after 150 ms: no hop is slow, the chain is.
      const n = Number(req.url.split('/')[2]);
      setTimeout(() => res.writeHead(302, { location: `/slow-hop/${n + 1}` }).end(), 150);
      return;
    }
    if (req.url === '/big') return res.end('x'.repeat(5000));
    if (req.url === '/huge') return streamHuge(res, true);
    if (req.url === '/huge-chunked') return streamHuge(res, false);
    if (req.url === '/same-origin') return res.writeHead(302, { location: '/json' }).end();
    if (req.url === '/other-origin') return res.writeHead(307, { location: `${B}/landing` }).end();
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    res.setHeader('content-type', 'application/json');
    res.end('{"hello":"world"}');
  }).listen(0, '127.0.0.1');
  await Promise.all([a, b].map((s) => new Promise((r) => s.once('listening', r))));
  A = `http://127.0.0.1:${(a.address() as AddressInfo).port}`;
  B = `http://127.0.0.1:${(b.address() as AddressInfo).port}`;
});

afterAll(() => {
  for (const t of timers) clearInterval(t);
  for (const s of [a, b]) {
    s.closeAllConnections();
    s.close();
  }
});

/**
 * A bound on waiting that no correct call here comes near (a busy machine may stall the event loop
 * for hundreds of milliseconds): the tests of the time-out itself use {@link timingOut}.
 */
const BOUND = 10_000;
const client = () => new HttpClient({ timeoutMs: BOUND, maxResponseBytes: 1024 });
/** A client whose 400 ms time-out is what the test is about. */
const timingOut = () => new HttpClient({ timeoutMs: 400, maxResponseBytes: 1024 });
const auth = { Authorization: 'Bearer secret-token-1', 'SU-SiteId': 'SITE001' };

describe('HttpClient', () => {
  test('records status, lower-cased headers, body and timing', async () => {
    const x = await client().send({ method: 'GET', url: `${A}/json`, headers: {} });
    expect(x.response?.status).toBe(200);
    expect(x.response?.headers['content-type']).toBe('application/json');
    expect(x.response?.bodyText).toBe('{"hello":"world"}');
    expect(x.durationMs).toBeGreaterThan(0);
    expect(x.error).toBeUndefined();
  });

  test('a silent server becomes a time-out error, not a hang', async () => {
    const x = await timingOut().send({ method: 'GET', url: `${A}/slow`, headers: {} });
    expect(x.response).toBeUndefined();
    expect(x.error).toMatch(/within 400 ms/);
    expect(x.errorKind).toBe('time-out');
  });

  test('a body that trickles in, a byte at a time, still ends at the time-out', async () => {
    const t0 = performance.now();
    const x = await timingOut().send({ method: 'GET', url: `${A}/trickle`, headers: {} });
    expect(x.response).toBeUndefined();
    expect(x.error).toMatch(/No complete response .* within 400 ms/);
    expect(x.errorKind).toBe('time-out');
    expect(performance.now() - t0).toBeLessThan(3000);
  });

  test('the time-out bounds the whole call, every redirect included', async () => {
    const slow = new HttpClient({ timeoutMs: 400, maxResponseBytes: 1024, maxRedirects: 20 });
    const x = await slow.send({ method: 'GET', url: `${A}/slow-hop/0`, headers: {} });
    expect(x.errorKind).toBe('time-out');
    expect(x.durationMs).toBeLessThan(1500);
  });

  test('a guard may refuse a call, which is then not sent; it sees every call that was', async () => {
    const seenByGuard: [Exchange, string][] = [];
    const guard: CallGuard = {
      refusal: (req, operation) => (operation === 'stopped-op' ? `not sent: ${req.url} is stopped` : undefined),
      sent: (x, req) => seenByGuard.push([x, req.url]),
    };
    const guarded = new HttpClient({ timeoutMs: BOUND, maxResponseBytes: 1024 }, guard);
    seen.length = 0;
    const refused = await guarded.send({ method: 'GET', url: `${A}/json`, headers: {} }, 'stopped-op');
    expect(refused).toMatchObject({ operation: 'stopped-op', errorKind: 'not-sent', durationMs: 0 });
    expect(refused.error).toBe(`not sent: ${A}/json is stopped`);
    expect(refused.response).toBeUndefined();
    expect(seen).toEqual([]);
    const sent = await guarded.send({ method: 'GET', url: `${A}/json`, headers: {} }, 'other-op');
    expect(sent.response?.status).toBe(200);
    // A redirected call is counted against the address it was first sent to.
    const redirected = await guarded.send({ method: 'GET', url: `${A}/other-origin`, headers: {} }, 'other-op');
    expect(redirected.request.url).toBe(`${B}/landing`);
    expect(seenByGuard).toEqual([
      [sent, `${A}/json`],
      [redirected, `${A}/other-origin`],
    ]);
  });

  test('a body over the cap is cut and flagged', async () => {
    const x = await client().send({ method: 'GET', url: `${A}/big`, headers: {} });
    expect(x.response?.truncated).toBe(true);
    expect(x.response?.bodyText.length).toBe(1024);
    expect(x.error).toMatch(/exceeded the cap of 1024 bytes/);
  });

  test.each([
    ['/huge', 'announcing its Content-Length'],
    ['/huge-chunked', 'in chunks of unknown total'],
  ])(
    'a 100 MB answer (%s, %s) is cut as it streams in: reading stops past the cap, only its evidence is kept',
    async (path) => {
      const cap = 1024 * 1024;
      const capped = new HttpClient({ timeoutMs: 20_000, maxResponseBytes: cap, maxEvidenceBytes: 1024 });
      const x = await capped.send({ method: 'GET', url: `${A}${path}`, headers: {} });
      expect(x.errorKind).toBe('size-cap');
      expect(x.error).toBe(`Response body exceeded the cap of ${cap} bytes`);
      expect(x.response?.status).toBe(200);
      expect(x.response?.truncated).toBe(true);
      // Bytes received: the cap and at most the one chunk that passed it.
      expect(x.response?.size).toBeGreaterThan(cap);
      expect(x.response?.size).toBeLessThanOrEqual(cap + 1024 * 1024);
      // Kept: the evidence's bytes and the redactor's margin, never the megabyte read.
      expect(x.response?.bodyText).toBe(`{"padding":"${'a'.repeat(1024 + 64 * 1024 - 12)}`);
      // The client hung up: the server stopped long before its 100 MB (what socket buffers took aside).
      await huge.left;
      expect(huge.written).toBeLessThan(HUGE_BYTES / 4);
      await capped.close();
    },
  );

  test('an answer within the cap is kept whole, however much beyond the evidence it is', async () => {
    const x = await new HttpClient({ timeoutMs: BOUND, maxResponseBytes: 8192, maxEvidenceBytes: 16 }).send({
      method: 'GET',
      url: `${A}/big`,
      headers: {},
    });
    expect(x.error).toBeUndefined();
    expect(x.response?.bodyText).toBe('x'.repeat(5000));
  });

  test('a refused connection is a one-line error', async () => {
    const x = await client().send({ method: 'GET', url: 'http://127.0.0.1:9/', headers: {} });
    expect(x.error).toBe('Connection refused by 127.0.0.1:9');
    expect(x.errorKind).toBe('transport');
  });

  test('credentials follow a same-origin redirect but never one to another origin', async () => {
    seen.length = 0;
    const same = await client().send({ method: 'GET', url: `${A}/same-origin`, headers: auth });
    expect(same.response?.status).toBe(200);
    expect(seen.find((s) => s.url === 'A/json')?.headers.authorization).toBe('Bearer secret-token-1');
    const other = await client().send({ method: 'POST', url: `${A}/other-origin`, headers: auth, body: 'a=1' });
    expect(other.response?.status).toBe(200);
    const landing = seen.find((s) => s.url === 'B/landing')!;
    expect(landing.headers.authorization).toBeUndefined();
    expect(landing.headers['su-siteid']).toBeUndefined();
    expect(other.request.url).toBe(`${B}/landing`);
  });

  test('a redirect loop stops with an error', async () => {
    const x = await client().send({ method: 'GET', url: `${A}/loop`, headers: {} });
    expect(x.error).toMatch(/Too many redirects/);
  });
});

describe('Retry-After and load refusals', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');

  test.each([
    ['0', 0],
    ['1', 1000],
    [' 120 ', 120_000],
    ['Sun, 01 Mar 2026 12:00:05 GMT', 5000],
    ['Sunday, 01-Mar-26 12:00:07 GMT', 7000],
    ['Sun Mar  1 12:00:09 2026', 9000],
    ['Sun, 01 Mar 2026 11:59:00 GMT', 0],
  ])('Retry-After %j asks to wait %i ms (delay-seconds or any HTTP-date; a past date, none)', (value, ms) => {
    expect(retryAfterMs(value, now)).toBe(ms);
  });

  test.each([['soon'], ['1.5'], ['-1'], ['2026-03-01T12:00:05Z'], ['']])('Retry-After %j is not valid', (value) => {
    expect(retryAfterMs(value, now)).toBeUndefined();
  });

  const answer = (status: number, headers: Record<string, string> = {}) => ({
    status,
    headers,
    bodyText: '',
    size: 0,
    truncated: false,
  });

  test('429 is a load refusal with or without Retry-After, 503 with a valid one; 502, 503 and 504 otherwise transient', () => {
    expect(loadRefusalOf(answer(429, { 'retry-after': '2' }), now)).toEqual({
      status: 429,
      retryAfter: '2',
      waitMs: 2000,
    });
    expect(loadRefusalOf(answer(429), now)).toEqual({ status: 429, waitMs: undefined });
    expect(loadRefusalOf(answer(503, { 'retry-after': 'Sun, 01 Mar 2026 12:00:03 GMT' }), now)?.waitMs).toBe(3000);
    // DEC-R-07: a passing gateway refusal, resent with a short backoff; a 503 whatever the method.
    expect(loadRefusalOf(answer(503), now)).toEqual({ status: 503, waitMs: undefined, transient: true });
    expect(loadRefusalOf(answer(503, { 'retry-after': 'later' }), now, 'POST')).toMatchObject({
      transient: true,
      retryAfter: 'later',
    });
    expect(loadRefusalOf(answer(503), now, 'POST')?.notResent).toBeUndefined();
    for (const status of [502, 504]) {
      expect(loadRefusalOf(answer(status), now, 'GET')).toEqual({ status, waitMs: undefined, transient: true });
      // The upstream may have acted on a request that is not safe: never sent again, never judged.
      expect(loadRefusalOf(answer(status), now, 'POST')?.notResent).toMatch(/not sent again/);
      expect(loadRefusalOf(answer(status), now, 'DELETE')?.notResent).toMatch(/not sent again/);
    }
    expect(loadRefusalOf(answer(500), now)).toBeUndefined();
    expect(loadRefusalOf(answer(200, { 'retry-after': '1' }), now)).toBeUndefined();
    expect(loadRefusalOf(answer(400), now)).toBeUndefined();
    expect(loadRefusalOf(undefined, now)).toBeUndefined();
  });
});

describe('HttpClient and a target refusing for load', () => {
  /** Requests seen per path, with their method and body. */
  const hits = new Map<string, { method: string; body: string; at: number }[]>();
  let inFlight = 0;
  let mostInFlight = 0;
  let server: ReturnType<typeof createServer>;
  let S = '';

  /** `/refuse/<n>/<status>/<retry-after or ->/<name>`: the first n requests refused, then 200. */
  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const path = (req.url ?? '/').split('?')[0];
      const seen = hits.get(path) ?? [];
      seen.push({ method: req.method ?? '', body: Buffer.concat(chunks).toString(), at: performance.now() });
      hits.set(path, seen);
      const parts = path.split('/');
      if (parts[1] === 'redirect') return res.writeHead(302, { location: `/${parts.slice(2).join('/')}` }).end();
      if (parts[1] === 'slow') {
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        setTimeout(() => {
          inFlight -= 1;
          res.end('{}');
        }, 60);
        return;
      }
      if (parts[1] === 'refuse') {
        const [n, status, retryAfter] = [Number(parts[2]), Number(parts[3]), decodeURIComponent(parts[4])];
        if (seen.length <= n) {
          res.writeHead(status, retryAfter === '-' ? {} : { 'retry-after': retryAfter });
          return res.end('{"error":"busy"}');
        }
      }
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    }).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    S = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  let n = 0;
  /** A fresh address (its own count of refusals). */
  const refusing = (times: number, status: number, retryAfter: string) =>
    `/refuse/${times}/${status}/${encodeURIComponent(retryAfter)}/${n++}`;
  const load = (o: Partial<HttpOptions> = {}) => new HttpClient({ timeoutMs: BOUND, maxResponseBytes: 1024, ...o });

  test('a 429 is waited out and the same request sent again; the exchange says how often and how long', async () => {
    const path = refusing(2, 429, '0');
    const x = await load().send({ method: 'POST', url: `${S}${path}`, headers: { a: '1' }, body: 'x=1' }, 'op');
    expect(x.response?.status).toBe(200);
    expect(x.error).toBeUndefined();
    expect(x.retries).toBe(2);
    expect(x.waitedMs).toBeGreaterThanOrEqual(0);
    expect(hits.get(path)?.map((h) => `${h.method} ${h.body}`)).toEqual(['POST x=1', 'POST x=1', 'POST x=1']);
  });

  test('a 503 with Retry-After is waited out for as long as it asks, outside the time budget of the call', async () => {
    const path = refusing(1, 503, '2');
    const t0 = performance.now();
    const x = await load({ timeoutMs: 900 }).send({ method: 'GET', url: `${S}${path}`, headers: {} });
    expect(x.response?.status).toBe(200);
    expect(x.retries).toBe(1);
    expect(x.waitedMs).toBeGreaterThanOrEqual(1950);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1950);
    const [first, second] = hits.get(path) ?? [];
    expect(second.at - first.at).toBeGreaterThanOrEqual(1950);
    // The time budget is each attempt's: the 2 s waited are outside the call's 900 ms.
    expect(x.durationMs).toBeLessThan(900);
  });

  test('a 503 without Retry-After is a passing gateway refusal: sent again after a short backoff (DEC-R-07)', async () => {
    const path = refusing(1, 503, '-');
    const x = await load().send({ method: 'POST', url: `${S}${path}`, headers: {}, body: 'a=1' });
    expect(x.response?.status).toBe(200);
    expect(x.retries).toBe(1);
    expect(hits.get(path)?.map((h) => `${h.method} ${h.body}`)).toEqual(['POST a=1', 'POST a=1']);
    const [first, second] = hits.get(path) ?? [];
    expect(second.at - first.at).toBeGreaterThanOrEqual(190);
  });

  test('a 502 or 504 is sent again to a safe method only; a lasting one is left unjudged after 4 resends', async () => {
    const get = refusing(2, 502, '-');
    const x = await load().send({ method: 'GET', url: `${S}${get}`, headers: {} });
    expect(x.response?.status).toBe(200);
    expect(x.retries).toBe(2);

    const post = refusing(1, 504, '-');
    const y = await load().send({ method: 'POST', url: `${S}${post}`, headers: {}, body: 'b=2' });
    expect(y.response).toBeUndefined();
    expect(y.errorKind).toBe('load-refused');
    expect(y.error).toMatch(
      /passing gateway failure \(HTTP 504, no Retry-After\).*not sent again.*upstream may have acted/,
    );
    expect(hits.get(post)).toHaveLength(1);

    const lasting = refusing(1000, 503, '-');
    const z = await load().send({ method: 'GET', url: `${S}${lasting}`, headers: {} });
    expect(z.errorKind).toBe('load-refused');
    expect(z.error).toMatch(/after 4 retries \(at most 4 per call\); not judged$/);
    expect(hits.get(lasting)).toHaveLength(5);
  }, 10_000);

  test('a Retry-After longer than maxRetryAfterMs is waited that long; a 429 without one backs off', async () => {
    const t0 = performance.now();
    const long = await load({ maxRetryAfterMs: 150 }).send({
      method: 'GET',
      url: `${S}${refusing(1, 429, '3600')}`,
      headers: {},
    });
    expect(long.response?.status).toBe(200);
    const none = await load({ maxRetryAfterMs: 150 }).send({
      method: 'GET',
      url: `${S}${refusing(2, 429, '-')}`,
      headers: {},
    });
    expect(none.response?.status).toBe(200);
    expect(none.retries).toBe(2);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  test('with a budget of 0 retries the refusal is not sent again: no answer, errorKind load-refused, the reason', async () => {
    const path = refusing(5, 429, '1');
    const x = await load({ loadRetries: 0 }).send({ method: 'GET', url: `${S}${path}`, headers: {} }, 'op');
    expect(x.response).toBeUndefined();
    expect(x.errorKind).toBe('load-refused');
    expect(x.error).toBe(
      'the target refused the call for load (HTTP 429, Retry-After 1) and it was not sent again (resending is off: http.loadRetries is 0); not judged',
    );
    expect(x.loadRefusal).toEqual({ status: 429, retryAfter: '1' });
    expect(x.retries).toBe(0);
    expect(hits.get(path)).toHaveLength(1);
  });

  test('one call is sent again at most 10 times; the run budget of resends and of waiting is shared', async () => {
    const always = refusing(1000, 429, '0');
    const x = await load().send({ method: 'GET', url: `${S}${always}`, headers: {} });
    expect(x.errorKind).toBe('load-refused');
    expect(x.error).toMatch(
      /still refusing for load \(HTTP 429, Retry-After 0\) after 10 retries \(at most 10 per call\)/,
    );
    expect(hits.get(always)).toHaveLength(11);

    const budget = new LocalRetryBudget({ loadRetries: 3, loadRetryWaitMs: 60_000 });
    const one = new HttpClient({ timeoutMs: BOUND, maxResponseBytes: 1024 }, undefined, { budget });
    const other = new HttpClient({ timeoutMs: BOUND, maxResponseBytes: 1024 }, undefined, { budget });
    expect((await one.send({ method: 'GET', url: `${S}${refusing(2, 429, '0')}`, headers: {} })).retries).toBe(2);
    const spent = await other.send({ method: 'GET', url: `${S}${refusing(2, 429, '0')}`, headers: {} });
    expect(spent.error).toMatch(/after 1 retry \(the run's budget of 3 resends is spent\); not judged$/);
    expect(budget.totals()).toEqual({ retries: 3, waitedMs: 0, gaveUp: 1 });

    const waiting = load({ loadRetryWaitMs: 500 });
    const tooLong = await waiting.send({ method: 'GET', url: `${S}${refusing(1, 503, '1')}`, headers: {} });
    expect(tooLong.error).toMatch(/\(HTTP 503, Retry-After 1\).*\(the run's budget of 0.5 s of waiting is spent\)/);
  });

  test('a redirected call refused for load is sent again from its first address', async () => {
    const target = refusing(1, 429, '0');
    const x = await load().send({ method: 'GET', url: `${S}/redirect${target}`, headers: {} });
    expect(x.response?.status).toBe(200);
    expect(x.request.url).toBe(`${S}${target}`);
    expect(hits.get(`/redirect${target}`)).toHaveLength(2);
    expect(hits.get(target)).toHaveLength(2);
  });

  test('the guard sees the final exchange of a call once; a load refusal left unjudged included', async () => {
    const seenByGuard: Exchange[] = [];
    const guard: CallGuard = { refusal: () => undefined, sent: (x) => seenByGuard.push(x) };
    const guarded = new HttpClient({ timeoutMs: BOUND, maxResponseBytes: 1024, loadRetries: 1 }, guard);
    const ok = await guarded.send({ method: 'GET', url: `${S}${refusing(1, 429, '0')}`, headers: {} });
    const left = await guarded.send({ method: 'GET', url: `${S}${refusing(5, 429, '0')}`, headers: {} });
    expect(seenByGuard).toEqual([ok, left]);
    expect(left.errorKind).toBe('load-refused');
  });

  test('maxRequestsPerSecond spaces the starts evenly; concurrency bounds the calls in flight', async () => {
    const paced = load({ maxRequestsPerSecond: 20, timeoutMs: 10_000 });
    const path = `/paced/${n++}`;
    const sent = await Promise.all(
      Array.from({ length: 6 }, () => paced.send({ method: 'GET', url: `${S}${path}`, headers: {} })),
    );
    expect(hits.get(path) ?? []).toHaveLength(6);
    // Starts are scheduled 50 ms apart from the first: the span of six starts, as the client took
    // them (not as the server saw them arrive, which a busy machine may bunch), is at least five
    // intervals; single gaps may bunch after a late one.
    const at = sent.map((x) => Date.parse(x.startedAt)).sort((p, q) => p - q);
    expect(at[5] - at[0]).toBeGreaterThanOrEqual(5 * 50 - 10);

    mostInFlight = 0;
    // A generous time-out: on a busy machine the server's 60 ms can take longer, and these calls
    // are judged on how many were in flight, not on time.
    const narrow = load({ concurrency: 2, timeoutMs: 10_000 });
    const xs = await Promise.all(
      Array.from({ length: 6 }, () => narrow.send({ method: 'GET', url: `${S}/slow/${n++}`, headers: {} })),
    );
    expect(xs.every((x) => x.response?.status === 200)).toBe(true);
    expect(mostInFlight).toBe(2);
  });

  test("clients sharing the run's pacing state (its workers) keep to one concurrency and one rate together", async () => {
    const pacing = sharedPacing();
    const worker = () =>
      new HttpClient({ timeoutMs: 10_000, maxResponseBytes: 1024 }, undefined, {
        pacer: new Pacer(undefined, 3, pacing),
      });
    const [a, b] = [worker(), worker()];
    mostInFlight = 0;
    const xs = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? a : b).send({ method: 'GET', url: `${S}/slow/${n++}`, headers: {} }),
      ),
    );
    expect(xs.every((x) => x.response?.status === 200)).toBe(true);
    expect(mostInFlight).toBe(3);
    expect(new Pacer(undefined, 3, pacing).mostInFlight()).toBe(3);

    // 20 a second over both: six starts span at least five intervals, whichever client took them.
    const rate = sharedPacing();
    const paced = () =>
      new HttpClient({ timeoutMs: 10_000, maxResponseBytes: 1024 }, undefined, {
        pacer: new Pacer(20, undefined, rate),
      });
    const [c, d] = [paced(), paced()];
    const sent = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? c : d).send({ method: 'GET', url: `${S}/ok/${n++}`, headers: {} })),
    );
    const at = sent.map((x) => Date.parse(x.startedAt)).sort((p, q) => p - q);
    expect(at[5] - at[0]).toBeGreaterThanOrEqual(5 * 50 - 10);
  });

  test('a call sent ahead leaves the places reserved for other workers free; a call not sent ahead takes one', async () => {
    const pacer = new Pacer(undefined, 3, sharedPacing(), 1);
    const ahead = [await pacer.enter(true), await pacer.enter(true)];
    let third = false;
    const waiting = pacer.enter(true).then((leave) => {
      third = true;
      return leave;
    });
    // The reserved place is free for a call not sent ahead (a worker's state sequence), at once.
    const inOrder = await pacer.enter(false);
    await new Promise((r) => setTimeout(r, 20));
    expect(third).toBe(false);
    expect(pacer.mostInFlight()).toBe(3);
    ahead[0]();
    inOrder();
    const leaveThird = await waiting;
    expect(third).toBe(true);
    // sentAhead marks the calls of a task sent ahead (core/sendAhead.ts): enter() reads it.
    let entered = false;
    const fromTask = sentAhead
      .run(true, () => pacer.enter())
      .then((leave) => {
        entered = true;
        return leave;
      });
    const notAhead = await pacer.enter();
    await new Promise((r) => setTimeout(r, 20));
    expect(entered).toBe(false);
    notAhead();
    ahead[1]();
    (await fromTask)();
    leaveThird();
  });

  test('an interruption ends a wait for Retry-After at once: the call is left unjudged, the budget gets the unwaited time back', async () => {
    const interrupt = new AbortController();
    const budget = new LocalRetryBudget({ loadRetries: 10, loadRetryWaitMs: 3_600_000 });
    const patient = new HttpClient(
      { timeoutMs: BOUND, maxResponseBytes: 1024, maxRetryAfterMs: 3_600_000 },
      undefined,
      {
        budget,
        signal: interrupt.signal,
      },
    );
    const path = refusing(1, 429, '600');
    const call = patient.send({ method: 'GET', url: `${S}${path}`, headers: {} }, 'op');
    // The wait asked for is ten minutes, far beyond this test's time-out: only the interruption ends it.
    await vi.waitFor(() => expect(hits.get(path)).toHaveLength(1));
    interrupt.abort();
    const x = await call;
    expect(x.response).toBeUndefined();
    expect(x.errorKind).toBe('load-refused');
    expect(x.error).toBe(
      'the target refused the call for load (HTTP 429, Retry-After 600) and it was not sent again (the run was interrupted); not judged',
    );
    expect(x.retries).toBe(0);
    const totals = budget.totals();
    expect(totals).toMatchObject({ retries: 0, gaveUp: 1 });
    expect(totals.waitedMs).toBeGreaterThanOrEqual(0);
    expect(totals.waitedMs).toBeLessThan(600_000);
    expect(hits.get(path)).toHaveLength(1);

    // The client had been told to start nothing for ten minutes: after the interruption a call
    // that would wait is not sent at all.
    const held = await patient.send({ method: 'GET', url: `${S}/held/${n++}`, headers: {} }, 'op');
    expect(held).toMatchObject({ errorKind: 'not-sent', error: 'not sent: the run was interrupted' });
    expect(held.response).toBeUndefined();
    // A refusal seen after the interruption is not waited for either.
    const unpaced = new HttpClient({ timeoutMs: BOUND, maxResponseBytes: 1024 }, undefined, {
      signal: interrupt.signal,
    });
    const late = await unpaced.send({ method: 'GET', url: `${S}${refusing(1, 429, '600')}`, headers: {} });
    expect(late.error).toMatch(/not sent again \(the run was interrupted\); not judged$/);
    // A call that needs no wait is still sent: the suites already running finish what they can.
    const plain = await unpaced.send({ method: 'GET', url: `${S}/plain/${n++}`, headers: {} });
    expect(plain.response?.status).toBe(200);
  });

  test('an interruption ends a wait for a pacing turn at once; the call is not sent', async () => {
    const interrupt = new AbortController();
    const slowPace = new HttpClient(
      { timeoutMs: BOUND, maxResponseBytes: 1024, maxRequestsPerSecond: 1 / 600 },
      undefined,
      {
        signal: interrupt.signal,
      },
    );
    const first = await slowPace.send({ method: 'GET', url: `${S}/paced-once/${n++}`, headers: {} });
    expect(first.response?.status).toBe(200);
    const path = `/paced-next/${n++}`;
    // The next start is ten minutes away.
    const next = slowPace.send({ method: 'GET', url: `${S}${path}`, headers: {} });
    await new Promise((r) => setTimeout(r, 50));
    interrupt.abort();
    expect(await next).toMatchObject({ errorKind: 'not-sent', error: 'not sent: the run was interrupted' });
    expect(hits.get(path)).toBeUndefined();
  });

  test('no call starts after the last start allowed (sendNoLaterThan), in any client of the state, until it moves on', async () => {
    const state = sharedPacing();
    const paced = () =>
      new HttpClient({ timeoutMs: BOUND, maxResponseBytes: 1024 }, undefined, {
        pacer: new Pacer(undefined, 8, state),
      });
    const [one, two] = [paced(), paced()];
    sendNoLaterThan(state, pacingNow() + 60_000);
    const path = `/lease/${n++}`;
    expect((await one.send({ method: 'GET', url: `${S}${path}`, headers: {} })).response?.status).toBe(200);
    sendNoLaterThan(state, pacingNow() - 1);
    for (const client of [one, two])
      expect(await client.send({ method: 'GET', url: `${S}${path}`, headers: {} })).toMatchObject({
        errorKind: 'not-sent',
        error: expect.stringMatching(/^not sent: the run's time to send calls had passed/),
      });
    expect(hits.get(path)).toHaveLength(1);
    sendNoLaterThan(state, pacingNow() + 60_000);
    expect((await two.send({ method: 'GET', url: `${S}${path}`, headers: {} })).response?.status).toBe(200);
    expect(hits.get(path)).toHaveLength(2);
  });

  test('while a call waits out a refusal, the client starts no other call', async () => {
    const client = load();
    const refused = client.send({ method: 'GET', url: `${S}${refusing(1, 429, '1')}`, headers: {} });
    await new Promise((r) => setTimeout(r, 100));
    const t0 = performance.now();
    const other = await client.send({ method: 'GET', url: `${S}/json`, headers: {} });
    expect(other.response?.status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(700);
    expect((await refused).retries).toBe(1);
  });
});

describe('HttpClient and an answer in a content coding (DEC-R-09)', () => {
  let server: ReturnType<typeof createServer>;
  let S = '';
  const json = Buffer.from('{"resourceType":"Bundle","total":1}');
  /** `/<coding>`: the JSON body in that content coding; `/garbled`: gzip announced, bytes that are not. */
  const bodies: Record<string, { encoding: string; bytes: Buffer }> = {
    '/gzip': { encoding: 'gzip', bytes: gzipSync(json) },
    '/x-gzip': { encoding: 'x-gzip', bytes: gzipSync(json) },
    '/deflate': { encoding: 'deflate', bytes: deflateSync(json) },
    '/raw-deflate': { encoding: 'deflate', bytes: deflateRawSync(json) },
    '/br': { encoding: 'br', bytes: brotliCompressSync(json) },
    '/twice': { encoding: 'deflate, gzip', bytes: gzipSync(deflateSync(json)) },
    '/zstd': { encoding: 'zstd', bytes: json },
    '/garbled': { encoding: 'gzip', bytes: Buffer.from('not gzip at all') },
    '/bomb': { encoding: 'gzip', bytes: gzipSync(Buffer.alloc(4096, 'a')) },
  };
  const seenHeaders: Record<string, string | string[] | undefined>[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seenHeaders.push(req.headers);
      const b = bodies[req.url ?? ''];
      res.writeHead(200, { 'content-type': 'application/json', ...(b ? { 'content-encoding': b.encoding } : {}) });
      res.end(b?.bytes ?? json);
    }).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    S = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const client = () => new HttpClient({ timeoutMs: 2000, maxResponseBytes: 1024 });

  test('gzip, x-gzip, deflate (zlib or raw), br and a chain of codings are decoded before anything is judged', async () => {
    for (const path of ['/gzip', '/x-gzip', '/deflate', '/raw-deflate', '/br', '/twice']) {
      const x = await client().send({ method: 'GET', url: `${S}${path}`, headers: {} });
      expect(x.error, path).toBeUndefined();
      expect(x.response?.bodyText, path).toBe(json.toString());
      expect(x.response?.headers['content-encoding'], path).toBe(bodies[path].encoding);
      expect(x.response?.size, path).toBe(bodies[path].bytes.length);
    }
  });

  test('the suite sends no Accept-Encoding of its own', async () => {
    await client().send({ method: 'GET', url: `${S}/gzip`, headers: { accept: 'application/json' } });
    expect(seenHeaders.at(-1)?.['accept-encoding']).toBeUndefined();
  });

  test('a coding the suite cannot decode, or bytes that do not decode, leave the call unjudged, never failed', async () => {
    const zstd = await client().send({ method: 'GET', url: `${S}/zstd`, headers: {} });
    expect(zstd.response).toBeUndefined();
    expect(zstd.errorKind).toBe('undecodable');
    expect(zstd.error).toMatch(/content coding zstd, which the suite cannot decode.*not judged/);
    const garbled = await client().send({ method: 'GET', url: `${S}/garbled`, headers: {} });
    expect(garbled.response).toBeUndefined();
    expect(garbled.errorKind).toBe('undecodable');
    expect(garbled.error).toMatch(/do not decode as gzip/);
  });

  test('a decoded body past maxResponseBytes is cut like any other: size-cap, never judged', async () => {
    const x = await client().send({ method: 'GET', url: `${S}/bomb`, headers: {} });
    expect(x.errorKind).toBe('size-cap');
    expect(x.response?.truncated).toBe(true);
  });
});
