import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RunEventType } from '../core/events.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { runConformance } from './runConformance.ts';
import { FAR_TARGET_MS, workersForRoundTrip } from './vitestEngine.ts';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

test('reporters subscribe to typed run events: started, what the suites recorded, finished (report folder written)', async () => {
  const seen: RunEventType[] = [];
  const outcome = await runConformance({
    target: sandbox.url,
    config: DEMO_CONFIG_FILE,
    environmentFallbacks: DEMO_ENVIRONMENT,
    only: 'diary-post-auth',
    reportDir: join(mkdtempSync(join(tmpdir(), 'conformance-events-')), 'report'),
    allowDestructive: false,
    seed: 1,
    runs: 1,
    // One operation alone: its requirements shared with others are not all judged (DEC-R-02).
    minCoverage: 0,
    subscribe: (bus) => {
      for (const type of ['run-started', 'exchange-recorded', 'check-evaluated', 'run-finished'] as const)
        bus.on(type, () => {
          seen.push(type);
        });
    },
  });
  expect(outcome.exitCode).toBe(0);
  expect(seen[0]).toBe('run-started');
  expect(seen.at(-1)).toBe('run-finished');
  expect(seen).toContain('exchange-recorded');
  expect(seen.filter((t) => t === 'check-evaluated').length).toBeGreaterThan(3);
  expect(outcome.reports?.reportHtml).toMatch(/report\.html$/);
}, 120_000);

test('a far target (its quickest discovery call 20 ms or more) runs its suite files in 4 threads, a near one in 2, a chosen number as chosen', async () => {
  expect(workersForRoundTrip(undefined)).toBeUndefined();
  expect(workersForRoundTrip(FAR_TARGET_MS - 1)).toBeUndefined();
  expect(workersForRoundTrip(FAR_TARGET_MS)).toBe(4);
  const far = await startSandbox({ port: 0, latencyMs: 30 });
  try {
    // Operations of four suite files, so that the count is not bounded by the files.
    const run = (target: string, workers?: number) =>
      runConformance({
        target,
        config: DEMO_CONFIG_FILE,
        environmentFallbacks: DEMO_ENVIRONMENT,
        only: 'diary-post-auth,get-code-set,search-bills,list-insurers',
        reportDir: join(mkdtempSync(join(tmpdir(), 'conformance-workers-')), 'report'),
        allowDestructive: false,
        seed: 1,
        runs: 1,
        minCoverage: 0,
        artefacts: 'results',
        ...(workers ? { workers } : {}),
      });
    const [near, distant, chosen] = await Promise.all([run(sandbox.url), run(far.url), run(far.url, 1)]);
    expect([near.exitCode, distant.exitCode, chosen.exitCode]).toEqual([0, 0, 0]);
    // Loopback is near unless this machine is so busy that even its quickest discovery call took
    // 20 ms: the choice follows what was measured. 30 ms away is far however idle the machine.
    expect(near.targetRoundTripMs).toBeDefined();
    expect(near.suiteWorkers).toBe((near.targetRoundTripMs ?? 0) >= FAR_TARGET_MS ? 4 : 2);
    expect(distant.targetRoundTripMs).toBeGreaterThanOrEqual(30);
    expect(distant.suiteWorkers).toBe(4);
    expect(chosen.suiteWorkers).toBe(1);
  } finally {
    await far.close();
  }
}, 240_000);
