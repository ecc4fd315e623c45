/**
 * Self-test, part 2: every named sandbox fault makes the suite say `not-conformant` (exit 1)
 * through the check the fault's catalogue entry names, on one of the operations it concerns.
 *
 * Faults are tested in batches (test/support/faultBatches.ts): one sandbox with several faults on
 * and one run with --only the union of their operations, because starting the CLI and its suites
 * once per fault was most of `npm test`. Faults share a batch only when their operations lie in
 * disjoint groups of coupled suites, so each fault's operations are judged exactly as in a run
 * of its own; the test of a fault credits only failures of its own check on its own operations,
 * and the clean sandbox has no MUST failure at all (test/cleanSandbox.test.ts), so such a
 * failure can only come from that fault. A fault of a SHOULD rule (`expectedLevel`) is credited
 * by a warning of its check at SHOULD.
 */
import { describe, expect, test } from 'vitest';
import { isKnownCheckId } from '../checks/registry.ts';
import { FAULTS, type FaultInfo } from '../server/faults/catalog.ts';
import { batchFaults, caughtAtDiscovery, groupsOf, suiteGroups, type FaultBatch } from './support/faultBatches.ts';
import { operations } from '../spec/operations.ts';
import { type PoolRun, runWeight } from './support/runPool.ts';
import { creditsOf } from './support/selfTestPlan.ts';
import { sharedRunPool } from './support/sharedRunPool.ts';
import { dayPart, QUICK_PARTS } from './support/tiers.ts';

/**
 * A fixed seed keeps `npm test` reproducible; CONFORMANCE_FAULTS_SEED lets one re-check that
 * every fault is caught under other seeds too (a fault caught only by some seeds is a defect).
 */
const SEED = process.env.CONFORMANCE_FAULTS_SEED ?? '20261121';
/**
 * Property runs per property. Every fault was caught with 1 run under three seeds and with 2
 * under two; 2 keeps a margin. Runs cost little here (8 runs took about 5% more CPU than 4): the
 * time goes to starting the CLI, which batching saves, and to running each suite file, which it
 * cannot, as every fault still needs its suites to itself.
 */
const RUNS = '2';
const RUN_TIMEOUT_MS = 420_000;

const GROUPS = suiteGroups();
const BATCHES = batchFaults(FAULTS, GROUPS);
/**
 * The batches this run proves: every one in `npm run test:full` (CI), the day's part in `npm test`
 * (test/support/tiers.ts; CONFORMANCE_QUICK_DAY replays another day's).
 */
const TODAY = dayPart(BATCHES, (b) => b.operations.length, QUICK_PARTS.faults);
const PART = TODAY.of === 1 ? '' : ` (npm test: part ${TODAY.part + 1} of ${TODAY.of})`;

type BatchRun = PoolRun;

// Runs go to the long-lived run processes every self-test shares (test/support/runPool.ts), each
// with its own sandbox per batch over real HTTP; the command line itself is tested by
// test/cli*.test.ts.
const pool = sharedRunPool();

/**
 * One run per batch, started by whichever test asks first: the batch's own test normally, or a
 * fault's test when `-t` selects only that fault.
 */
const runs = new Map<number, Promise<BatchRun>>();
function runBatch(batch: FaultBatch<FaultInfo>): Promise<BatchRun> {
  let run = runs.get(batch.index);
  if (!run) {
    const job = {
      faults: batch.faults.map((f) => f.name),
      only: batch.operations.join(','),
      seed: Number(SEED),
      runs: Number(RUNS),
    };
    run = pool.run(job, runWeight(job, operations.length));
    runs.set(batch.index, run);
  }
  return run;
}

const batchOf = new Map(BATCHES.flatMap((b) => b.faults.map((f) => [f.name, b] as const)));

