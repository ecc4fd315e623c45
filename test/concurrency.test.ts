/**
 * Requests in flight and the results (issue 34): a run at `--concurrency 1` (one worker, every
 * request sent when the one before it was judged) and a run at the default concurrency (requests
 * sent ahead, several at once, over two workers) give the same results for the same seed: the
 * same checks, statuses, levels, messages, evidence and replays, in the same order, each pointing
 * at an exchange of the same request and answer status. Timings and timestamps aside. The
 * operations chosen have a state sequence (the batch cycle: list, get, acknowledge), generated
 * cases of searches sent ahead, and invalid requests of an operation that changes data.
 */
import { afterAll, expect, test } from 'vitest';
import type { RunResults } from '../core/results.ts';
import { startSandbox } from '../server/http.ts';
import { readResults, reportDir, runCli } from './support/cli.ts';

const ONLY = 'list-pending-remittances,get-remittance-details,ack-remittance,search-address,find-member-v2';
const COMMON = [
  '--allow-destructive',
  '--only',
  ONLY,
  '--seed',
  '3434',
  '--runs',
  '3',
  '--min-coverage',
  '0',
  '--quiet',
];

const opened: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

/** Members that say when or how long, never what was judged. */
const TIMING = /^(startedAt|finishedAt|duration|durationMs|elapsedMs|waitedMs|at)$/;

function withoutTimings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimings);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !TIMING.test(k))
      .map(([k, v]) => [k, withoutTimings(v)]),
  );
}

/**
 * The results in order, each with the request and answer status of its exchange in place of the
 * exchange's index, the target's address (each run has its own sandbox) written `<target>`.
 */
function comparable(r: RunResults, target: string): unknown[] {
  const results = r.results.map(({ exchange, ...result }) => {
    const x = exchange === undefined ? undefined : r.exchanges[exchange];
    const url = x ? new URL(x.url) : undefined;
    return withoutTimings({
      ...result,
      ...(x && url ? { exchange: { method: x.method, path: `${url.pathname}${url.search}`, status: x.status } } : {}),
    });
  });
  return JSON.parse(JSON.stringify(results).split(target).join('<target>')) as unknown[];
}

test('the same seed gives the same results, in the same order, at --concurrency 1 and at the default', async () => {
  // A few milliseconds before each answer, so that requests sent together are in flight together
  // (on loopback the sandbox answers one before it reads the next); the default run's target is
  // far (25 ms: app/vitestEngine.ts workersForRoundTrip), so its suite files run in as many threads
  // as there are (3) where the other run has one.
  const [one, many] = [await startSandbox({ latencyMs: 3 }), await startSandbox({ latencyMs: 25 })];
  opened.push(one, many);
  const [dirOne, dirMany] = [reportDir(), reportDir()];
  const [sequential, concurrent] = await Promise.all([
    runCli(['run', '--target', one.url, ...COMMON, '--concurrency', '1', '--report-dir', dirOne], {
      timeoutMs: 240_000,
    }),
    runCli(['run', '--target', many.url, ...COMMON, '--report-dir', dirMany], { timeoutMs: 240_000 }),
  ]);
  expect(sequential.code, sequential.stderr).toBe(0);
  expect(concurrent.code, concurrent.stderr).toBe(0);
  // One at a time against one sandbox; several at once against the other.
  expect(one.load().mostInFlight).toBe(1);
  expect(many.load().mostInFlight).toBeGreaterThan(1);
  expect(many.load().requests).toBe(one.load().requests);

  const [a, b] = [readResults(dirOne), readResults(dirMany)];
  expect(a.results.length).toBeGreaterThan(50);
  expect(a.results.some((r) => r.check === 'state-sequence-holds')).toBe(true);
  expect(a.results.some((r) => r.replay?.counterexample !== undefined)).toBe(true);
  expect(b.verdict).toBe(a.verdict);
  expect(b.summary).toEqual(a.summary);
  expect(comparable(b, many.url)).toEqual(comparable(a, one.url));
});
