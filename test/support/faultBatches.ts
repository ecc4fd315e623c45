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
 *
 * A fault caught by the runner's `discovery-key-present` (a discovery document without a key, or
 * not published: server/faults/rows/discovery.ts) is judged before any suite runs, on its own
 * operations only; it may still change what the suites of its group see (a step that sets up
 * through the operation it hides). So such faults share a batch with each other whenever their
 * operations are disjoint, and with other faults only as any fault does, in disjoint groups.
 */
import { operation } from '../../spec/operations.ts';
import { suiteGroups } from '../../spec/suiteCoupling.ts';

export { suiteGroups };

export interface BatchableFault {
  name: string;
  operations: readonly string[];
  /** The check that catches the fault: `discovery-key-present` and `address-has-documented-path` are the runner's. */
  expectedCheck?: string;
}

/** The runner's results of discovery: a key present, and its address's documented path. */
const CAUGHT_AT_DISCOVERY: readonly string[] = ['discovery-key-present', 'address-has-documented-path'];

/** The fault is caught by the runner's discovery results, before any suite runs. */
export const caughtAtDiscovery = (fault: BatchableFault): boolean =>
  fault.expectedCheck !== undefined && CAUGHT_AT_DISCOVERY.includes(fault.expectedCheck);

export interface FaultBatch<F extends BatchableFault> {
  /** 1-based, for test names. */
  index: number;
  faults: F[];
  /** Union of the faults' operations, in first-seen order: the batch's `--only`. */
  operations: string[];
  /**
   * The coupled suite groups the batch's faults touch (pairwise disjoint between its faults, but
   * for faults caught at discovery, which may share groups with each other).
   */
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
  // Per batch, the groups its suite-judged faults hold (a discovery fault may join the others).
  const bySuites = new Map<FaultBatch<F>, Set<string>>();
  const fits = (b: FaultBatch<F>, f: F, g: Set<string>) =>
    caughtAtDiscovery(f)
      ? [...g].every((x) => !bySuites.get(b)?.has(x)) && f.operations.every((id) => !b.operations.includes(id))
      : [...g].every((x) => !b.groups.has(x));
  for (const { f, g } of withGroups) {
    let batch = batches.find((b) => fits(b, f, g));
    if (!batch) {
      batch = { index: batches.length + 1, faults: [], operations: [], groups: new Set() };
      batches.push(batch);
      bySuites.set(batch, new Set());
    }
    batch.faults.push(f);
    for (const x of g) {
      batch.groups.add(x);
      if (!caughtAtDiscovery(f)) bySuites.get(batch)?.add(x);
    }
    for (const id of f.operations) if (!batch.operations.includes(id)) batch.operations.push(id);
  }
  return batches;
}
