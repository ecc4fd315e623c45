/**
 * Sharded runs gate like whole runs (issue 32, item 4): two shards merged with `--baseline
 * --fail-on new` exit 1 on a new fault and 0 on none; the merged folder keeps the parts'
 * allure-results, so `report --allure --allure-history` works on it; a shard compared with a
 * whole run's baseline reports the findings outside its operations as not compared, never fixed
 * (`run --baseline` and `diff` alike).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { startSandbox } from '../server/http.ts';
import { readResults, reportDir, runCli } from './support/cli.ts';

// Lookups fall in shard 1 of 2, the batch cycle in shard 2 (test/shard.test.ts).
const ONLY = 'lookup-practitioners,list-pending-remittances,get-remittance-details,ack-remittance';
const FAULT = 'invalid-id-200';

describe('a sharded run against a baseline', () => {
  test('merge --baseline --fail-on new exits 1 on a new fault, 0 on none; not compared is never fixed', async () => {
    const probe = await startSandbox();
    const url = probe.url;
    const port = Number(new URL(url).port);
    await probe.close();
    const common = ['--target', url, '--only', ONLY, '--seed', '11', '--runs', '1', '--allow-destructive', '--quiet'];
    const against = async <T>(faults: string[], work: () => Promise<T>): Promise<T> => {
      const sandbox = await startSandbox({ port, faults });
      try {
        return await work();
      } finally {
        await sandbox.close();
      }
    };
    const shards = (faults: string[]) =>
      against(faults, async () => {
        const dirs = [reportDir(), reportDir()];
        const runs = await Promise.all(
          dirs.map((d, i) =>
            runCli(['run', ...common, '--shard', `${i + 1}/2`, '--report-dir', d], { timeoutMs: 300_000 }),
          ),
        );
        return { dirs, runs };
      });

    // The baseline: a clean sharded run, merged.
    const cleanShards = await shards([]);
    const mergedClean = reportDir();
    const m0 = await runCli(['merge', ...cleanShards.dirs, '--report-dir', mergedClean]);
    expect(m0.code, m0.stdout + m0.stderr).toBe(0);

    // A new fault in shard 2: the merged run against the clean baseline exits 1.
    const faulty = await shards([FAULT]);
    const mergedFaulty = reportDir();
    const m1 = await runCli([
      'merge',
      ...faulty.dirs,
      '--baseline',
      mergedClean,
      '--fail-on',
      'new',
      '--report-dir',
      mergedFaulty,
    ]);
    expect(m1.code, m1.stdout + m1.stderr).toBe(1);
    expect(m1.stdout).toMatch(/^Baseline: .*: [1-9]\d* new, 0 still failing, 0 fixed/m);
    expect(readResults(mergedFaulty).baseline?.new.length).toBeGreaterThan(0);

    // No fault: 0; the merged folder keeps the parts' Allure results and builds the Allure report.
    const again = reportDir();
    const m2 = await runCli([
      'merge',
      ...cleanShards.dirs,
      '--baseline',
      mergedClean,
      '--fail-on',
      'new',
      '--report-dir',
      again,
    ]);
    expect(m2.code, m2.stdout + m2.stderr).toBe(0);
    expect(m2.stdout).toMatch(/^Baseline: .*: 0 new/m);
    const parts = cleanShards.dirs.flatMap((d) => readdirSync(join(d, 'allure-results')));
    expect(parts.length).toBeGreaterThan(0);
    // Every part's result files, once each (environment.properties is the same in both parts).
    expect(readdirSync(join(again, 'allure-results')).sort()).toEqual([...new Set(parts)].sort());
    const history = join(reportDir(), 'allure-history.jsonl');
    const allure = await runCli(['report', join(again, 'results.json'), '--allure', '--allure-history', history]);
    expect(allure.code, allure.stderr).toBe(0);
    expect(existsSync(history)).toBe(true);

    // Shard 1 (lookups) against the faulty merged run: the batch findings are not compared, never fixed.
    const shard1 = reportDir();
    const r = await against([], () =>
      runCli(
        [
          'run',
          ...common.filter((x) => x !== '--quiet'),
          '--shard',
          '1/2',
          '--baseline',
          mergedFaulty,
          '--report-dir',
          shard1,
        ],
        {
          timeoutMs: 300_000,
        },
      ),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(readResults(shard1).baseline?.fixed).toEqual([]);
    expect(readResults(shard1).baseline?.notCompared?.length).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/0 fixed, [1-9]\d* not compared \(on operations this run did not judge\)/);
    const diff = await runCli(['diff', mergedFaulty, shard1]);
    expect(diff.stdout).toMatch(/^Findings: 0 new, 0 fixed, 0 still failing, [1-9]\d* not compared/m);
  }, 900_000);
});
