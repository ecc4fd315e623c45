import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RunEventType } from '../core/events.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { runConformance } from './runConformance.ts';

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
