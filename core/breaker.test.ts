import { once } from 'node:events';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, test, vi } from 'vitest';
import { Breaker, type BreakerKey, interruptRun, loadRetryTotals, RunRetryBudget, runInterruption } from './breaker.ts';
import type { ErrorKind, Exchange, ExchangeRequest } from './exchange.ts';

const runDir = () => mkdtempSync(join(tmpdir(), 'breaker-'));

/** Calls name their service by the first path segment; calls without an operation are tokens. */
const keyOf = (req: ExchangeRequest, operation?: string): BreakerKey | undefined =>
  operation === undefined
    ? undefined
    : { service: new URL(req.url).pathname.split('/')[1], origin: new URL(req.url).origin };

const req = (url: string): ExchangeRequest => ({ method: 'GET', url, headers: {} });

/** An exchange of operation `op` (or of none: a token request) with an answer or a failure of a kind. */
function exchange(url: string, outcome: 'answer' | ErrorKind, operation: 'op' | 'none' = 'op'): Exchange {
  // Size-cap and redirect errors come with an answer; the others have none.
  const answered = outcome === 'answer' || outcome === 'size-cap' || outcome === 'redirects';
  return {
    id: `${Math.random()}`,
    ...(operation === 'op' ? { operation } : {}),
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    request: req(url),
    ...(answered ? { response: { status: 500, headers: {}, bodyText: '', size: 0, truncated: false } } : {}),
    ...(outcome === 'answer' ? {} : { error: `${outcome} at ${url}`, errorKind: outcome }),
  };
}

const A = 'http://a.example/reference/x';
const A2 = 'http://a.example/address/y';
const A3 = 'http://a.example/patients/z';
const B = 'http://b.example/reference/x';

