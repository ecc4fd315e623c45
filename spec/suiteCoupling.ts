/**
 * Operations a suite calls beyond its own (an operation's suite is its `suite` in the operation
 * table): a step that sets up or observes through another suite's operation couples the two, so
 * they must never run against the same target in two places at once (fault batches in the
 * self-test, shards). Declared here, checked at run time: a suite calling an undeclared operation
 * of another suite is a suite bug and fails its test (core/request.ts).
 */
import { operation, operations } from './operations.ts';

export const CROSS_SUITE_CALLS: Readonly<Record<string, readonly string[]>> = {
  /** Revoke and logout are observed through introspect (accounts). */
  'sign-on': ['introspect'],
};

/** True when a step of `suite` may call the operation `id` of `ownerSuite`. */
export function suiteMayCall(suite: string, id: string, ownerSuite: string): boolean {
  return suite === ownerSuite || (CROSS_SUITE_CALLS[suite] ?? []).includes(id);
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
