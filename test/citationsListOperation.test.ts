/**
 * House rule: a result cites only rows that list its operation. A requirement row of
 * spec/requirements.csv names the operations it is about; a result of operation A citing a row that
 * lists only B, C claims more than was judged (coverage counts the row as judged for A, and a
 * fault of A failing that result would credit the row with a proof it does not have, power,
 * scripts/power.ts).
 *
 * Read from real runs' results.json, so that every citation the suites, the coverage phase, the
 * derived requests and the state machines make is seen as the run makes it, wherever its rows come
 * from: a clean run of every operation against the sandbox (through the shared run pool), the safe
 * default (no --allow-destructive: the `destructive-step` omits) and a config without fixtures
 * (the `fixture-configured` skips).
 *
 * The one exception, named precisely: a `state-sequence-holds` result (suites/common/stateSequences.ts)
 * judges a whole generated sequence of one state machine (its `evidence.machine`) in one step and is
 * recorded on one of the machine's operations; it may cite a row that lists any operation of that
 * machine (STATE_SEQUENCE_OPERATIONS), and no other.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { CheckResult, RunResults } from '../core/results.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { operations } from '../spec/operations.ts';
import { loadRequirements } from '../spec/requirements.ts';
import { STATE_SEQUENCE_OPERATIONS } from '../suites/common/stateSequences.ts';
import { readResults, reportDir } from './support/cli.ts';
import { runWeight } from './support/runPool.ts';
import { sharedRunPool } from './support/sharedRunPool.ts';

const STATE_SEQUENCE_CHECK = 'state-sequence-holds';
const RUN_TIMEOUT_MS = 420_000;

type Result = Pick<CheckResult, 'check' | 'operation' | 'requirements' | 'evidence'>;

/** The operations a result may cite rows of: its own, or, for a state sequence, its machine's. */
function operationsJudged(r: Result): readonly string[] {
  const machine = r.evidence?.machine;
  if (r.check === STATE_SEQUENCE_CHECK && typeof machine === 'string' && machine in STATE_SEQUENCE_OPERATIONS)
    return STATE_SEQUENCE_OPERATIONS[machine as keyof typeof STATE_SEQUENCE_OPERATIONS];
  return [r.operation];
}

/**
 * One line per (operation, check, row) where the result cites a row that lists none of the
 * operations it judged, or a row the table does not have.
 */
function citationsNotListingOperation(results: readonly Result[]): string[] {
  const listed = new Map(loadRequirements().map((r) => [r.id, r.operations]));
  const out = new Set<string>();
  for (const r of results) {
    const judged = operationsJudged(r);
    for (const id of r.requirements) {
      const ops = listed.get(id);
      if (ops === undefined)
        out.add(`${r.operation} ${r.check} cites ${id}, which spec/requirements.csv does not have`);
      else if (!judged.some((op) => ops.includes(op)))
        out.add(`${r.operation} ${r.check} cites ${id}, which lists ${ops.join(' ') || 'no operation'}`);
    }
  }
  return [...out].sort();
}

const pool = sharedRunPool();
const SEED = '20261126';

const sandboxes: RunningSandbox[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
});

/** A run through the command against a sandbox of its own (the safe default and the bare config). */
async function commandRun(args: string[]): Promise<{ code: number | null; stderr: string; results: RunResults }> {
  const sandbox = await startSandbox();
  sandboxes.push(sandbox);
  const dir = reportDir();
  const out = await pool.command(
    ['run', '--target', sandbox.url, '--report-dir', dir, '--seed', SEED, '--runs', '1', ...args],
    { ...DEMO_ENVIRONMENT },
  );
  return { code: out.code, stderr: out.stderr, results: readResults(dir) };
}

/** The demo config without its fixtures section: every step that needs one is a `fixture-configured` skip. */
function configWithoutFixtures(): string {
  const { fixtures: _dropped, ...rest } = JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')) as Record<string, unknown>;
  const file = join(mkdtempSync(join(tmpdir(), 'conformance-config-')), 'no-fixtures.json');
  writeFileSync(file, JSON.stringify(rest));
  return file;
}

describe('house rule: a result cites only rows that list its operation', () => {
  test('the rule finds a citation of another operation’s row, and excepts state sequences only for their machine', () => {
    const ok: Result = { check: 'matches-schema', operation: 'get-code-set', requirements: ['D2-1-09'] };
    // D1-1-06 is Document 1's JSON row: it lists no Document 2 operation.
    const wrong: Result = { check: 'body-is-json', operation: 'get-code-set', requirements: ['D2-1-09', 'D1-1-06'] };
    const unknown: Result = { check: 'body-is-json', operation: 'get-code-set', requirements: ['D9-9-99'] };
    expect(citationsNotListingOperation([ok])).toEqual([]);
    expect(citationsNotListingOperation([ok, wrong, unknown])).toEqual([
      expect.stringMatching(/^get-code-set body-is-json cites D1-1-06, which lists find-member-v1 /),
      'get-code-set body-is-json cites D9-9-99, which spec/requirements.csv does not have',
    ]);
    // The batch cycle's verdict, recorded on ack-remittance, may cite a row of get-remittance-details
    // (D1-3-06: Get with an unknown id) but not one of another machine's or of no machine.
    const sequence = (requirements: string[], machine = 'batch-cycle'): Result => ({
      check: STATE_SEQUENCE_CHECK,
      operation: 'ack-remittance',
      requirements,
      evidence: { machine, sequences: 1 },
    });
    expect(citationsNotListingOperation([sequence(['D1-3-06'])])).toEqual([]);
    expect(citationsNotListingOperation([sequence(['D3-4.4-04'])])).toHaveLength(1);
    expect(citationsNotListingOperation([sequence(['D1-3-06'], 'no-such-machine')])).toHaveLength(1);
    // Only the state-sequence check is excepted: another check on ack-remittance citing D1-3-06 is caught.
    expect(citationsNotListingOperation([{ ...sequence(['D1-3-06']), check: 'coverage-phase-served' }])).toHaveLength(
      1,
    );
  });

  test(
    'every citation of a clean run of every operation names a row that lists the result’s operation',
    async () => {
      const job = { seed: Number(SEED), runs: 2 };
      const run = await pool.run(job, runWeight(job, operations.length));
      const results: RunResults['results'] = run.results.results;
      expect(run.stderr).not.toMatch(/internal error/);
      expect(results.length).toBeGreaterThan(1000);
      expect(new Set(results.map((r) => r.operation))).toEqual(new Set(operations.map((o) => o.id)));
      expect(citationsNotListingOperation(results)).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );

  test(
    'so does every omit of the safe default and every skip of a config without fixtures',
    async () => {
      const [safe, bare] = await Promise.all([
        commandRun(['--config', DEMO_CONFIG_FILE]),
        commandRun(['--config', configWithoutFixtures(), '--allow-destructive']),
      ]);
      for (const run of [safe, bare]) expect(run.stderr).not.toMatch(/internal error/);
      const omits = safe.results.results.filter((r) => r.check === 'destructive-step');
      const skips = bare.results.results.filter((r) => r.check === 'fixture-configured');
      expect(omits.length).toBeGreaterThan(10);
      expect(skips.length).toBeGreaterThan(10);
      expect(citationsNotListingOperation(safe.results.results)).toEqual([]);
      expect(citationsNotListingOperation(bare.results.results)).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );
});
