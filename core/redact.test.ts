import { describe, expect, test } from 'vitest';
import { MASK, Redactor } from './redact.ts';
import type { Exchange } from './exchange.ts';

const exchange = (over: Partial<Exchange> = {}): Exchange => ({
  id: 'x1',
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 12.345,
  request: {
    method: 'POST',
    url: 'http://h/oauth/token?token=abc123456',
    headers: { Authorization: 'Bearer tok-very-secret', 'SU-SiteId': 'SITE001' },
    body: 'grant_type=client_credentials&client_id=me&client_secret=s3cr3t-value',
  },
  response: {
    status: 200,
    headers: { 'content-type': 'application/json', 'set-cookie': 'sid=1' },
    bodyText: '{"access_token":"tok-very-secret","token_type":"Bearer","note":"tok-very-secret"}',
    size: 80,
    truncated: false,
  },
  ...over,
});

describe('Redactor', () => {
  const r = new Redactor(['tok-very-secret', 's3cr3t-value']);

  test('masks credential headers but keeps the scheme', () => {
    const out = r.exchange(exchange());
    expect(out.request.headers.Authorization).toBe(`Bearer ${MASK}`);
    expect(out.request.headers['SU-SiteId']).toBe('SITE001');
    expect(out.response?.headers['set-cookie']).toBe(MASK);
  });

  test('masks known secrets and token fields in bodies and URLs', () => {
    const text = JSON.stringify(r.exchange(exchange()));
    expect(text).not.toContain('tok-very-secret');
    expect(text).not.toContain('s3cr3t-value');
    expect(text).not.toContain('abc123456');
    expect(text).toContain('client_id=me');
  });

  test('a redactor without the secret leaves an unknown free-text secret (shows the masking is value-driven)', () => {
    const bare = new Redactor([]);
    expect(bare.text('note tok-very-secret')).toContain('tok-very-secret');
    expect(bare.with(['tok-very-secret']).text('note tok-very-secret')).toBe(`note ${MASK}`);
  });

  test('keeps a transport error and omits the response when none arrived', () => {
    const out = r.exchange(exchange({ response: undefined, error: 'connect ECONNREFUSED' }));
    expect(out.status).toBeUndefined();
    expect(out.error).toBe('connect ECONNREFUSED');
  });
});
