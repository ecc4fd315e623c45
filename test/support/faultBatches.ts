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
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { operation, operations } from '../../spec/operations.ts';
import { ROOT } from './cli.ts';

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

const QUOTED = /['"`]([a-z0-9]+(?:-[a-z0-9]+)*)['"`]/g;

/** Operation ids written as string literals in a source file (a superset only couples more). */
function operationIdsNamedIn(source: string): Set<string> {
  const known = new Set(operations.map((o) => o.id));
  const found = new Set<string>();
  for (const m of source.matchAll(QUOTED)) if (known.has(m[1])) found.add(m[1]);
  return found;
}

/**
 * The coupled group of every suite: suites are joined when one's source names another's
 * operation (sign-on observes revoke through accounts' introspect), or when a shared helper in
 * suites/common names an operation (then with every suite using suites/common). Derived from
 * the sources, not listed by hand, so a new cross-suite step cannot silently make batching
 * unsound. The group's name is its member suites, sorted and joined by `+`.
 */
export function suiteGroups(root: string = ROOT): Map<string, string> {
  const parent = new Map<string, string>();
  const find = (s: string): string => {
    let r = s;
    while (parent.get(r) !== undefined && parent.get(r) !== r) r = parent.get(r)!;
    parent.set(s, r);
    return r;
  };
  const union = (a: string, b: string): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  };
  for (const o of operations) parent.set(o.suite, find(o.suite));

  const suitesDir = join(root, 'suites');
  const suiteFiles = readdirSync(suitesDir).filter((f) => f.endsWith('.suite.ts'));
  const sources = new Map(suiteFiles.map((f) => [basename(f, '.suite.ts'), readFileSync(join(suitesDir, f), 'utf8')]));
  for (const [suite, source] of sources) {
    parent.set(suite, find(suite));
    for (const id of operationIdsNamedIn(source)) union(suite, operation(id).suite);
  }
  const commonDir = join(suitesDir, 'common');
  for (const f of readdirSync(commonDir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
    const named = operationIdsNamedIn(readFileSync(join(commonDir, f), 'utf8'));
    if (named.size === 0) continue;
    // Helpers import one another, so any suite using suites/common may reach this one: coupling
    // them all is coarser than tracing imports, and still sound.
    const users = [...sources].filter(([, src]) => src.includes('./common/')).map(([s]) => s);
    for (const id of named) for (const s of users) union(s, operation(id).suite);
  }

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
