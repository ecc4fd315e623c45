/**
 * A property failure carries the seed and path that replay it, and replaying with `--seed` and
 * `--path` reproduces the same shrunk counterexample (DESIGN.md, "Generators and properties").
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox } from '../server/http.ts';
import { readResults, reportDir, runCli } from './support/cli.ts';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox({ faults: ['insurer-filter-ignored'] });
});
afterAll(async () => {
  await sandbox.close();
});

test('a shrunk counterexample is replayed by --seed and --path', async () => {
  const first = reportDir();
  const run1 = await runCli([
    'run',
    '--target',
    sandbox.url,
    '--only',
    'search-remittance-summary',
    '--seed',
    '99',
    '--report-dir',
    first,
  ]);
  expect(run1.code).toBe(1);
  const failed = readResults(first).results.find(
    (r) => r.replay && r.status === 'fail' && r.check === 'entries-match-filter',
  );
  expect(failed?.replay?.path).toBeTruthy();
  // The hint is a whole command: the target (the default demo config is implied) and the case.
  expect(run1.stdout).toContain(
    `replay: npx conformance run --target ${sandbox.url} --seed 99 --path ${failed!.replay!.path} --only search-remittance-summary`,
  );

  const second = reportDir();
  const run2 = await runCli([
    'run',
    '--target',
    sandbox.url,
    '--only',
    'search-remittance-summary',
    '--seed',
    '99',
    '--path',
    failed!.replay!.path!,
    '--report-dir',
    second,
  ]);
  expect(run2.code).toBe(1);
  const replayed = readResults(second).results.find(
    (r) => r.replay && r.status === 'fail' && r.check === 'entries-match-filter',
  );
  expect(replayed?.replay?.counterexample).toEqual(failed!.replay!.counterexample);
}, 240_000);
