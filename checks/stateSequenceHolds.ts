import { fail, pass, type Check } from '../core/check.ts';

/** What a run of one state machine (generators/stateMachines.ts) found, as the check reads it. */
export interface StateSequenceRun {
  /** The machine: `batch-cycle`, `patient-lifecycle` or `payor-maintenance`. */
  machine: string;
  ok: boolean;
  /** Sequences generated (the run's `--runs`), or 1 for a replay. */
  sequences: number;
  /** The shrunk failing sequence, one command per entry, in the order they ran. */
  counterexample?: readonly string[];
  /** Why its last command failed (`Expected X, received Y`), then the requests of the sequence. */
  failure?: string;
}

/**
 * Generated sequences of an operation family keep the state the documents define (issue 14,
 * item 4): an acknowledged batch is gone and InvalidId afterwards (Document 1, 3 and 4.8), a
 * deleted patient is 404 and an updated one reads back updated (Document 3, 4.4), listing payors
 * holds `slf` and `na` once and a deleted payor is no longer listed (Document 3, 4.5). The
 * failure names the shortest failing sequence fast-check found; its seed and path replay it.
 */
export const stateSequenceHolds: Check<StateSequenceRun> = {
  id: 'state-sequence-holds',
  summary: 'Generated sequences of operations keep the documented state',
  run: (r) => {
    if (r.ok)
      return pass(`${r.sequences} generated ${r.machine} sequences kept the documented state`, {
        sequences: r.sequences,
      });
    const steps = r.counterexample ?? [];
    const why = (r.failure ?? 'unknown failure').split('\n')[0];
    const shortest =
      steps.length > 0
        ? `${steps.length} command${steps.length === 1 ? '' : 's'}: ${steps.join(' ; ')}`
        : 'no command, the set-up';
    return fail(
      `Expected every ${r.machine} sequence to keep the documented state, received the shortest failing sequence (${shortest}) where ${why}`,
      {
        counterexample: [...steps],
        failure: r.failure ?? '',
      },
    );
  },
};