describe('Breaker', () => {
  test('stops a service after N consecutive failures, naming the count, the kind and the last failure', () => {
    const breaker = new Breaker(runDir(), 3, keyOf);
    breaker.sent(exchange(A, 'time-out'));
    breaker.sent(exchange(A, 'time-out'));
    expect(breaker.refusal(req(A), 'op')).toBeUndefined();
    breaker.sent(exchange(A, 'time-out'));
    expect(breaker.refusal(req(A), 'op')).toBe(
      `not sent: service reference stopped answering after 3 consecutive time-outs (last: time-out at ${A})`,
    );
  });

  test('any answer, whatever its status, resets the count', () => {
    const breaker = new Breaker(runDir(), 3, keyOf);
    breaker.sent(exchange(A, 'time-out'));
    breaker.sent(exchange(A, 'transport'));
    breaker.sent(exchange(A, 'answer'));
    breaker.sent(exchange(A, 'time-out'));
    breaker.sent(exchange(A, 'size-cap')); // an answer too big is an answer
    breaker.sent(exchange(A, 'transport'));
    breaker.sent(exchange(A, 'redirects'));
    breaker.sent(exchange(A, 'transport'));
    breaker.sent(exchange(A, 'time-out'));
    expect(breaker.refusal(req(A), 'op')).toBeUndefined();
    breaker.sent(exchange(A, 'time-out'));
    expect(breaker.refusal(req(A), 'op')).toMatch(/after 3 consecutive time-outs or transport failures/);
  });

  test('is shared through the run folder: a stop seen by one worker holds for every other', () => {
    const dir = runDir();
    const one = new Breaker(dir, 2, keyOf);
    const other = new Breaker(dir, 2, keyOf);
    one.sent(exchange(A, 'transport'));
    other.sent(exchange(A, 'transport'));
    expect(one.refusal(req(A), 'op')).toMatch(/after 2 consecutive transport failures/);
    expect(new Breaker(dir, 2, keyOf).refusal(req(A), 'op')).toMatch(/service reference stopped answering/);
  });

  test('an answer in another worker resets the shared count', () => {
    const dir = runDir();
    const one = new Breaker(dir, 2, keyOf);
    const other = new Breaker(dir, 2, keyOf);
    one.sent(exchange(A, 'time-out'));
    other.sent(exchange(A, 'answer'));
    one.sent(exchange(A, 'time-out'));
    expect(one.refusal(req(A), 'op')).toBeUndefined();
  });

  test('services are counted apart, per origin; two stopped services stop their origin as a whole', () => {
    const breaker = new Breaker(runDir(), 2, keyOf);
    breaker.sent(exchange(A, 'time-out'));
    breaker.sent(exchange(A, 'time-out'));
    breaker.sent(exchange(B, 'time-out'));
    breaker.sent(exchange(A2, 'time-out'));
    expect(breaker.refusal(req(B), 'op')).toBeUndefined();
    expect(breaker.refusal(req(A2), 'op')).toBeUndefined();
    expect(breaker.refusal(req(A3), 'op')).toBeUndefined();
    breaker.sent(exchange(A2, 'transport'));
    expect(breaker.refusal(req(A2), 'op')).toBe(
      `not sent: service address stopped answering after 2 consecutive time-outs or transport failures (last: transport at ${A2})`,
    );
    expect(breaker.refusal(req(A3), 'op')).toBe(
      `not sent: the target http://a.example stopped answering (services address and reference stopped; last: transport at ${A2})`,
    );
    expect(breaker.refusal(req(B), 'op')).toBeUndefined();
  });

  test('calls without a service (tokens) are neither counted nor refused; not-sent calls do not count', () => {
    const breaker = new Breaker(runDir(), 1, keyOf);
    breaker.sent(exchange(A, 'time-out', 'none'));
    breaker.sent(exchange(A, 'not-sent'));
    expect(breaker.refusal(req(A), 'op')).toBeUndefined();
    breaker.sent(exchange(A, 'time-out'));
    expect(breaker.refusal(req(A), undefined)).toBeUndefined();
    expect(breaker.refusal(req(A), 'op')).toMatch(/after 1 consecutive time-out \(last/);
  });

  test('a redirected call counts against the service it was first sent to', () => {
    const breaker = new Breaker(runDir(), 1, keyOf);
    breaker.sent(exchange(B, 'time-out'), req(A));
    expect(breaker.refusal(req(A), 'op')).toMatch(/service reference stopped answering .*last: time-out at http:\/\/b/);
    expect(breaker.refusal(req(B), 'op')).toBeUndefined();
  });

  test('a call left unjudged after load refusals is an answer: the target is there, and busy', () => {
    const breaker = new Breaker(runDir(), 2, keyOf);
    breaker.sent(exchange(A, 'time-out'));
    breaker.sent(exchange(A, 'load-refused'));
    breaker.sent(exchange(A, 'time-out'));
    expect(breaker.refusal(req(A), 'op')).toBeUndefined();
    breaker.sent(exchange(A, 'load-refused'));
    breaker.sent(exchange(A, 'load-refused'));
    expect(breaker.refusal(req(A), 'op')).toBeUndefined();
  });

  test('a threshold of 0 never stops a service and writes nothing', () => {
    const dir = runDir();
    const breaker = new Breaker(dir, 0, keyOf);
    for (let i = 0; i < 5; i++) breaker.sent(exchange(A, 'time-out'));
    expect(breaker.refusal(req(A), 'op')).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('RunRetryBudget', () => {
  test('one budget of resends and of waiting for the whole run, shared through the run folder', () => {
    const dir = runDir();
    const one = new RunRetryBudget(dir, { loadRetries: 3, loadRetryWaitMs: 10_000 });
    const other = new RunRetryBudget(dir, { loadRetries: 3, loadRetryWaitMs: 10_000 });
    expect(one.totals()).toEqual({ retries: 0, waitedMs: 0, gaveUp: 0 });
    expect(one.take(1000)).toBeUndefined();
    expect(other.take(2000)).toBeUndefined();
    expect(one.take(1000)).toBeUndefined();
    expect(other.take(0)).toBe("the run's budget of 3 resends is spent");
    other.gaveUp();
    expect(one.totals()).toEqual({ retries: 3, waitedMs: 4000, gaveUp: 1 });
  });

  test('a wait beyond the budget of waiting is not taken; a budget of 0 resends takes none', () => {
    const waiting = new RunRetryBudget(runDir(), { loadRetries: 100, loadRetryWaitMs: 1500 });
    expect(waiting.take(1000)).toBeUndefined();
    expect(waiting.take(1000)).toBe("the run's budget of 1.5 s of waiting is spent");
    expect(waiting.take(500)).toBeUndefined();
    const none = new RunRetryBudget(runDir(), { loadRetries: 0, loadRetryWaitMs: 1500 });
    expect(none.take(0)).toBe('resending is off: http.loadRetries is 0');
  });

  test('a resend whose wait an interruption cut short is given back: not a retry, its unwaited time returned, the call left unjudged', () => {
    const dir = runDir();
    const budget = new RunRetryBudget(dir, { loadRetries: 3, loadRetryWaitMs: 100_000 });
    expect(budget.take(1000)).toBeUndefined();
    expect(budget.take(30_000)).toBeUndefined();
    budget.interrupted(29_000);
    expect(budget.totals()).toEqual({ retries: 1, waitedMs: 2000, gaveUp: 1 });
    // What the runner reads at the end of the run, workers and runner together.
    expect(loadRetryTotals(dir)).toEqual({ retries: 1, waitedMs: 2000, gaveUp: 1 });
    expect(loadRetryTotals(runDir())).toEqual({ retries: 0, waitedMs: 0, gaveUp: 0 });
  });
});

describe("the run's interruption", () => {
  test('reaches a suite worker thread at once; a thread started after it finds it already aborted', async () => {
    const dir = runDir();
    // A worker thread as vitest's: it loads core/breaker.ts and reports when its signal aborts.
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       import(workerData.tsx)
         .then(({ register }) => register())
         .then(() => import(workerData.module))
         .then(({ runInterruption }) => {
           // The channel keeps no thread alive; a vitest worker lives on its own port, this one on a timer.
           const alive = setInterval(() => {}, 1000);
           const signal = runInterruption(workerData.dir);
           signal.addEventListener('abort', () => {
             clearInterval(alive);
             parentPort.postMessage('aborted');
           });
           parentPort.postMessage('listening');
         });`,
      {
        eval: true,
        workerData: {
          dir,
          tsx: import.meta.resolve('tsx/esm/api'),
          module: new URL('./breaker.ts', import.meta.url).href,
        },
      },
    );
    try {
      expect((await once(worker, 'message'))[0]).toBe('listening');
      const here = runInterruption(dir);
      expect(here.aborted).toBe(false);
      interruptRun(dir);
      expect((await once(worker, 'message'))[0]).toBe('aborted');
      await vi.waitFor(() => expect(here.aborted).toBe(true));
      expect(runInterruption(dir).aborted).toBe(true);
      // Another run is not interrupted.
      expect(runInterruption(runDir()).aborted).toBe(false);
    } finally {
      await worker.terminate();
    }
  });
});
