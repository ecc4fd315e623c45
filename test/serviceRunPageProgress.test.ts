/**
 * A service run's progress as its row holds it (service/jobs/runProgress.ts RowProgress, issue 33
 * item 6): one short entry per operation with its state and counts, bounded by the number of
 * operations; written at once at a suite's boundary and otherwise at most once an interval while
 * results come in, one write at a time, never the same twice; read back member by member
 * (service/runEvents.ts readProgress), so nothing else a row holds reaches a page.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { ServiceContext } from '../service/context.ts';
import type { Claim } from '../service/jobs/claims.ts';
import { PROGRESS_INTERVAL_MS, type ProgressRow, RowProgress } from '../service/jobs/runProgress.ts';
import { progressText, readProgress } from '../service/runEvents.ts';

const result = (operation: string, status: string, level = 'MUST') =>
  `${JSON.stringify({ type: 'check-evaluated', result: { operation, status, level, check: 'c', requirements: [], message: '', summary: '' } })}\n`;

/** A RowProgress writing to a list (the row stands aside: ctx and claim are never read with `record` given). */
function rowProgress(record: (progress: string) => Promise<void>) {
  return new RowProgress(undefined as unknown as ServiceContext, undefined as unknown as Claim, { record });
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'row-progress-'));
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

describe('RowProgress', () => {
  test('each operation waits, runs and is done with its counts so far; the suites done of all; a done one has its verdict', async () => {
    const writes: string[] = [];
    const p = rowProgress(async (json) => {
      writes.push(json);
    });
    p.start(
      [
        { id: 'list-insurers', suite: '/x/suites/lookups.suite.ts' },
        { id: 'lookup-locations', suite: '/x/suites/lookups.suite.ts' },
        { id: 'get-code-set', suite: '/x/suites/code-sets.suite.ts' },
      ],
      dir,
    );
    p.suiteStarted('/x/suites/lookups.suite.ts');
    await vi.advanceTimersByTimeAsync(0);
    let row = JSON.parse(writes.at(-1)!) as ProgressRow;
    expect(row).toEqual({
      done: 0,
      total: 2,
      running: ['lookups'],
      operations: [
        { id: 'list-insurers', state: 'running' },
        { id: 'lookup-locations', state: 'running' },
        { id: 'get-code-set', state: 'waiting' },
      ],
    });
    // Results come in while the suite runs: read within an interval, without a suite's boundary.
    appendFileSync(join(dir, 'events-1-1.jsonl'), result('list-insurers', 'pass') + result('list-insurers', 'fail'));
    await vi.advanceTimersByTimeAsync(PROGRESS_INTERVAL_MS * 2);
    row = JSON.parse(writes.at(-1)!) as ProgressRow;
    expect(row.operations?.[0]).toEqual({ id: 'list-insurers', state: 'running', pass: 1, fail: 1 });
    appendFileSync(join(dir, 'events-1-1.jsonl'), result('lookup-locations', 'skip', 'SHOULD'));
    p.suiteFinished('/x/suites/lookups.suite.ts');
    await vi.advanceTimersByTimeAsync(0);
    row = JSON.parse(writes.at(-1)!) as ProgressRow;
    expect(row).toMatchObject({ done: 1, total: 2, running: [] });
    expect(row.operations).toEqual([
      { id: 'list-insurers', state: 'done', pass: 1, fail: 1, verdict: 'not-conformant' },
      { id: 'lookup-locations', state: 'done', skip: 1, verdict: 'inconclusive' },
      { id: 'get-code-set', state: 'waiting' },
    ]);
    p.stop();
    await p.flushed();
    expect(progressText(writes.at(-1)!)).toBe('1 of 2 suites done');
  });

  test('bounded: a few hundred operations with large counts stay one short entry each', async () => {
    let last = '';
    const p = rowProgress(async (json) => {
      last = json;
    });
    const operations = Array.from({ length: 300 }, (_, i) => ({
      id: `operation-with-a-long-name-${String(i).padStart(3, '0')}`,
      suite: `suite-${i % 16}.suite.ts`,
    }));
    p.start(operations, dir);
    for (let s = 0; s < 16; s++) p.suiteStarted(`suite-${s}.suite.ts`);
    // Every operation gets every status, many times over.
    const lines = operations.flatMap((o) =>
      ['pass', 'fail', 'error', 'warn', 'skip', 'omit'].map((status) => result(o.id, status).repeat(3)),
    );
    appendFileSync(join(dir, 'events-1-1.jsonl'), lines.join('').repeat(10));
    for (let s = 0; s < 16; s++) p.suiteFinished(`suite-${s}.suite.ts`);
    p.stop();
    await p.flushed();
    const row = JSON.parse(last) as ProgressRow;
    expect(row.operations).toHaveLength(300);
    expect(row.operations?.[0]).toMatchObject({ state: 'done', pass: 30, fail: 30, omit: 30 });
    // Bounded by the operations, not by the results (there are 54,000 of them).
    const longestId = Math.max(...operations.map((o) => o.id.length));
    expect(last.length).toBeLessThan(300 * (longestId + 120) + 200);
    expect(last.length).toBeLessThan(64 * 1024);
  });

  test('coalesced: results coming in steadily are written at most once an interval, boundaries at once, one write at a time', async () => {
    const writes: { at: number; json: string }[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const p = rowProgress(async (json) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      writes.push({ at: Date.now(), json });
      // A slow database: each write takes 120 ms.
      await new Promise((r) => setTimeout(r, 120));
      inFlight--;
    });
    const t0 = Date.now();
    p.start([{ id: 'a', suite: 'a.suite.ts' }], dir);
    p.suiteStarted('a.suite.ts');
    // A result every 20 ms for 5 s: 250 changes.
    for (let i = 0; i < 250; i++) {
      appendFileSync(join(dir, 'events-1-1.jsonl'), result('a', 'pass'));
      await vi.advanceTimersByTimeAsync(20);
    }
    const whileRunning = writes.length;
    p.suiteFinished('a.suite.ts');
    p.stop();
    await vi.advanceTimersByTimeAsync(1000);
    await p.flushed();
    expect(mostInFlight).toBe(1);
    // 5 s at one write a 500 ms at most, plus the start and the suite's start.
    expect(whileRunning).toBeLessThanOrEqual(5000 / PROGRESS_INTERVAL_MS + 3);
    expect(whileRunning).toBeGreaterThanOrEqual(5);
    // Between two writes of counts alone (no boundary), at least the interval.
    const countWrites = writes.slice(2, whileRunning).map((w) => w.at);
    for (let i = 1; i < countWrites.length; i++)
      expect(countWrites[i] - countWrites[i - 1]).toBeGreaterThanOrEqual(PROGRESS_INTERVAL_MS);
    // Never the same twice; the last one complete.
    expect(new Set(writes.map((w) => w.json)).size).toBe(writes.length);
    expect(JSON.parse(writes.at(-1)!.json)).toMatchObject({
      done: 1,
      operations: [{ id: 'a', state: 'done', pass: 250 }],
    });
    expect(writes.at(-1)!.at - t0).toBeGreaterThanOrEqual(5000);
    // Nothing after stop.
    const after = writes.length;
    appendFileSync(join(dir, 'events-1-1.jsonl'), result('a', 'fail'));
    await vi.advanceTimersByTimeAsync(PROGRESS_INTERVAL_MS * 4);
    expect(writes.length).toBe(after);
  });

  test('a suite boundary is written at once, whatever the interval', async () => {
    const writes: string[] = [];
    const p = rowProgress(async (json) => {
      writes.push(json);
    });
    p.start(
      [
        { id: 'a', suite: 'a.suite.ts' },
        { id: 'b', suite: 'b.suite.ts' },
      ],
      dir,
    );
    await vi.advanceTimersByTimeAsync(0);
    p.suiteStarted('a.suite.ts');
    await vi.advanceTimersByTimeAsync(0);
    p.suiteFinished('a.suite.ts');
    await vi.advanceTimersByTimeAsync(0);
    p.suiteStarted('b.suite.ts');
    await vi.advanceTimersByTimeAsync(0);
    expect(writes.map((w) => (JSON.parse(w) as ProgressRow).operations?.map((o) => o.state).join(' '))).toEqual([
      'waiting waiting',
      'running waiting',
      'done waiting',
      'done running',
    ]);
    p.stop();
  });
});

