/**
 * Self-test of the derived shape faults (server/faults/derived.ts; issue 22, item 9), kept cheap:
 * the whole table of them is run by scripts/power.ts (tens of minutes), which writes what each
 * proves to spec/evidence/power.json. Here one run of the suite, restricted with --only, checks a
 * sample of those claims still hold: the fault dropping a code-set item's `display` (D2-2.2-04,
 * the row that started the issue) and a few proving faults of other coupled suite groups, drawn
 * by the date so the sample rotates from day to day. Each must be caught by a MUST failure on an
 * answer it changed, and that failure must prove a row (scripts/power.ts rowsProvedByDerived).
 */
import { afterAll, describe, expect, test } from 'vitest';
import { readPowerEvidence } from '../app/power.ts';
import type { RunResults } from '../core/results.ts';
import { catchingResults, caughtByOf, rowsProvedByDerived, type SlimResult } from '../scripts/power.ts';
import { FAULTS } from '../server/faults/catalog.ts';
import { DERIVED_FAULT_HEADER, type DerivedFaultInfo, derivedFaultInfo } from '../server/faults/derived.ts';
import { operation } from '../spec/operations.ts';
import { loadRequirements } from '../spec/requirements.ts';
import { suiteGroups } from '../spec/suiteCoupling.ts';
import { type PoolRun, RunPool } from './support/runPool.ts';
import { dateSeed } from './support/seeds.ts';

const FIXED = 'shape:get-code-set:/expansion/contains/*/display:missing';
/** Rotating faults besides the fixed one, each of another coupled suite group. */
const ROTATING = 3;
const RUN_TIMEOUT_MS = 240_000;

const evidence = readPowerEvidence();
const groups = suiteGroups();
const groupOf = (f: DerivedFaultInfo) => groups.get(operation(f.operations[0]).suite) as string;

/** A small deterministic generator (mulberry32): the same sample all day, another the next. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The fixed fault and, from other groups, derived faults power.json says prove a row. */
function sample(seed: number): DerivedFaultInfo[] {
  const fixed = derivedFaultInfo(FIXED) as DerivedFaultInfo;
  const proving = [...new Set(Object.values(evidence.rows).flatMap((r) => (r.proven ? r.faults : [])))]
    .map((name) => derivedFaultInfo(name))
    .filter((f): f is DerivedFaultInfo => f !== undefined)
    .sort((a, b) => a.name.localeCompare(b.name));
  const next = random(seed);
  const chosen = [fixed];
  for (let tries = 0; chosen.length < 1 + ROTATING && tries < 200 && proving.length > 0; tries++) {
    const f = proving[Math.floor(next() * proving.length)];
    if (!chosen.some((c) => groupOf(c) === groupOf(f))) chosen.push(f);
  }
  return chosen;
}

/** The day's sample; CONFORMANCE_SHAPE_SAMPLE_SEED replays another day's (the seed is in the test names). */
const SEED = /^\d+$/.test(process.env.CONFORMANCE_SHAPE_SAMPLE_SEED ?? '')
  ? Number(process.env.CONFORMANCE_SHAPE_SAMPLE_SEED)
  : dateSeed();
const SAMPLE = sample(SEED);
const testable = new Map(
  loadRequirements('server')
    .filter((r) => r.level === 'MUST' && r.notTestedReason === '')
    .map((r) => [r.id, r] as const),
);

const pool = new RunPool(1);
afterAll(() => pool.close());
let run: Promise<PoolRun> | undefined;
const runSample = () => {
  run ??= pool.run({
    faults: SAMPLE.map((f) => f.name),
    only: SAMPLE.map((f) => f.operations[0]).join(','),
    seed: evidence.seed,
    runs: evidence.runs,
  });
  return run;
};

/** The run's MUST failures, with the derived faults that marked each judged answer. */
function failures(results: RunResults): SlimResult[] {
  return results.results
    .filter((r) => r.status === 'fail')
    .map((r) => {
      const exchange = r.exchange === undefined ? undefined : results.exchanges[r.exchange];
      const header = exchange?.response?.headers[DERIVED_FAULT_HEADER];
      return {
        ...r,
        marks: exchange === undefined ? null : header ? header.split(/,\s*/) : [],
      };
    });
}

