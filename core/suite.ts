/**
 * What a suite is written with. `describeOperation(id, (op) => ...)` hands back a binder scoped to
 * the operation: `op.must(...ids)`, `op.should(...ids)`, `op.info(...ids)` bind a level and the
 * requirement ids a judgement cites, `.under(...decisions)` the decisions it applies, and
 * `.check(subject, check)` judges and records. Tests declare the fixtures and credentials they
 * need (`op.test(name, { fixtures, cites }, fn)`): when one is missing the binder records one
 * `fixture-configured` skip citing the requirements and the test body does not run. While the body
 * runs, the binder knows the fixtures it declared, so a shared step can tell that the target
 * answered "not found" to a request naming one it has not shown it holds (`fixturesNotHeld`):
 * the config's data is wanting, not the server (issue 22).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, test } from 'vitest';
import { type OperationId, operation } from '../spec/operations.ts';
import type { FeatureName, Level } from '../spec/types.ts';
import type { Check } from './check.ts';
import type { Fixtures } from './config.ts';
import { CREDENTIAL_CONFIGURED, type DecidedOutcome, FIXTURE_CONFIGURED } from './decidedOutcomes.ts';
import type { WorkerResult } from './events.ts';
import type { Exchange, RespondedExchange } from './exchange.ts';
import { type ConfiguredFixture, carries, HeldFixtures, requestValues } from './fixtureHeld.ts';
import { type AnyCheck, type Binding, record, verify } from './judgement.ts';
import { type PropertySpec, verifyProperty } from './property.ts';
import { type CallOptions, call as send } from './request.ts';
import { learnInOrder } from './sendAhead.ts';
import { runContext } from './worker.ts';

export type { CallOptions } from './request.ts';
export { basicFor, freshTokens, tokenFor } from './suiteCredentials.ts';
export { runContext, sendAheadWidth } from './worker.ts';
export { evaluate, record, verify } from './judgement.ts';
export { judge as judgement } from './property.ts';

export function hasFeatures(features: readonly FeatureName[]): boolean {
  const have = runContext().features;
  return features.every((f) => have.includes(f));
}

/** `section.name` paths of the config's fixtures (`accounts.userInfoCode`). */
export type FixturePath = {
  [S in keyof Fixtures & string]-?: `${S}.${keyof NonNullable<Fixtures[S]> & string}`;
}[keyof Fixtures & string];

/** The value type a fixture path names. */
export type FixtureAt<P extends FixturePath> = P extends `${infer S extends keyof Fixtures & string}.${infer N}`
  ? N extends keyof NonNullable<Fixtures[S]>
    ? NonNullable<NonNullable<Fixtures[S]>[N]>
    : never
  : never;

/** The configured value of a fixture path, or undefined. */
export function fixture<P extends FixturePath>(path: P): FixtureAt<P> | undefined {
  const [section, name] = path.split('.') as [keyof Fixtures, string];
  const value = (runContext().fixtures[section] as Record<string, unknown> | undefined)?.[name];
  return (value ?? undefined) as FixtureAt<P> | undefined;
}

/** The fixtures and requirement ids the running test declared (`op.test(name, needs, fn)`, `op.need`). */
interface Declared {
  fixtures: Set<FixturePath>;
  cites: readonly string[];
}
const declared = new AsyncLocalStorage<Declared>();

/** Every fixture the config names, as `section.name` and value (memoised per fixtures object). */
const configuredCache = new WeakMap<object, ConfiguredFixture[]>();
function configuredFixtures(): ConfiguredFixture[] {
  const fixtures = runContext().fixtures;
  let list = configuredCache.get(fixtures);
  if (!list) {
    list = Object.entries(fixtures).flatMap(([section, names]) =>
      Object.entries((names ?? {}) as Record<string, unknown>)
        .filter(([, value]) => value !== undefined && value !== null)
        .map(([name, value]) => ({ path: `${section}.${name}`, value })),
    );
    configuredCache.set(fixtures, list);
  }
  return list;
}

/**
 * What the target has shown it holds, per suite file: suite files share their worker's modules
 * (isolate: false), and a file's results must not depend on which files ran before it.
 */
const heldByFile = new Map<string, HeldFixtures>();
const heldHere = (): HeldFixtures => {
  const file = expect.getState().testPath ?? '';
  let held = heldByFile.get(file);
  if (!held) {
    held = new HeldFixtures();
    heldByFile.set(file, held);
  }
  return held;
};

