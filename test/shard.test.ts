/**
 * Sharding (issue 11): the parts of `conformance run --shard I/N`, run at the same time against
 * one target as CI runners would, merged by `conformance merge`, give the verdict, results,
 * counts and coverage of an unsharded run with the same seed and runs (timings and exchange ids
 * aside); coupled suites stay in one shard; merge refuses parts that do not make one run.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { groupAssignment, suiteInShard } from '../app/shard.ts';
import type { RunResults } from '../core/results.ts';
import { startSandbox } from '../server/http.ts';
import { operations } from '../spec/operations.ts';
import { suiteGroups } from '../spec/suiteCoupling.ts';
import { readResults, reportDir, runCli } from './support/cli.ts';

// Operations of five coupled groups: lookups and address fall in shard 1 of 2; sign-on with
// accounts (revoke observed through introspect), code sets and the batch cycle in shard 2.
const ONLY =
  'lookup-*,list-insurers,search-address,introspect,revoke-token,logout,get-code-set,list-pending-remittances,get-remittance-details,ack-remittance';
const COMMON = ['--allow-destructive', '--only', ONLY, '--seed', '424242', '--runs', '2', '--quiet'];

const opened: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

const key = (r: RunResults['results'][number]) =>
  [r.operation, r.check, r.status, r.level, r.requirements.join(' '), r.test ?? '', r.replay?.path ?? ''].join(' | ');

describe('the shard assignment', () => {
  test('every coupled group is in exactly one shard, for every count', () => {
    const groups = new Set(suiteGroups().values());
    for (let n = 1; n <= groups.size; n++) {
      const a = groupAssignment(n);
      expect([...a.keys()].sort()).toEqual([...groups].sort());
      expect(new Set(a.values()).size, `${n} shards all hold something`).toBe(n);
      for (const op of operations) {
        const holders = Array.from({ length: n }, (_, i) => i + 1).filter((i) =>
          suiteInShard(op.suite, { index: i, count: n }),
        );
        expect(holders, op.id).toHaveLength(1);
      }
    }
    // sign-on observes revoke through accounts' introspect: always together.
    for (let n = 2; n <= groups.size; n++) {
      expect(suiteInShard('sign-on', { index: 1, count: n })).toBe(suiteInShard('accounts', { index: 1, count: n }));
    }
  });
});

describe('sharded and merged equals unsharded', () => {
  test('same verdict, results, counts and coverage; merge refuses a part twice, a missing part and an altered part', async () => {
    const [whole, shared] = [await startSandbox(), await startSandbox()];
    opened.push(whole, shared);
    const [dir, p1, p2, merged] = [reportDir(), reportDir(), reportDir(), reportDir()];
    const [unsharded, s1, s2] = await Promise.all([
      runCli(['run', '--target', whole.url, ...COMMON, '--report-dir', dir], { timeoutMs: 300_000 }),
      runCli(['run', '--target', shared.url, ...COMMON, '--shard', '1/2', '--report-dir', p1], { timeoutMs: 300_000 }),
      runCli(['run', '--target', shared.url, ...COMMON, '--shard', '2/2', '--report-dir', p2], { timeoutMs: 300_000 }),
    ]);
    expect(unsharded.code, unsharded.stderr).toBe(0);
    const [a, b] = [readResults(p1), readResults(p2)];
    expect(a.shard).toEqual({ index: 1, count: 2 });
    expect(a.operations.length).toBeGreaterThan(0);
    expect(b.operations.length).toBeGreaterThan(0);
    expect(a.operations.map((o) => o.id).filter((id) => b.operations.some((o) => o.id === id))).toEqual([]);
    expect([s1.code, s2.code].every((c) => c === 0 || c === 3)).toBe(true);

    const m = await runCli(['merge', p1, p2, '--report-dir', merged]);
    expect(m.code, m.stderr).toBe(0);
    const [one, joined] = [readResults(dir), readResults(merged)];
    // The shared target differs from the other only in being judged by two runs at once; the
    // target in the results is its address, so it is left out of the comparison.
    expect(joined.verdict).toBe(one.verdict);
    expect(joined.mergedFrom).toBe(2);
    expect(joined.operations.map((o) => [o.id, o.counts, o.verdict])).toEqual(
      one.operations.map((o) => [o.id, o.counts, o.verdict]),
    );
    expect(joined.summary).toEqual(one.summary);
    expect(joined.coverage).toEqual(one.coverage);
    expect(joined.decisions).toEqual(one.decisions);
    expect(joined.results.map(key).sort()).toEqual(one.results.map(key).sort());
    const verified = await runCli(['verify-report', merged]);
    expect(verified.code).toBe(0);

    const twice = await runCli(['merge', p1, p1, '--report-dir', reportDir()]);
    expect(twice.code).toBe(2);
    expect(twice.stderr.split('\n')[0]).toMatch(/shard 1\/2 is given twice/);
    const missing = await runCli(['merge', p1, '--report-dir', reportDir()]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toMatch(/shard 2\/2 is missing/);
    const altered = reportDir();
    cpSync(p2, altered, { recursive: true });
    const file = join(altered, 'results.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"verdict": "conformant"', '"verdict": "not-conformant"'));
    const refused = await runCli(['merge', p1, altered, '--report-dir', reportDir()]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')[0]).toMatch(/was altered after its run/);
  }, 320_000);
});
