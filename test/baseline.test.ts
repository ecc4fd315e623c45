/**
 * Baselines and diffs through the real command (issue 24): a clean run of the sandbox is the
 * baseline; the same sandbox address then serves a fault. `--fail-on new` exits 1 naming the new
 * finding; the faulty run as its own baseline exits 0 with "0 new"; `conformance diff` shows the
 * finding as new one way and fixed the other, as text and as JSON.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox } from '../server/http.ts';
import { readResults, reportDir, runCli } from './support/cli.ts';

const ONLY = 'get-remittance-details,ack-remittance,list-pending-remittances';
const FAULT = 'invalid-id-200';
const SECOND = 'pending-maxcount-tag';
let faultyStdout = '';
let clean: string;
let faulty: string;
let url: string;
let port: number;

async function runAgainst(fault: readonly string[], dir: string, extra: string[] = []) {
  const sandbox = await startSandbox({ port, faults: fault });
  try {
    return await runCli(
      [
        'run',
        '--target',
        url,
        '--only',
        ONLY,
        '--report-dir',
        dir,
        '--seed',
        '7',
        '--runs',
        '3',
        '--allow-destructive',
        ...extra,
      ],
      { timeoutMs: 240_000 },
    );
  } finally {
    await sandbox.close();
  }
}

beforeAll(async () => {
  const probe = await startSandbox();
  url = probe.url;
  port = Number(new URL(url).port);
  await probe.close();
  clean = reportDir();
  faulty = reportDir();
  expect((await runAgainst([], clean)).code).toBe(0);
  const twoFaults = await runAgainst([FAULT, SECOND], faulty);
  expect(twoFaults.code).toBe(1);
  faultyStdout = twoFaults.stdout;
}, 600_000);

afterAll(() => undefined);

describe('findings', () => {
  test("with two faults on, the first findings name both faults' checks, a handful in all, each with its count", () => {
    const block = faultyStdout.slice(faultyStdout.indexOf('MUST findings:'));
    const heads = [...block.matchAll(/^ {2}\d+\. FAIL (\S+) (once|×\d+) on /gm)].map((m) => m[1]);
    expect(heads.length).toBeGreaterThan(0);
    expect(heads.length).toBeLessThanOrEqual(6);
    expect(heads.slice(0, 3)).toEqual(expect.arrayContaining(['invalid-id-answer']));
    expect(heads.slice(0, 3).some((c) => /paging|tag/.test(c ?? ''))).toBe(true);
  });
});

describe('--baseline and --fail-on new', () => {
  test('a fault new since the clean baseline exits 1 and names the new finding', async () => {
    const dir = reportDir();
    const r = await runAgainst([FAULT, SECOND], dir, ['--baseline', clean, '--fail-on', 'new']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/Baseline: .* \d+ new, 0 still failing, 0 fixed/);
    expect(r.stdout).toMatch(/\[new\] FAIL invalid-id-answer/);
    const results = readResults(dir);
    expect(results.verdict).toBe('not-conformant');
    expect(results.baseline?.failOn).toBe('new');
    expect(results.baseline?.new.length).toBeGreaterThan(0);
  }, 300_000);

  test('the same fault against itself as baseline exits 0 with 0 new, and the verdict still says not conformant', async () => {
    const dir = reportDir();
    const r = await runAgainst([FAULT, SECOND], dir, ['--baseline', faulty, '--fail-on', 'new']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Baseline: .* 0 new, \d+ still failing, 0 fixed/);
    expect(r.stdout).toMatch(/Verdict: NOT CONFORMANT/);
    expect(readResults(dir).baseline?.new).toEqual([]);
  }, 300_000);

  test('a baseline of another target is refused before any request, with the reason', async () => {
    const r = await runCli([
      'run',
      '--target',
      'http://127.0.0.1:9',
      '--only',
      ONLY,
      '--report-dir',
      reportDir(),
      '--baseline',
      clean,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /baseline .* cannot be used: it judged http:\/\/127\.0\.0\.1:\d+, this run judges http:\/\/127\.0\.0\.1:9/,
    );
  });
});

describe('conformance diff', () => {
  test('shows the finding as new one way and fixed the other, as text and JSON', async () => {
    const forward = await runCli(['diff', clean, faulty]);
    expect(forward.code).toBe(0);
    expect(forward.stdout).toMatch(/Verdict: conformant -> not-conformant/);
    expect(forward.stdout).toMatch(/New in B:\n {2}FAIL MUST invalid-id-answer/);
    const back = await runCli(['diff', faulty, clean, '--json']);
    expect(back.code).toBe(0);
    const json = JSON.parse(back.stdout) as { findings: { new: unknown[]; fixed: { check: string }[] } };
    expect(json.findings.new).toEqual([]);
    expect(json.findings.fixed.map((f) => f.check)).toContain('invalid-id-answer');
  });
});