/** Sends one request of the operation (never throws for the target's behaviour), learning which fixtures the target holds. */
export async function call(id: string, options: CallOptions = {}): Promise<Exchange> {
  const x = await send(id, options);
  // A request sent ahead (core/sendAhead.ts) teaches what it shows when its answer is taken, in order.
  learnInOrder(x, noteHeld);
  return x;
}

/** Learns which configured fixtures the exchange shows the target holds. */
export function noteHeld(x: Exchange): void {
  heldHere().note(x, configuredFixtures());
}

/**
 * The fixtures the running test declared whose value the exchange's request carried and that the
 * target has not shown it holds, with the requirement ids the test cites; undefined when there is
 * none. Whether the answer says "not found" is the caller's to judge (suites/common/steps.ts).
 */
export function fixturesNotHeld(x: Exchange): { paths: FixturePath[]; cites: readonly string[] } | undefined {
  const running = declared.getStore();
  if (!running || running.fixtures.size === 0) return undefined;
  const sent = requestValues(x.request);
  const held = heldHere();
  const paths = [...running.fixtures].filter((p) => {
    const value = fixture(p);
    return value !== undefined && !held.isHeld(p) && carries(sent, value);
  });
  return paths.length > 0 ? { paths, cites: running.cites } : undefined;
}

/** Status a suite may record itself: pass and fail come only from checks. */
export type DecidedStatus = 'skip' | 'omit' | 'error';

/** A level and requirement ids bound to an operation, ready to judge. */
export interface Judge {
  readonly binding: Readonly<Binding>;
  /** The same judge citing decisions of spec/decisions.md. */
  under(...decisions: string[]): Judge;
  /** The same judge with the exchange the result points at, evidence or a replay. */
  with(extra: Pick<Binding, 'exchange' | 'evidence' | 'replay'>): Judge;
  /** Judges the subject with the check and records the result. */
  check(subject: Exchange, check: Check<RespondedExchange>, evidence?: Record<string, unknown>): WorkerResult;
  check<S>(subject: S, check: Check<S>, evidence?: Record<string, unknown>): WorkerResult;
  /** Records an outcome the harness decides (core/decidedOutcomes.ts), never a pass or a failure. */
  decided(outcome: DecidedOutcome, status: DecidedStatus, message: string): WorkerResult;
  /**
   * Runs a property with the run's seed and number of runs (core/property.ts): each generated case
   * is exercised silently; the shrunk counterexample (or the last passing case) is recorded with
   * this judge's level, requirements and decisions unless a judgement names its own.
   */
  property<T>(spec: Pick<PropertySpec<T>, 'arbitrary' | 'exercise' | 'independent'>): Promise<void>;
}

function judge(binding: Binding): Judge {
  return {
    binding,
    under: (...decisions) => judge({ ...binding, decisions: [...(binding.decisions ?? []), ...decisions] }),
    with: (extra) => {
      const evidence = binding.evidence || extra.evidence ? { ...binding.evidence, ...extra.evidence } : undefined;
      return judge({ ...binding, ...extra, ...(evidence ? { evidence } : {}) });
    },
    check: (subject: unknown, check: AnyCheck, evidence?: Record<string, unknown>) =>
      verify(
        subject,
        check as Check<unknown>,
        evidence ? { ...binding, evidence: { ...binding.evidence, ...evidence } } : binding,
      ),
    decided: (outcome, status, message) => record(outcome, status, message, binding),
    property: (spec) =>
      verifyProperty({
        ...spec,
        operation: binding.operation,
        level: binding.level,
        requirements: binding.requirements,
        decisions: binding.decisions,
      }),
  };
}

/** What a test needs from the config before it can judge anything. */
export interface Needs<P extends readonly FixturePath[]> {
  fixtures?: P;
  /** Named credentials (config `credentials`). */
  credentials?: readonly string[];
  /** Requirement ids the test judges: a missing input is recorded against them, at MUST. */
  cites: readonly string[];
}

export type FixtureValues<P extends readonly FixturePath[]> = { [K in keyof P]: FixtureAt<P[K]> };

