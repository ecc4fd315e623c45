/**
 * Groups sandbox faults into batches that one sandbox and one `conformance run` can test at once
 * without one fault hiding or impersonating another (test/faults.test.ts).
 *
 * Soundness rests on two facts. The sandbox consults a fault only for the operations its catalogue
 * entry names (ActiveFaults.on), so a fault changes no other operation's answers. A suite's
 * steps (set-up, flows such as the patient lifecycle, observations such as revoke seen through
 * introspect) call operations of that suite and of the suites it is coupled to below. So when two
 * faults touch disjoint sets of coupled suite groups, every step that judges one fault's
 * operations sees only that fault, exactly as in a run of its own.
 */
import { operation } from '../../spec/operations.ts';
import { suiteGroups } from '../../spec/suiteCoupling.ts';

export { suiteGroups };

export interface BatchableFault {
  name: string;
  operations: readonly string[];
}

export interface FaultBatch<F extends BatchableFault> {
  /** 1-based, for test names. */
  index: number;
  faults: F[];
  /** Union of the faults' operations, in first-seen order: the batch's `--only`. */
  operations: string[];
  /** The coupled suite groups the batch's faults touch (pairwise disjoint between its faults). */
  groups: Set<string>;
}

/** The coupled suite groups a fault's operations belong to. */
export function groupsOf(fault: BatchableFault, groups: ReadonlyMap<string, string>): Set<string> {
  return new Set(
    fault.operations.map((id) => {
      const suite = operation(id).suite;
      const g = groups.get(suite);
      if (g === undefined) throw new Error(`suite ${suite} of ${id} has no group`);
      return g;
    }),
  );
}

/**
 * First-fit decreasing: faults touching more groups are placed first (they are the hardest to
 * fit), ties in catalogue order; each goes into the first batch it shares no group with.
 * Deterministic for a given catalogue and suite sources.
 */
export function batchFaults<F extends BatchableFault>(
  faults: readonly F[],
  groups: ReadonlyMap<string, string> = suiteGroups(),
): FaultBatch<F>[] {
  const withGroups = faults.map((f, order) => ({ f, order, g: groupsOf(f, groups) }));
  withGroups.sort((a, b) => b.g.size - a.g.size || a.order - b.order);
  const batches: FaultBatch<F>[] = [];
  for (const { f, g } of withGroups) {
    let batch = batches.find((b) => [...g].every((x) => !b.groups.has(x)));
    if (!batch) {
      batch = { index: batches.length + 1, faults: [], operations: [], groups: new Set() };
      batches.push(batch);
    }
    batch.faults.push(f);
    for (const x of g) batch.groups.add(x);
    for (const id of f.operations) if (!batch.operations.includes(id)) batch.operations.push(id);
  }
  return batches;
}
