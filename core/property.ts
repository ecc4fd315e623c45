/**
 * Property-based verification (fast-check): generated requests are
 * sent silently; only the shrunk counterexample (on failure) or the last case (on success) is
 * recorded, with the seed and path that replay it (`--seed`, `--path`).
 *
 * Independent cases are sent ahead (issue 34): fast-check runs a property's cases one after
 * another, so the cases of a property whose cases do not depend on each other (`independent`) are
 * drawn first with fc.sample at the run's seed (the very values fc.check draws, in its order), sent
 * up to the run's concurrency ahead of the one judged (core/sendAhead.ts), and handed to fc.check
 * in its order. The first failing case ends the sending ahead: its shrinking sends each case when
 * fast-check asks for it, as without concurrency, so the counterexample, its path and the replay
 * command are the same whatever the concurrency. A replay (`--path`) sends nothing ahead.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { Level } from '../spec/types.ts';
import type { Check } from './check.ts';
import type { Exchange, RespondedExchange } from './exchange.ts';
import { PROPERTY } from './decidedOutcomes.ts';
import { type AnyCheck, evaluate, isExchange, record, verify } from './judgement.ts';
import { SendAhead } from './sendAhead.ts';
import { runContext, sendAheadWidth } from './worker.ts';

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
  /**
   * The cases are independent: no case's requests change what another case's answers may be
   * (searches, reads, invalid requests the target must refuse), so they may be sent ahead,
   * several at once. Default false: one case after another.
   */
  independent?: boolean;
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
  // A path with `#` replays a stateful sequence (suites/common/stateSequences.ts), not a property.
  const path = ctx.path && !ctx.path.includes('#') ? ctx.path : undefined;
  const width = spec.independent && path === undefined ? sendAheadWidth() : 1;
  const drawn = width > 1 ? fc.sample(spec.arbitrary, { seed: ctx.seed, numRuns: ctx.runs }) : [];
  const ahead = new SendAhead(
    drawn.map((v) => () => spec.exercise(v)),
    width,
  );
  // The index of the next case drawn, while fast-check asks for them in their order; -1 once it
  // asks for anything else (a shrunk case): from then on each case is sent when asked for.
  let next = 0;
  const live = () => {
    next = -1;
    ahead.stop();
  };
  const exercise = (value: T): Promise<Judgement[]> => {
    if (next >= 0 && next < drawn.length && isDeepStrictEqual(value, drawn[next])) return ahead.take(next++);
    if (next >= 0) live();
    return spec.exercise(value);
  };
  const details = await fc
    .check(
      fc.asyncProperty(spec.arbitrary, async (value) => {
        let judgements: Judgement[];
        try {
          judgements = await exercise(value);
        } catch (e) {
          live();
          throw e;
        }
        last = { value, judgements };
        const outcomes = judgements.map((j) => evaluate(j.subject as never, j.check, j.exchange).outcome);
        if (!outcomes.includes('skip')) informative = last;
        // A case the target refused for load (429, 503 with Retry-After, after the run's retry budget)
        // was not judged: it neither fails the property nor blames the target (DEC-R-05).
        const fails = judgements.some(
          (j, i) =>
            (j.level ?? spec.level) !== 'INFO' &&
            (outcomes[i] === 'fail' || (outcomes[i] === 'error' && !refusedForLoad(j))),
        );
        if (fails) live();
        return !fails;
      }),
      { seed: ctx.seed, numRuns: ctx.runs, ...(path ? { path } : {}) },
    )
    // Cases sent ahead that fast-check never asked for (past a failing one) end before the test goes on.
    .finally(() => ahead.settled());
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
