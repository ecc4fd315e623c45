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
import { operation, operations } from '../../spec/operations.ts';
import { CROSS_SUITE_CALLS } from '../../spec/suiteCoupling.ts';

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

/**
 * The coupled group of every suite: suites are joined when one calls another's operation
 * (sign-on observes revoke through accounts' introspect), as declared in spec/suiteCoupling.ts;
 * a call the declaration does not allow fails the suite's test at run time, so the declaration
 * cannot silently fall behind. The group's name is its member suites, sorted and joined by `+`.
 */
export function suiteGroups(): Map<string, string> {
  const parent = new Map<string, string>();
  const find = (s: string): string => {
    let r = s;
    for (let p = parent.get(r); p !== undefined && p !== r; p = parent.get(r)) r = p;
    parent.set(s, r);
    return r;
  };
  const union = (a: string, b: string): void => {
    const ra = find(a);
    const rb = find(b);
    // The smaller name is the root.
    if (ra < rb) parent.set(rb, ra);
    else if (rb < ra) parent.set(ra, rb);
  };
  for (const o of operations) parent.set(o.suite, find(o.suite));
  for (const [suite, ids] of Object.entries(CROSS_SUITE_CALLS)) for (const id of ids) union(suite, operation(id).suite);

  const members = new Map<string, string[]>();
  for (const s of parent.keys()) members.set(find(s), [...(members.get(find(s)) ?? []), s]);
  const groups = new Map<string, string>();
  for (const list of members.values()) {
    const name = [...list].sort().join('+');
    for (const s of list) groups.set(s, name);
  }
  return groups;
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