describe('readProgress', () => {
  test('keeps the known members of the known types, nothing else (a client run’s sealed secrets)', () => {
    const row = readProgress(
      JSON.stringify({
        done: 1,
        total: 2,
        running: ['scenario-a', 3],
        kind: 'client',
        sealed: 'secret-sealed-box',
        workspaces: [{ clientSecret: 'x' }],
        operations: [
          { id: 'a', state: 'done', pass: 2, fail: 0, verdict: 'conformant', secret: 'no' },
          { id: 'b', state: 'sideways', pass: -1, fail: 'many', verdict: '<b>' },
          { state: 'done' },
          'c',
        ],
      }),
    );
    expect(row).toEqual({
      done: 1,
      total: 2,
      running: ['scenario-a'],
      operations: [
        { id: 'a', state: 'done', pass: 2, verdict: 'conformant' },
        { id: 'b', state: 'waiting' },
      ],
    });
    expect(JSON.stringify(row)).not.toContain('secret');
  });

  test('none, or not JSON: undefined, and the progress line says a worker is awaited', () => {
    expect(readProgress(null)).toBeUndefined();
    expect(readProgress('{not json')).toBeUndefined();
    expect(readProgress('[1,2]')).toEqual({ done: 0, total: 0, running: [] });
    expect(progressText(null)).toBe('waiting for a worker');
    expect(progressText('{not json')).toBe('waiting for a worker');
    expect(progressText(JSON.stringify({ done: 0, total: 1, running: ['pact check'] }))).toBe(
      '0 of 1 suites done (running pact check)',
    );
  });
});