describe('derived shape faults are caught by a failure that proves a row', () => {
  test('the sample: the fixed fault and faults of other coupled groups, none a hand-written one', () => {
    expect(SAMPLE[0].name).toBe(FIXED);
    expect(new Set(SAMPLE.map(groupOf)).size).toBe(SAMPLE.length);
    const hand = new Set(FAULTS.map((f) => f.name));
    expect(SAMPLE.filter((f) => hand.has(f.name))).toEqual([]);
    // A different day may draw a different sample; the same day, the same one.
    expect(sample(SEED).map((f) => f.name)).toEqual(SAMPLE.map((f) => f.name));
  });

  test.each(SAMPLE.map((f) => [f.name, f] as const))(
    `%s (sample of ${SEED})`,
    async (_name, fault) => {
      const { results, stderr } = await runSample();
      expect(stderr).not.toMatch(/internal error/);
      const all = failures(results);
      const caught = catchingResults(fault, all);
      const seen = all.filter((r) => fault.operations.includes(r.operation)).map((r) => `${r.check}`);
      expect(
        caught.length,
        `${fault.name}: no MUST failure on an answer it changed; failures on its operation: ${seen.join(', ') || 'none'}`,
      ).toBeGreaterThan(0);
      const rows = rowsProvedByDerived(fault, caught, testable);
      expect(
        [...rows].length,
        `${fault.name}: caught by ${caught.map((r) => `${r.check} (${r.requirements.join(' ')})`).join('; ')}, but no cited row is about it`,
      ).toBeGreaterThan(0);
      if (fault.name === FIXED) expect([...rows]).toContain('D2-2.2-04');
    },
    RUN_TIMEOUT_MS,
  );
});

describe('attribution (scripts/power.ts)', () => {
  const display = derivedFaultInfo(FIXED) as DerivedFaultInfo;
  const total = derivedFaultInfo('shape:get-code-set:/expansion/total:missing') as DerivedFaultInfo;
  const failure = (over: Partial<SlimResult>): SlimResult => ({
    check: 'matches-schema',
    operation: 'get-code-set',
    level: 'MUST',
    status: 'fail',
    requirements: ['D2-2.2-01', 'D2-2.2-02', 'D2-2.2-03', 'D2-2.2-04'],
    marks: [display.name],
    message: 'Expected a body valid against valueset.schema.json, received ...',
    ...over,
  });

  test('a fault is caught by MUST failures of its operation on answers it marked', () => {
    expect(catchingResults(display, [failure({})])).toHaveLength(1);
    expect(catchingResults(display, [failure({ marks: [total.name] })])).toHaveLength(0);
    expect(catchingResults(display, [failure({ operation: 'lookup-locations' })])).toHaveLength(0);
    expect(catchingResults(display, [failure({ level: 'SHOULD' })])).toHaveLength(0);
    // A result that names no exchange (an aggregate) is read by its operation alone.
    expect(catchingResults(display, [failure({ marks: null })])).toHaveLength(1);
  });

  test('a fault caught without proving a row names the checks that caught it', () => {
    const catching = new Map([
      [total.name, [failure({ marks: [total.name] }), failure({ check: 'entries-match-filter' })]],
    ]);
    expect(caughtByOf([total, display], catching)).toEqual([
      'entries-match-filter on get-code-set citing D2-2.2-01 D2-2.2-02 D2-2.2-03 D2-2.2-04',
      'matches-schema on get-code-set citing D2-2.2-01 D2-2.2-02 D2-2.2-03 D2-2.2-04',
    ]);
  });

  test('a schema failure citing every shape row proves only the rows about the member', () => {
    expect([...rowsProvedByDerived(display, [failure({})], testable)]).toEqual(['D2-2.2-04']);
    expect([...rowsProvedByDerived(total, [failure({ marks: [total.name] })], testable)].sort()).toEqual([
      'D2-2.2-02',
      'D2-2.2-03',
    ]);
    // A shape check citing one row alone proves it, whatever the member.
    expect([...rowsProvedByDerived(total, [failure({ requirements: ['D2-4-05'] })], testable)]).toEqual(['D2-4-05']);
    // A row of another operation proves nothing, whatever the check cites (D1-1-06 is Document 1's JSON rule).
    expect([...rowsProvedByDerived(total, [failure({ requirements: ['D1-1-06'] })], testable)]).toEqual([]);
    // Another check proves only rows about the member.
    expect([
      ...rowsProvedByDerived(total, [failure({ check: 'entries-match-filter', requirements: ['D2-4-05'] })], testable),
    ]).toEqual([]);
  });
});
