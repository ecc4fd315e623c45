import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { Exchange, ExchangeRequest } from './exchange.ts';
import { type CallPlace, ExchangeLog, readExchangeLog } from './exchangeLog.ts';
import type { CallGuard } from './http.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const request = (url: string, token: string): ExchangeRequest => ({
  method: 'GET',
  url,
  headers: { authorization: `Bearer ${token}` },
});

const answered = (req: ExchangeRequest, body: string): Exchange => ({
  id: `id-${req.url}`,
  operation: 'search-bills',
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1,
  request: req,
  response: {
    status: 200,
    headers: { 'content-type': 'application/json' },
    bodyText: body,
    size: body.length,
    truncated: false,
  },
});

describe('the exchange log of a differential run', () => {
  test('each call is placed by its test and the order calls started, whatever order the answers came in', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'exchange-log-')), 'log');
    dirs.push(dir);
    let place: CallPlace = { suite: 'bills', test: 'search-bills > one' };
    const refused = new Set<string>();
    const inner: CallGuard & { sentCount: number } = {
      sentCount: 0,
      refusal: (req) => (refused.has(req.url) ? 'not sent: stopped' : undefined),
      sent() {
        this.sentCount += 1;
      },
    };
    const log = new ExchangeLog(dir, () => place, ['run-token-1234']);
    const guard = log.guard(inner);
    const [a, b, c] = ['http://t/a', 'http://t/b', 'http://t/c'].map((u) => request(u, 'run-token-1234')) as [
      ExchangeRequest,
      ExchangeRequest,
      ExchangeRequest,
    ];
    refused.add('http://t/c');
    expect(guard.refusal(a, 'search-bills')).toBeUndefined();
    expect(guard.refusal(b, 'search-bills')).toBeUndefined();
    expect(guard.refusal(c, 'search-bills')).toBe('not sent: stopped');
    // b is answered first; a carries a token the suite obtained during the run.
    guard.sent(answered(b, '{"n":2}'), b);
    log.learnSecret('later-token-5678');
    guard.sent(answered(a, '{"access_token":"x","echo":"later-token-5678"}'), a);
    expect(inner.sentCount).toBe(2);
    place = { suite: 'bills', test: 'search-bills > two' };
    const d = request('http://t/d', 'run-token-1234');
    guard.refusal(d, 'search-bills');
    guard.sent(answered(d, '{}'), d);

    const lines = readExchangeLog(dir);
    expect(lines.map((l) => [l.test, l.ordinal, l.exchange.url, l.id])).toEqual([
      ['search-bills > one', 0, 'http://t/a', 'id-http://t/a'],
      ['search-bills > one', 1, 'http://t/b', 'id-http://t/b'],
      ['search-bills > two', 0, 'http://t/d', 'id-http://t/d'],
    ]);
    const text = readdirSync(dir)
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('');
    expect(text).not.toContain('run-token-1234');
    expect(text).not.toContain('later-token-5678');
    // Bodies are kept whole, secrets masked (the token field by name).
    expect(JSON.parse(lines[0]?.exchange.response?.body ?? '')).toEqual({ access_token: '****', echo: '****' });
  });

  test('a folder without a log reads as no exchanges', () => {
    expect(readExchangeLog(join(tmpdir(), 'no-such-exchange-log'))).toEqual([]);
  });
});
