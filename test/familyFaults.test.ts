/**
 * Self-test of the behavioural fault families (server/faults/families.ts; issue 30, item 1), kept
 * cheap: the whole table of them is run by scripts/power.ts. Here one run of the suite, restricted
 * with --only to the sample's operations (one per coupled suite group, one per document), checks
 * that each sampled family fault is caught by a MUST failure of its operation on an answer it
 * marked, and that those failures prove the rows the family claims (scripts/power.ts
 * rowsProvedByFamily: cited, of the operation, and of the kind the family breaks).
 */
import { describe, expect, test } from 'vitest';
import type { RunResults } from '../core/results.ts';
import { catchingResults, rowsProvedByFamily, type SlimResult } from '../scripts/power.ts';
import { DERIVED_FAULT_HEADER } from '../server/faults/derived.ts';
import { type FamilyFaultInfo, familyFaultInfo } from '../server/faults/families.ts';
import { operation } from '../spec/operations.ts';
import { loadRequirements } from '../spec/requirements.ts';
import { suiteGroups } from '../spec/suiteCoupling.ts';
import { sharedRunPool } from './support/sharedRunPool.ts';

const SEED = 20261121;
const RUN_TIMEOUT_MS = 240_000;

/** Each sampled family fault with the rows it must prove at the seed. */
const SAMPLE: readonly { fault: string; rows: readonly string[] }[] = [
  // D1 4.8: success is HTTP 200 with no payload; a 500 with an error body breaks both.
  { fault: 'family:success-as-5xx:ack-remittance', rows: ['D1-4.8-02', 'D1-3-01'] },
  // D2 2.1, 2.2: pages of one query do not overlap.
  { fault: 'family:page-overlap:get-code-set', rows: ['D2-2.1-10', 'D2-2.2-03'] },
  // D3 4.1: list features answers HTTP 200 with a role object, with or without SU-SiteId.
  { fault: 'family:success-as-5xx:list-features', rows: ['D3-4.1-08', 'D3-4.1-09'] },
];

const faults = SAMPLE.map(({ fault }) => {
  const f = familyFaultInfo(fault);
  if (!f) throw new Error(`No family fault ${fault}`);
  return f;
});
const testable = new Map(
  loadRequirements('server')
    .filter((r) => r.level === 'MUST' && r.notTestedReason === '')
    .map((r) => [r.id, r] as const),
);

const pool = sharedRunPool(1);
let run: ReturnType<typeof pool.run> | undefined;
const runSample = () => {
  run ??= pool.run({
    faults: faults.map((f) => f.name),
    only: faults.map((f) => f.operations[0]).join(','),
    seed: SEED,
    runs: 1,
  });
  return run;
};

/** The run's failures, with the faults that marked each judged answer (null: no answer named). */
function failures(results: RunResults): SlimResult[] {
  return results.results
    .filter((r) => r.status === 'fail')
    .map((r) => {
      const exchange = r.exchange === undefined ? undefined : results.exchanges[r.exchange];
      const header = exchange?.response?.headers[DERIVED_FAULT_HEADER];
      return { ...r, marks: exchange === undefined ? null : header ? header.split(/,\s*/) : [] };
    });
}

describe('family faults are caught by failures proving the rows their family breaks', () => {
  test('the sample: one fault per coupled suite group and per document', () => {
    const groups = suiteGroups();
    const groupOf = (f: FamilyFaultInfo) => groups.get(operation(f.operations[0]).suite);
    expect(new Set(faults.map(groupOf)).size).toBe(faults.length);
    expect(new Set(faults.map((f) => operation(f.operations[0]).document))).toEqual(new Set(['D1', 'D2', 'D3']));
    for (const { rows } of SAMPLE) for (const id of rows) expect(testable.has(id), id).toBe(true);
  });

  test.each(SAMPLE.map((s, i) => [s.fault, faults[i], s.rows] as const))(
    `%s (seed ${SEED})`,
    async (_name, fault, rows) => {
      const { results, stderr } = await runSample();
      expect(stderr).not.toMatch(/internal error/);
      const all = failures(results);
      const caught = catchingResults(fault, all);
      const seen = all.filter((r) => fault.operations.includes(r.operation)).map((r) => r.check);
      expect(
        caught.length,
        `${fault.name}: no MUST failure on an answer it changed; failures on its operation: ${seen.join(', ') || 'none'}`,
      ).toBeGreaterThan(0);
      const proved = rowsProvedByFamily(fault, caught, testable);
      expect(
        [...proved].sort(),
        `${fault.name}: caught by ${caught.map((r) => `${r.check} (${r.requirements.join(' ')})`).join('; ')}`,
      ).toEqual(expect.arrayContaining([...rows]));
    },
    RUN_TIMEOUT_MS,
  );

  test('a failure on an answer another fault marked, or citing a row of another kind, proves nothing', () => {
    const fault = faults[0];
    const failure = (over: Partial<SlimResult>): SlimResult => ({
      check: 'success-status',
      operation: 'ack-remittance',
      level: 'MUST',
      status: 'fail',
      requirements: ['D1-4.8-02'],
      marks: [fault.name],
      message: 'Expected HTTP 200, received HTTP 500',
      ...over,
    });
    expect(catchingResults(fault, [failure({})])).toHaveLength(1);
    expect(catchingResults(fault, [failure({ marks: ['family:refusal-as-5xx:ack-remittance'] })])).toHaveLength(0);
    expect(catchingResults(fault, [failure({ operation: 'get-remittance-details' })])).toHaveLength(0);
    expect([...rowsProvedByFamily(fault, [failure({})], testable)]).toEqual(['D1-4.8-02']);
    // D1-1-06 (JSON bodies) and D1-4.8-01 (the address) state no success status or answer.
    expect([...rowsProvedByFamily(fault, [failure({ requirements: ['D1-1-06', 'D1-4.8-01'] })], testable)]).toEqual([]);
  });
});
