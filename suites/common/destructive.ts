/**
 * The safe default (issue 9 item 6): without --allow-destructive, every selected operation of a
 * destructive flow gets a `destructive-step` result `omit` ("needs --allow-destructive", plus what
 * the flow would do), citing the testable MUST requirements of that operation, so that the
 * coverage share shows them as left out by the user's choice (a requirement judged elsewhere in
 * the run still counts as judged).
 */
import type { OperationId } from '../../spec/operations.ts';
import { DESTRUCTIVE_STEP } from '../../core/decidedOutcomes.ts';
import { on, runContext } from '../../core/suite.ts';
import { loadRequirements } from '../../spec/requirements.ts';

let mustByOperation: Map<string, string[]> | undefined;

/** The testable MUST requirement ids of an operation (spec/requirements.csv). */
export function mustRequirementsOf(operationId: OperationId): string[] {
  if (!mustByOperation) {
    mustByOperation = new Map();
    for (const r of loadRequirements('server')) {
      if (r.level !== 'MUST' || r.notTestedReason !== '') continue;
      for (const op of r.operations) mustByOperation.set(op, [...(mustByOperation.get(op) ?? []), r.id]);
    }
  }
  return mustByOperation.get(operationId) ?? [];
}

/**
 * True (and one `omit` per selected operation of `operations`) when destructive steps are not
 * allowed; false when they are. `what` says what the flow would do.
 */
export function omitUnlessDestructive(
  operations: readonly OperationId[],
  what: string,
  extraRequirements: Readonly<Record<string, readonly string[]>> = {},
): boolean {
  const ctx = runContext();
  if (ctx.allowDestructive) return false;
  for (const id of operations) {
    if (!ctx.selected.includes(id)) continue;
    const requirements = [...new Set([...mustRequirementsOf(id), ...(extraRequirements[id] ?? [])])];
    on(id)
      .must(...requirements)
      .decided(DESTRUCTIVE_STEP, 'omit', `needs --allow-destructive: ${what}`);
  }
  return true;
}

/**
 * Without --allow-destructive, one `omit` on `id` citing only `rows`: the rows a destructive flow
 * judges on an operation that changes nothing itself (the batch cycle's Get rows, D1-3-06), each a
 * row that lists `id`. Nothing when destructive steps are allowed, `id` is not selected or no row
 * is given.
 */
export function omitRowsUnlessDestructive(id: OperationId, rows: readonly string[], what: string): void {
  const ctx = runContext();
  if (ctx.allowDestructive || !ctx.selected.includes(id) || rows.length === 0) return;
  on(id)
    .must(...rows)
    .decided(DESTRUCTIVE_STEP, 'omit', `needs --allow-destructive: ${what}`);
}
