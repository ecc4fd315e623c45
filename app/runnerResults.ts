/**
 * The one place that makes the results the runner decides (core/decidedOutcomes.ts): an operation
 * out of scope, an operation addressed (or not) by its discovery key, an operation the suites never
 * judged, a suite that crashed. Ids and summaries come from the table, never spelt here.
 */
import { loadRequirements } from '../spec/requirements.ts';
import type { Operation } from '../spec/types.ts';
import type { DecidedOutcome } from '../core/decidedOutcomes.ts';
import { DISCOVERY_KEY_PRESENT, OPERATION_IN_SCOPE, SUITE_RAN } from '../core/decidedOutcomes.ts';
import type { WorkerEvent, WorkerResult } from '../core/events.ts';

/** A runner-decided result. */
export function runnerResult(
  outcome: DecidedOutcome,
  fields: Omit<WorkerResult, 'check' | 'summary' | 'requirements' | 'level'> &
    Partial<Pick<WorkerResult, 'requirements' | 'level'>>,
): WorkerResult {
  return { check: outcome.id, summary: outcome.summary, requirements: [], level: 'MUST', ...fields };
}

/** An operation the config leaves out (reservedOperations: omit, DEC-D1-33). */
export const omittedByConfig = (op: Operation): WorkerResult =>
  runnerResult(OPERATION_IN_SCOPE, {
    operation: op.id,
    level: 'INFO',
    status: 'omit',
    message: "Reserved for the operator's products and omitted by the config (reservedOperations: omit, DEC-D1-33)",
  });

/**
 * Testable requirements that the discovery of an operation's address judges: the ones stating
 * that the operation is addressed by its key, or that addresses come from a discovery document.
 */
export function addressRequirementsOf(op: Operation): string[] {
  return loadRequirements('server')
    .filter((r) => r.notTestedReason === '' && r.operations.includes(op.id))
    .filter((r) => r.text.includes(`\`${op.discoveryKey}\``) || /discovery document/i.test(r.text))
    .map((r) => r.id);
}

/** The discovery document gives (or does not give) the operation's address by its key. */
export const addressedByKey = (
  op: Operation,
  address: { url: string } | { problem: string },
  exchange: string | undefined,
): WorkerResult =>
  runnerResult(DISCOVERY_KEY_PRESENT, {
    operation: op.id,
    requirements: addressRequirementsOf(op),
    status: 'url' in address ? 'pass' : 'fail',
    message: 'url' in address ? `${op.discoveryKey} = ${address.url}` : address.problem,
    exchange,
  });

/**
 * An addressed, selected operation on which the suites recorded nothing was not judged at all
 * (its tests were filtered out or never collected): a MUST error, so the run cannot look
 * conformant on discovery alone. Omitted destructive steps are results, so they do not count.
 */
export function silentOperations(
  active: readonly Operation[],
  addresses: Record<string, string>,
  events: readonly WorkerEvent[],
  interrupted = false,
): WorkerResult[] {
  const judged = new Set(events.flatMap((e) => (e.type === 'check-evaluated' ? [e.result.operation] : [])));
  return active
    .filter((op) => addresses[op.id] !== undefined && !judged.has(op.id))
    .map((op) =>
      runnerResult(SUITE_RAN, {
        operation: op.id,
        status: 'error',
        message: interrupted
          ? 'Not judged: the run was interrupted (Ctrl-C) before its suite recorded a result'
          : 'Expected the suites to record results for this operation, received none (were its tests filtered out?)',
      }),
    );
}

/** A suite step or file that stopped for a reason other than a recorded MUST failure. */
export const suiteCrashed = (operation: string, message: string, test?: string): WorkerResult =>
  runnerResult(SUITE_RAN, { operation, status: 'error', message, ...(test ? { test } : {}) });
