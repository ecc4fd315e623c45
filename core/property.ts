/**
 * Property-based verification (fast-check): generated requests are
 * sent silently; only the shrunk counterexample (on failure) or the last case (on success) is
 * recorded, with the seed and path that replay it (`--seed`, `--path`).
 */
import fc from 'fast-check';
import type { Level } from '../spec/types.ts';
import type { Check } from './check.ts';
import type { Exchange, RespondedExchange } from './exchange.ts';
import { PROPERTY } from './decidedOutcomes.ts';
import { type AnyCheck, evaluate, isExchange, record, verify } from './judgement.ts';
import { runContext } from './worker.ts';

/** One check applied to one subject inside a property case. */
export interface Judgement {
  subject: unknown;
  check: AnyCheck;
  exchange?: Exchange;
  level?: Level;
  requirements?: readonly string[];
}

export function judge(subject: Exchange, check: Check<RespondedExchange>, extra?: Partial<Judgement>): Judgement;
export function judge<S>(subject: S, check: Check<S>, extra?: Partial<Judgement>): Judgement;
export function judge(subject: unknown, check: AnyCheck, extra: Partial<Judgement> = {}): Judgement {
  return { subject, check, ...extra };
}

export interface PropertySpec<T> {
  operation: string;
  level: Level;
  requirements: readonly string[];
  decisions?: readonly string[];
  arbitrary: fc.Arbitrary<T>;
  /** Sends the generated request(s) and says what to judge. */
  exercise: (value: T) => Promise<Judgement[]>;
}

/** Whether the judgement's exchange was still refused for load when the retry budget was spent. */
const refusedForLoad = (j: Judgement): boolean =>
  (j.exchange ?? (isExchange(j.subject) ? j.subject : undefined))?.errorKind === 'load-refused';

const failing = (j: Judgement) => {
  const o = evaluate(j.subject as never, j.check, j.exchange).outcome;
  return o === 'fail' || o === 'error';
};

function recordAll<T>(
  spec: PropertySpec<T>,
  judgements: Judgement[],
  replay: { seed: number; path?: string; counterexample?: unknown },
  evidence?: Record<string, unknown>,
): void {
  for (const j of judgements) {
    verify(j.subject as never, j.check, {
      operation: spec.operation,
      level: j.level ?? spec.level,
      requirements: j.requirements ?? spec.requirements,
      exchange: j.exchange,
      decisions: spec.decisions,
      replay,
      evidence,
    });
  }
}

/** Runs the property with the run's seed and number of runs, and records its verdicts. */
export async function verifyProperty<T>(spec: PropertySpec<T>): Promise<void> {
  const ctx = runContext();
  // The passing case recorded as evidence: the last one in which every check could judge (an
  // empty page judges no order), else simply the last one.
  let last: { value: T; judgements: Judgement[] } | undefined;
  let informative: typeof last;
  const details = await fc.check(
    fc.asyncProperty(spec.arbitrary, async (value) => {
      const judgements = await spec.exercise(value);
      last = { value, judgements };
      const outcomes = judgements.map((j) => evaluate(j.subject as never, j.check, j.exchange).outcome);
      if (!outcomes.includes('skip')) informative = last;
      // A case the target refused for load (429, 503 with Retry-After, after the run's retry budget)
      // was not judged: it neither fails the property nor blames the target (DEC-R-05).
      return !judgements.some(
        (j, i) =>
          (j.level ?? spec.level) !== 'INFO' &&
          (outcomes[i] === 'fail' || (outcomes[i] === 'error' && !refusedForLoad(j))),
      );
    }),
    // A path with `#` replays a stateful sequence (suites/common/stateSequences.ts), not a property.
    { seed: ctx.seed, numRuns: ctx.runs, ...(ctx.path && !ctx.path.includes('#') ? { path: ctx.path } : {}) },
  );
  if (!details.failed) {
    const shown = informative ?? last;
    if (shown)
      recordAll(
        spec,
        shown.judgements,
        { seed: details.seed, counterexample: shown.value },
        { generatedCases: details.numRuns },
      );
    return;
  }
  const replay = {
    seed: details.seed,
    path: details.counterexamplePath ?? undefined,
    counterexample: details.counterexample?.[0],
  };
  if (details.errorInstance && !details.counterexample) {
    record(PROPERTY, 'error', `Property stopped: ${String(details.errorInstance).split('\n')[0]}`, {
      operation: spec.operation,
      level: spec.level,
      requirements: spec.requirements,
      replay,
    });
    return;
  }
  const value = details.counterexample?.[0] as T;
  const judgements = await spec.exercise(value);
  if (!judgements.some(failing)) {
    record(
      PROPERTY,
      'error',
      `A generated case failed but did not fail again when replayed (seed ${details.seed}): the target is not deterministic`,
      {
        operation: spec.operation,
        level: spec.level,
        requirements: spec.requirements,
        replay,
      },
    );
    return;
  }
  recordAll(spec, judgements, replay, { shrunkAfterRuns: details.numRuns, numShrinks: details.numShrinks });
}
