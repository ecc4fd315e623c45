/**
 * The safe default and the coverage rule (issue 9, items 6 and 7), each a real run against the
 * clean sandbox:
 * - without --allow-destructive the run is conformant (exit 0): destructive steps are `omit` with
 *   the reason "needs --allow-destructive", left out of the coverage share by the user's choice;
 * - with a config that names credentials but no fixtures, too little is judged: inconclusive
 *   (exit 3) with the coverage reason, although no MUST failed.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';

import type { RunResults } from '../core/results.ts';
import { startSandbox } from '../server/http.ts';
import { readResults, reportDir, runCli, type CliResult } from './support/cli.ts';
import { stricterThanCited } from './support/levels.ts';

const DEMO_CONFIG = JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')) as Record<string, unknown>;

const TIMEOUT = 300_000;
// One sandbox per run: the destructive run acknowledges batches, which the safe run's
// "the pending list is unchanged by a get" step would see if they shared one.
let sandboxes: Awaited<ReturnType<typeof startSandbox>>[] = [];
let safe: CliResult & { results: RunResults };
let bare: CliResult & { results: RunResults };

beforeAll(async () => {
  sandboxes = await Promise.all([startSandbox(), startSandbox()]);
  const configDir = mkdtempSync(join(tmpdir(), 'conformance-config-'));
  const { fixtures: _dropped, ...noFixtures } = DEMO_CONFIG;
  const configFile = join(configDir, 'no-fixtures.json');
  writeFileSync(configFile, JSON.stringify(noFixtures));
  const run = async (target: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
    const dir = reportDir();
    const out = await runCli(
      ['run', '--target', target, '--report-dir', dir, '--seed', '20261123', '--runs', '2', ...args],
      { timeoutMs: TIMEOUT, env },
    );
    return { ...out, results: readResults(dir) };
  };
  [safe, bare] = await Promise.all([
    run(sandboxes[0].url, []),
    run(sandboxes[1].url, ['--config', configFile, '--allow-destructive'], DEMO_ENVIRONMENT),
  ]);
}, TIMEOUT + 20_000);

afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
});

describe('without --allow-destructive against the clean sandbox', () => {
  test('exits 0 with verdict conformant and no MUST failure or error', () => {
    const bad = safe.results.results.filter((r) => r.level === 'MUST' && (r.status === 'fail' || r.status === 'error'));
    expect(bad.map((r) => `${r.operation} ${r.check}: ${r.message}`)).toEqual([]);
    expect(safe.results.verdict).toBe('conformant');
    expect(safe.code).toBe(0);
  });

  test('destructive steps are omitted with the reason, and left out of the coverage share', () => {
    const omitted = safe.results.results.filter((r) => r.status === 'omit');
    expect(omitted.length).toBeGreaterThan(0);
    for (const r of omitted) expect(r.message, `${r.operation} ${r.check}`).toMatch(/needs --allow-destructive/);
    expect(safe.results.coverage?.overall.leftOut['needs --allow-destructive']).toBeGreaterThan(0);
    expect(safe.stdout).toMatch(/left out by choice: \d+ needs --allow-destructive/);
    expect(stricterThanCited(safe.results)).toEqual([]);
  });
});

describe('a config that names credentials but no fixtures', () => {
  test('is inconclusive (exit 3) with the coverage reason, though no MUST failed', () => {
    expect(bare.results.results.filter((r) => r.level === 'MUST' && r.status === 'fail')).toEqual([]);
    expect(bare.results.verdict).toBe('inconclusive');
    expect(bare.results.verdictReason).toMatch(
      /of the testable MUST requirements in scope were judged, below the minimum of 90%.*fixture not configured/,
    );
    expect(bare.stdout).toMatch(/^Inconclusive: only \d+% /m);
    expect(bare.code).toBe(3);
  });

  test('the console shows, per operation, how much was judged and why the rest was not', () => {
    expect(bare.stdout).toMatch(/^find-member-v2 .* \d+% \(\d+\/\d+\)/m);
    expect(bare.stdout).toMatch(/^ {2}find-member-v2: not judged: .*\d+ fixture not configured/m);
  });
});