/** A binder scoped to one operation. */
export interface OperationBinder {
  readonly id: OperationId;
  must(...requirements: string[]): Judge;
  should(...requirements: string[]): Judge;
  info(...requirements: string[]): Judge;
  at(level: Level, ...requirements: string[]): Judge;
  /** Sends one request of the operation (never throws for the target's behaviour). */
  call(options?: CallOptions): Promise<Exchange>;
  /**
   * The configured fixture, or undefined after recording one `fixture-configured` skip citing the
   * requirement ids (for inputs needed inside a loop; declare them on the test otherwise).
   */
  need<P extends FixturePath>(path: P, ...cites: string[]): FixtureAt<P> | undefined;
  /** A vitest test of this operation. */
  test(name: string, fn: () => Promise<unknown>): void;
  /** A test that runs only when its declared fixtures and credentials are configured. */
  test<const P extends readonly FixturePath[]>(
    name: string,
    needs: Needs<P>,
    fn: (fixtures: FixtureValues<P>) => Promise<unknown>,
  ): void;
}

/** The binder of an operation, for steps outside its describe block (flows, shared steps). */
export function on(id: OperationId): OperationBinder {
  operation(id); // an unknown id is a suite bug: fail loudly at collection
  const at = (level: Level, ...requirements: string[]) => judge({ operation: id, level, requirements });
  const need = <P extends FixturePath>(path: P, ...cites: string[]) => {
    const value = fixture(path);
    if (value === undefined)
      at('MUST', ...cites).decided(FIXTURE_CONFIGURED, 'skip', `No fixture ${path} in the config`);
    else declared.getStore()?.fixtures.add(path);
    return value;
  };
  /** Records the missing inputs once; true when every input is there. */
  const inputsPresent = (needs: Needs<readonly FixturePath[]>): boolean => {
    const missing = (needs.fixtures ?? []).filter((p) => fixture(p) === undefined);
    const noCredential = (needs.credentials ?? []).filter((c) => !runContext().credentials[c]);
    const j = at('MUST', ...needs.cites);
    if (missing.length > 0) j.decided(FIXTURE_CONFIGURED, 'skip', `No fixture ${missing.join(', ')} in the config`);
    if (noCredential.length > 0) {
      const names = noCredential.map((c) => `credentials.${c}`).join(', ');
      j.decided(CREDENTIAL_CONFIGURED, 'skip', `No credential ${names} in the config`);
    }
    return missing.length === 0 && noCredential.length === 0;
  };
  return {
    id,
    must: (...r) => at('MUST', ...r),
    should: (...r) => at('SHOULD', ...r),
    info: (...r) => at('INFO', ...r),
    at,
    call: (options) => call(id, options),
    need,
    test: (
      name: string,
      needsOrFn: Needs<readonly FixturePath[]> | (() => Promise<unknown>),
      fn?: (fixtures: readonly unknown[]) => Promise<unknown>,
    ) => {
      if (typeof needsOrFn === 'function') return test(name, needsOrFn);
      const needs = needsOrFn;
      test(name, async () => {
        if (!inputsPresent(needs)) return;
        const running: Declared = { fixtures: new Set(needs.fixtures ?? []), cites: needs.cites };
        await declared.run(running, () => fn?.((needs.fixtures ?? []).map((p) => fixture(p))));
      });
    },
  } as OperationBinder;
}

/** A describe block for one operation, skipped when the operation is not selected or has no address. */
export function describeOperation(id: OperationId, body: (op: OperationBinder) => void): void {
  const ctx = runContext();
  const op = on(id);
  const active = ctx.selected.includes(id) && ctx.addresses[id] !== undefined;
  describe.skipIf(!active)(id, () => body(op));
}

/**
 * A describe block for a flow across several operations (a lifecycle): it runs when any of them
 * is selected and all of them have an address. Results still name the operation each step judges
 * (`flow.on(id)`).
 */
export function describeFlow(
  title: string,
  ids: readonly OperationId[],
  body: (flow: { on: (id: OperationId) => OperationBinder }) => void,
): void {
  const ctx = runContext();
  const binders = new Map(ids.map((id) => [id, on(id)]));
  const active = ids.some((id) => ctx.selected.includes(id)) && ids.every((id) => ctx.addresses[id] !== undefined);
  const flowOn = (id: OperationId): OperationBinder => {
    const b = binders.get(id);
    if (!b) throw new Error(`Operation ${id} is not declared by the flow "${title}"`);
    return b;
  };
  describe.skipIf(!active)(title, () => body({ on: flowOn }));
}
