import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cappedBody, droppedBody, EvidenceBudget, utf8Prefix, withinBudget } from './evidenceCap.ts';
import type { ExchangeRecord } from './results.ts';

const record = (requestBody: string | undefined, responseBody: string, size = responseBody.length): ExchangeRecord => ({
  method: 'POST',
  url: 'http://h/x',
  startedAt: new Date(0).toISOString(),
  duration: 1,
  request: { headers: {}, ...(requestBody !== undefined ? { body: requestBody } : {}) },
  status: 200,
  response: { headers: {}, body: responseBody, size, truncated: false },
});

describe('utf8Prefix', () => {
  test('keeps at most max bytes and never half a character', () => {
    expect(utf8Prefix('abcdef', 4)).toBe('abcd');
    expect(utf8Prefix('abc', 4)).toBe('abc');
    expect(utf8Prefix('aé€', 4)).toBe('aé'); // 1 + 2 bytes; the euro sign (3 bytes) does not fit
    expect(utf8Prefix('€€', 5)).toBe('€');
    expect(utf8Prefix('😀x', 3)).toBe('');
  });
});

describe('cappedBody', () => {
  test('a body within the cap is kept whole', () => {
    expect(cappedBody('{"a":1}', 7, 7)).toBe('{"a":1}');
  });

  test('a longer body keeps its first bytes and says how many were received', () => {
    expect(cappedBody('x'.repeat(100), 10, 5000)).toBe(
      `${'x'.repeat(10)}\n…[truncated: 10 bytes kept as evidence, 5000 bytes received]`,
    );
    expect(cappedBody('y'.repeat(20), 0, 20, 'sent')).toBe('\n…[truncated: 0 bytes kept as evidence, 20 bytes sent]');
  });
});

describe('EvidenceBudget', () => {
  test('takes bytes until the total is used up, then refuses without taking', () => {
    const budget = new EvidenceBudget(10);
    expect(budget.take(6)).toBe(true);
    expect(budget.take(5)).toBe(false);
    expect(budget.take(4)).toBe(true);
    expect(budget.take(1)).toBe(false);
    expect(budget.take(0)).toBe(true);
  });

  test('is shared by the workers of a run through the run folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'budget-'));
    const one = new EvidenceBudget(10, dir, 'one');
    const other = new EvidenceBudget(10, dir, 'other');
    expect(one.take(7)).toBe(true);
    expect(other.take(4)).toBe(false);
    expect(other.take(3)).toBe(true);
    expect(one.take(1)).toBe(false);
  });
});

describe('withinBudget', () => {
  test('keeps bodies while they fit and drops later ones with a note', () => {
    const budget = new EvidenceBudget(12);
    const first = withinBudget(record('a=1', 'hello world'), budget);
    expect(first.request.body).toBe('a=1');
    expect(first.response?.body).toBe(droppedBody(12, 11));
    const second = withinBudget(record(undefined, 'small', 5_000_000), budget);
    expect(second.response?.body).toBe('small');
    const third = withinBudget(record(undefined, 'more text', 9), budget);
    expect(third.response?.body).toBe("…[dropped: the run's evidence budget of 12 bytes is used up, 9 bytes received]");
    expect(third.response?.size).toBe(9);
    expect(third.request).toEqual({ headers: {} });
  });
});
