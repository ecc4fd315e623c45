/**
 * Self-test, part 3 (fairness, the mirror of the fault self-test): every named sandbox variant is a
 * choice the documents allow, so the sandbox under each variant alone, and under all of them
 * together, must stay conformant with zero MUST failures or errors; and every variant must really
 * change what the sandbox answers (a variant that changes nothing proves nothing).
 *
 * Variants alone are run in batches like the faults (test/support/faultBatches.ts): variants whose
 * operations lie in disjoint groups of coupled suites share one sandbox and one run, so every step
 * that judges a variant's operations sees only that variant, exactly as in a run of its own.
 * Variants that concern every operation (serialisation, protocol) touch every group and so run
 * alone, except those of one composing group (COMPOSING below), which change independent parts
 * of every answer and run together.
 */
import { describe, expect, test } from 'vitest';
import { VARIANTS } from '../server/variants/catalog.ts';
import { loadDecisions } from '../spec/decisions.ts';
import { loadRequirements } from '../spec/requirements.ts';
import { operations } from '../spec/operations.ts';
import type { FaultBatch } from './support/faultBatches.ts';
import { type PoolRun, runWeight } from './support/runPool.ts';
import {
  type Batchable,
  COMPOSING,
  falseAlarms,
  replayCommand,
  variantBatches,
  variantBatchOnly,
} from './support/selfTestPlan.ts';
import { selfTestSeeds } from './support/seeds.ts';
import { sharedRunPool } from './support/sharedRunPool.ts';
import { dayPart, QUICK_PARTS, TIER } from './support/tiers.ts';

/**
 * Fairness is a property over seeds: all variants together at the fixed, the date's and the random
 * seed, and every variant alone at the date's seed (another every day, the same all day), so that
 * `npm test` stays within its budget; `npm run soak` runs every batch at many seeds
 * (test/support/seeds.ts prints them; CONFORMANCE_RANDOM_SEED replays the random one).
 */
const FIXED = Number(process.env.CONFORMANCE_VARIANTS_SEED ?? '20261123');
const SEEDS = selfTestSeeds(FIXED);
const ALONE_SEEDS = SEEDS.filter((s) => s.kind === 'date');
const RUNS = '2';
/**
 * All variants together at the random seed judge as many cases as a default run (a rare draw is
 * where a false alarm hides); at the fixed and the date's seed, as many as the batches.
 */
const ALL_RUNS = { fixed: Number(RUNS), date: Number(RUNS), random: 25 } as const;
const RUN_TIMEOUT_MS = 420_000;

const BATCHES = variantBatches();
/**
 * `npm test` (test/support/tiers.ts) runs the day's part of the batches alone and all variants
 * together at the fixed seed; `npm run test:full` (CI) every batch, and all together at every seed.
 */
const TODAY = dayPart(BATCHES, (b) => variantBatchOnly(b)?.length ?? operations.length, QUICK_PARTS.variants);
const PART = TODAY.of === 1 ? '' : ` (npm test: part ${TODAY.part + 1} of ${TODAY.of})`;
const ALL_SEEDS = TIER === 'quick' ? SEEDS.filter((s) => s.kind === 'fixed') : SEEDS;

type Run = PoolRun;

// Runs go to the long-lived run processes every self-test shares (test/support/runPool.ts), each
// with its own sandbox per batch over real HTTP; the command line itself is tested by
// test/cli*.test.ts.
const pool = sharedRunPool();

function runWith(
  variants: readonly string[],
  only: readonly string[] | undefined,
  seed: number,
  runs = Number(RUNS),
): Promise<Run> {
  // A run restricted with --only judges only what its operations' steps reach (some requirements
  // are judged through coupled operations), so its coverage share proves nothing here: fairness is
  // no MUST failure. The run of every operation keeps the default minimum.
  const job = { variants: [...variants], seed, runs, ...(only ? { only: only.join(','), minCoverage: 0 } : {}) };
  return pool.run(job, runWeight(job, operations.length));
}

function expectConformant(run: Run, label: string): void {
  expect(
    falseAlarms(run.results, run.code, run.stderr),
    `${label}: MUST failures, errors or results stricter than cited`,
  ).toEqual([]);
}

describe('the variant catalogue', () => {
  const decisions = new Set(loadDecisions().map((d) => d.id));
  const requirements = new Set(loadRequirements().map((r) => r.id));
  const ops = new Set(operations.map((o) => o.id));

  test('there are at least 25 variants of several kinds, each naming what allows it', () => {
    expect(VARIANTS.length).toBeGreaterThanOrEqual(25);
    expect(new Set(VARIANTS.map((v) => v.kind)).size).toBeGreaterThanOrEqual(6);
    for (const v of VARIANTS) {
      expect(v.allowedBy.length, v.name).toBeGreaterThan(0);
      expect(v.description.length, v.name).toBeGreaterThan(20);
    }
  });

  test('every decision and requirement a variant cites exists, and so does every operation it names', () => {
    const unknown = VARIANTS.flatMap((v) =>
      v.allowedBy
        .flatMap((a) => a.match(/\b(DEC-D\d-\d+|D\d-[\d.]+-\d+)\b/g) ?? [])
        .filter((id) => !(id.startsWith('DEC-') ? decisions.has(id) : requirements.has(id)))
        .map((id) => `${v.name}: ${id}`),
    );
    expect(unknown).toEqual([]);
    const badOps = VARIANTS.flatMap((v) =>
      v.operations === 'all' ? [] : v.operations.filter((o) => !ops.has(o)).map((o) => `${v.name}: ${o}`),
    );
    expect(badOps).toEqual([]);
  });

  test('the composing groups name known variants that concern every operation, each in one group', () => {
    for (const name of COMPOSING.flat()) {
      const v = VARIANTS.find((x) => x.name === name);
      expect(v, name).toBeDefined();
      expect(v?.operations, name).toBe('all');
    }
    expect(new Set(COMPOSING.flat()).size).toBe(COMPOSING.flat().length);
  });
});

// The runs of every operation first: the longest, they would otherwise end the file last.
describe('the sandbox under all variants together is conformant', () => {
  test.concurrent.each(ALL_SEEDS.map((s) => [s.kind, s.seed] as const))(
    'every operation, every variant on, at the %s seed %i',
    async (kind, seed) => {
      const all = VARIANTS.map((v) => v.name);
      const run = await runWith(all, undefined, seed, ALL_RUNS[kind]);
      expectConformant(run, `all variants (replay: ${replayCommand({ variants: ['all'] }, seed, ALL_RUNS[kind])})`);
      expect(run.results.operations.map((o) => o.id)).toEqual(operations.map((o) => o.id));
    },
    RUN_TIMEOUT_MS + 20_000,
  );
});

describe('the sandbox under each variant alone (or with the variants it composes with) is conformant', () => {
  const cases = TODAY.items.flatMap((b) =>
    ALONE_SEEDS.map((s) => [b.index, s.kind, s.seed, b.faults.map((v) => v.name).join(', '), b] as const),
  );
  test.concurrent.each(cases)(
    `batch %i${PART} at the %s seed %i: %s`,
    async (_index, _kind, seed, names, batch: FaultBatch<Batchable>) => {
      const variants = batch.faults.map((v) => v.name);
      const only = variantBatchOnly(batch);
      expectConformant(
        await runWith(variants, only, seed),
        `variants ${names} (replay: ${replayCommand({ variants }, seed, Number(RUNS), only)})`,
      );
    },
    RUN_TIMEOUT_MS + 20_000,
  );
});
