/**
 * Self-test, part 2: every named sandbox fault makes the suite say `not-conformant` (exit 1)
 * through the check the fault's catalogue entry names, on one of the operations it concerns.
 * Each fault is run with --only its operations, so the self-test stays fast as the suite grows.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { FAULTS } from '../server/faults/catalog.ts';
import { startSandbox } from '../server/http.ts';
import { readResults, reportDir, runCli } from './support/cli.ts';

const opened: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

describe('every named fault is caught', () => {
  test('there are at least 15 faults of different kinds', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(15);
    expect(new Set(FAULTS.map((f) => f.kind)).size).toBeGreaterThanOrEqual(10);
  });

  test.concurrent.each(FAULTS.map((f) => [f.name, f] as const))('%s', async (_name, fault) => {
    const sandbox = await startSandbox({ faults: [fault.name] });
    opened.push(sandbox);
    const dir = reportDir();
    const only = [...new Set(fault.operations)].join(',');
    const { code, stderr } = await runCli(['run', '--target', sandbox.url, '--allow-destructive', '--only', only, '--report-dir', dir, '--seed', '20261121', '--runs', '8'], { timeoutMs: 300000 });
    expect(stderr).not.toMatch(/internal error/);
    const results = readResults(dir);
    const caught = results.results.filter((r) => r.level === 'MUST' && r.status === 'fail' && r.check === fault.expectedCheck && fault.operations.includes(r.operation));
    expect(caught.length, `${fault.name}: expected a MUST failure of ${fault.expectedCheck}; failures seen: ${results.results.filter((r) => r.status === 'fail').map((r) => `${r.operation}/${r.check}`).join(', ')}`).toBeGreaterThan(0);
    expect(results.verdict).toBe('not-conformant');
    expect(code).toBe(1);
  }, 320000);
});