describe('the fault catalogue', () => {
  test('there are at least 15 faults of different kinds', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(15);
    expect(new Set(FAULTS.map((f) => f.kind)).size).toBeGreaterThanOrEqual(10);
  });

  test('every fault names a check of the registry (or the runner-decided discovery-key-present)', () => {
    const unknown = FAULTS.filter((f) => !isKnownCheckId(f.expectedCheck)).map((f) => `${f.name}: ${f.expectedCheck}`);
    expect(unknown, 'expectedCheck not in the check registry (checks/registry.ts)').toEqual([]);
  });

  test('batches hold every fault once and keep coupled suites apart', () => {
    expect(BATCHES.flatMap((b) => b.faults.map((f) => f.name)).sort()).toEqual(FAULTS.map((f) => f.name).sort());
    for (const b of BATCHES) {
      // Faults caught at discovery may share groups with each other, never an operation.
      const seen = new Set<string>();
      const atDiscovery = new Map<string, string>();
      const hidden = new Set<string>();
      for (const f of b.faults) {
        for (const g of groupsOf(f, GROUPS)) {
          const clash = seen.has(g) || (!caughtAtDiscovery(f) && atDiscovery.has(g));
          expect(clash, `batch ${b.index}: ${f.name} shares suite group ${g} with another fault`).toBe(false);
          if (caughtAtDiscovery(f)) atDiscovery.set(g, f.name);
          else seen.add(g);
        }
        if (!caughtAtDiscovery(f)) continue;
        for (const id of f.operations) {
          expect(hidden.has(id), `batch ${b.index}: ${f.name} shares ${id} with another discovery fault`).toBe(false);
          hidden.add(id);
        }
      }
    }
  });
});

describe('every batch of faults makes the run not-conformant', () => {
  test.concurrent.each(TODAY.items.map((b) => [b.index, b.faults.map((f) => f.name).join(', '), b] as const))(
    `batch %i${PART}: %s`,
    async (_index, _names, batch) => {
      const { code, stderr, results } = await runBatch(batch);
      expect(stderr).not.toMatch(/internal error/);
      // A fault of a SHOULD rule is warned, never failed: a batch of only those stays conformant.
      if (batch.faults.every((f) => f.expectedLevel === 'SHOULD')) {
        expect(results.results.filter((r) => r.level === 'MUST' && r.status === 'fail')).toEqual([]);
        expect(code).toBe(0);
        return;
      }
      expect(results.verdict).toBe('not-conformant');
      expect(code).toBe(1);
    },
    RUN_TIMEOUT_MS + 20_000,
  );
});

describe('every named fault is caught', () => {
  // Sequential and after the batches: each normally reads a run that has already finished.
  test.each(TODAY.items.flatMap((b) => b.faults).map((f) => [f.name, f] as const))(
    `%s${PART}`,
    async (_name, fault) => {
      const batch = batchOf.get(fault.name)!;
      const { results } = await runBatch(batch);
      // A fault of a SHOULD rule is caught by a warning of its check at SHOULD.
      const level = fault.expectedLevel ?? 'MUST';
      const caught = creditsOf(results, fault);
      // Other faults of the batch fail other operations; only this fault's are worth showing. Suite
      // errors are shown wherever they are, since a crashed step may be named after its flow.
      const own = results.results
        .filter((r) => (r.status === 'fail' || r.status === 'warn') && fault.operations.includes(r.operation))
        .map((r) => `${r.operation}/${r.check}`);
      const errors = results.results
        .filter((r) => r.status === 'error')
        .map((r) => `${r.operation}/${r.check}: ${r.message}`);
      expect(
        caught.length,
        `${fault.name} (batch ${batch.index}): expected a ${level} ${level === 'MUST' ? 'failure' : 'warning'} of ${fault.expectedCheck} on ${fault.operations.join(', ')}; failures seen on its operations: ${own.join(', ') || 'none'}${errors.length ? `; errors in the run: ${errors.join('; ')}` : ''}`,
      ).toBeGreaterThan(0);
      // A fault written to prove rows (server/faults/rows/) is caught by failures citing each of them.
      const cited = new Set(caught.flatMap((r) => r.requirements));
      const uncited = (fault.rows ?? []).filter((row) => !cited.has(row));
      expect(
        uncited,
        `${fault.name}: caught by ${fault.expectedCheck}, but no such failure cites ${uncited.join(', ')}`,
      ).toEqual([]);
    },
    RUN_TIMEOUT_MS + 20_000,
  );
});
