/**
 * Operations a suite calls beyond its own (an operation's suite is its `suite` in the operation
 * table): a step that sets up or observes through another suite's operation couples the two, so
 * they must never run against the same target in two places at once (fault batches in the
 * self-test, shards). Declared here, checked at run time: a suite calling an undeclared operation
 * of another suite is a suite bug and fails its test (core/request.ts).
 */
export const CROSS_SUITE_CALLS: Readonly<Record<string, readonly string[]>> = {
  /** Revoke and logout are observed through introspect (accounts). */
  'sign-on': ['introspect'],
};

/** True when a step of `suite` may call the operation `id` of `ownerSuite`. */
export function suiteMayCall(suite: string, id: string, ownerSuite: string): boolean {
  return suite === ownerSuite || (CROSS_SUITE_CALLS[suite] ?? []).includes(id);
}
