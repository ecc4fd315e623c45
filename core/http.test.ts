import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Exchange } from './exchange.ts';
import { type CallGuard, HttpClient } from './http.ts';

const seen: { url: string; headers: Record<string, string | string[] | undefined> }[] = [];
const timers = new Set<NodeJS.Timeout>();
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

const client = () => new HttpClient({ timeoutMs: 400, maxResponseBytes: 1024 });
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
    const x = await client().send({ method: 'GET', url: `${A}/slow`, headers: {} });
    expect(x.response).toBeUndefined();
    expect(x.error).toMatch(/within 400 ms/);
    expect(x.errorKind).toBe('time-out');
  });

  test('a body that trickles in, a byte at a time, still ends at the time-out', async () => {
    const t0 = performance.now();
    const x = await client().send({ method: 'GET', url: `${A}/trickle`, headers: {} });
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
    const guarded = new HttpClient({ timeoutMs: 400, maxResponseBytes: 1024 }, guard);
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
