/**
 * Outcomes the harness decides itself rather than a check judging an exchange: a missing
 * fixture, credential or flag, a fixture the target does not hold (decided by a suite step), an
 * operation out of scope, a discovery key, suites that never ran (decided by the runner). One
 * table, read by the suites' steps, the check registry, coverage (DEC-R-02) and the reports, so an
 * id is never spelled twice.
 */

/**
 * How a decided outcome counts for coverage (core/coverage.ts): `chosen` is outside the share
 * (the user left it out), `wanting` counts against it (data or credentials missing), `judged`
 * is an ordinary result.
 */
export type CoverageStanding =
  | { standing: 'chosen'; reason: string }
  | { standing: 'wanting'; reason: string }
  | { standing: 'judged' };

export interface DecidedOutcome {
  id: string;
  summary: string;
  /** Who decides it. */
  by: 'suite' | 'runner';
  coverage: CoverageStanding;
}

const outcome = <C extends CoverageStanding>(id: string, summary: string, by: DecidedOutcome['by'], coverage: C) => ({
  id,
  summary,
  by,
  coverage,
});

export const FIXTURE_CONFIGURED = outcome('fixture-configured', 'The config names the data this step needs', 'suite', {
  standing: 'wanting',
  reason: 'fixture not configured',
});
/**
 * The config names a value the target answers it does not know (HTTP 404 or a not-found code of
 * the operation's error table): the data is wanting, not the server (issue 22). Decided only when
 * the target has not shown it holds the value (core/fixtureHeld.ts).
 */
export const FIXTURE_HELD = outcome(
  'fixture-held',
  'The target holds the data the config names for this step',
  'suite',
  {
    standing: 'wanting',
    reason: 'fixture not held by the target',
  },
);
export const CREDENTIAL_CONFIGURED = outcome(
  'credential-configured',
  'The config names the credential this step needs',
  'suite',
  { standing: 'wanting', reason: 'credential not configured' },
);
export const DESTRUCTIVE_STEP = outcome(
  'destructive-step',
  'Destructive steps run only with --allow-destructive',
  'suite',
  { standing: 'chosen', reason: 'needs --allow-destructive' },
);
/** A step needing a feature the config says its credentials lack (DEC-D1-15). */
export const FEATURE_AVAILABLE = outcome(
  'feature-available',
  "The run's credentials have the features the step needs",
  'suite',
  { standing: 'chosen', reason: 'a feature the config says its credentials lack' },
);
export const PRECONDITION = outcome('precondition', "The target's data meets the step's precondition", 'suite', {
  standing: 'judged',
});
/** The step cannot see the effect it judges: the operation that shows it has no address, or the answer lacks what the next step needs. */
export const EFFECT_OBSERVABLE = outcome(
  'effect-observable',
  'The target offers what the step needs to observe the effect it judges',
  'suite',
  { standing: 'wanting', reason: 'effect not observable in this run' },
);
export const PROPERTY = outcome('property', 'The property could be run and its failure reproduces', 'suite', {
  standing: 'judged',
});
export const DISCOVERY_KEY_PRESENT = outcome(
  'discovery-key-present',
  "The discovery document gives the operation's address by its key",
  'runner',
  { standing: 'judged' },
);
export const ADDRESS_HAS_DOCUMENTED_PATH = outcome(
  'address-has-documented-path',
  "The discovered address has the path the documents give under the service's base",
  'runner',
  { standing: 'judged' },
);
export const SUITE_RAN = outcome('suite-ran', 'The suites judged the operation', 'runner', { standing: 'judged' });
export const OPERATION_IN_SCOPE = outcome('operation-in-scope', 'The operation is in the scope of this run', 'runner', {
  standing: 'chosen',
  reason: 'operation omitted by the config',
});

/** One interaction of a pact, verified against the target by Pact's own Verifier (pacts/verify.ts). */
export const PACT_INTERACTION_VERIFIED = outcome(
  'pact-interaction-verified',
  'The target answers the pact interaction as the pact expects (Pact Verifier)',
  'runner',
  { standing: 'judged' },
);

/** A certification scenario the partner's client ran to its end, stopped where it may, or did not complete in time. */
export const SCENARIO_COMPLETED = outcome(
  'scenario-completed',
  "The partner's client ran the certification scenario to its end within its time-out",
  'runner',
  { standing: 'judged' },
);

/** A certification scenario the user did not select: the flow requirements only it judges are left out by choice. */
export const SCENARIO_SELECTED = outcome(
  'scenario-selected',
  'The certification runs the scenario that judges this flow',
  'runner',
  { standing: 'chosen', reason: 'scenario not selected' },
);

/**
 * A flow of a certification scenario that the client's allowed stop left unreached (it stopped
 * after a refusal or an unreadable answer, as the documents allow): the rows only that flow judges
 * are left out by the client's choice, not wanting.
 */
export const SCENARIO_FLOW_REACHED = outcome(
  'scenario-flow-reached',
  'The client went on far enough in the scenario for this flow to be judged',
  'runner',
  { standing: 'chosen', reason: 'the client stopped where the documents allow' },
);

export const DECIDED_OUTCOMES: readonly DecidedOutcome[] = [
  FIXTURE_CONFIGURED,
  FIXTURE_HELD,
  CREDENTIAL_CONFIGURED,
  DESTRUCTIVE_STEP,
  FEATURE_AVAILABLE,
  PRECONDITION,
  EFFECT_OBSERVABLE,
  PROPERTY,
  DISCOVERY_KEY_PRESENT,
  ADDRESS_HAS_DOCUMENTED_PATH,
  SUITE_RAN,
  OPERATION_IN_SCOPE,
  PACT_INTERACTION_VERIFIED,
  SCENARIO_COMPLETED,
  SCENARIO_SELECTED,
  SCENARIO_FLOW_REACHED,
];

const byId = new Map(DECIDED_OUTCOMES.map((o) => [o.id, o]));

/** The decided outcome of an id, if the id names one. */
export const decidedOutcome = (id: string): DecidedOutcome | undefined => byId.get(id);
