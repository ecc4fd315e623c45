/**
 * The two tiers of the project's tests (issue 34). `npm test` is the loop a contributor waits on:
 * formatting, lint, layering, types and every test file below except those named here, within
 * about four minutes on an idle 2-core machine. `npm run test:full` adds these files: the
 * whole-catalogue self-tests (every fault batch, every variant batch), whole-suite runs through
 * the command line and the installed package, Pact verification, the certification service on
 * PostgreSQL, and the browser walks. CI (`.ci/run`) runs `npm run test:full` on every change, so
 * nothing here goes unproven; it is only not waited on in the loop.
 *
 * The fault and variant self-tests are in both: `npm test` runs the day's part of their batches
 * ({@link dayPart}: another part every day, every batch within a week), `npm run test:full` every
 * batch.
 *
 * A file belongs here when, run alone, it costs 10 CPU-seconds or more (`npm run test:cost`, the
 * README's table), with the reason it costs that much. Unit and property tests of the harness
 * stay in `npm test` whatever they cost: they are what a change most often breaks.
 */

export type FullOnlyReason =
  | 'self-test of the whole catalogue'
  | 'whole-suite runs through the command line'
  | 'client certification runs'
  | 'the installed package'
  | 'Pact verification'
  | 'the certification service'
  | 'a browser';

export const FULL_ONLY: Readonly<Record<string, FullOnlyReason>> = {
  'test/variantProbes.test.ts': 'self-test of the whole catalogue',
  'test/familyFaults.test.ts': 'self-test of the whole catalogue',
  'test/shapeFaults.test.ts': 'self-test of the whole catalogue',
  'server/faults/derived.test.ts': 'self-test of the whole catalogue',
  'test/citationsListOperation.test.ts': 'whole-suite runs through the command line',
  'test/safeDefaultAndCoverage.test.ts': 'whole-suite runs through the command line',
  'suites/common/stateSequences.test.ts': 'whole-suite runs through the command line',
  'test/readmeCommands.test.ts': 'whole-suite runs through the command line',
  'test/hostile.test.ts': 'whole-suite runs through the command line',
  'test/cliManners.test.ts': 'whole-suite runs through the command line',
  'test/cli.test.ts': 'whole-suite runs through the command line',
  'test/gateway.test.ts': 'whole-suite runs through the command line',
  'test/masking.test.ts': 'whole-suite runs through the command line',
  'test/maskingEncoded.test.ts': 'whole-suite runs through the command line',
  'test/reportDir.test.ts': 'whole-suite runs through the command line',
  'test/concurrency.test.ts': 'whole-suite runs through the command line',
  'test/fixturesNotHeld.test.ts': 'whole-suite runs through the command line',
  'test/fixturesDeclared.test.ts': 'whole-suite runs through the command line',
  'test/baseline.test.ts': 'whole-suite runs through the command line',
  'test/baselineRegression.test.ts': 'whole-suite runs through the command line',
  'test/replay.test.ts': 'whole-suite runs through the command line',
  'test/allure.test.ts': 'whole-suite runs through the command line',
  'test/interruptWait.test.ts': 'whole-suite runs through the command line',
  'test/connectGuard.test.ts': 'whole-suite runs through the command line',
  'test/shard.test.ts': 'whole-suite runs through the command line',
  'test/shardBaseline.test.ts': 'whole-suite runs through the command line',
  'test/signing.test.ts': 'whole-suite runs through the command line',
  'test/tls.test.ts': 'whole-suite runs through the command line',
  'test/tlsFront.test.ts': 'whole-suite runs through the command line',
  'test/compare.test.ts': 'whole-suite runs through the command line',
  'test/certifyCli.test.ts': 'client certification runs',
  'test/certifyAttestation.test.ts': 'client certification runs',
  'certify/certification.test.ts': 'client certification runs',
  'test/package.test.ts': 'the installed package',
  'pacts/verify.test.ts': 'Pact verification',
  'test/pactCli.test.ts': 'Pact verification',
  'pacts/check/againstSandbox.test.ts': 'Pact verification',
  'pacts/check/pactChoices.test.ts': 'Pact verification',
  'pacts/check/checkPartnerPact.test.ts': 'Pact verification',
  'examples/partner-consumer/partnerPact.test.ts': 'Pact verification',
  'test/serviceCertificates.test.ts': 'the certification service',
  'test/serviceAccess.test.ts': 'the certification service',
  'test/serviceAudit.test.ts': 'the certification service',
  'test/serviceCli.test.ts': 'the certification service',
  'test/serviceClientRuns.test.ts': 'the certification service',
  'test/serviceHardening.test.ts': 'the certification service',
  'test/serviceHardening2.test.ts': 'the certification service',
  'test/serviceHostile.test.ts': 'the certification service',
  'test/serviceLease.test.ts': 'the certification service',
  'test/serviceLifecycle.test.ts': 'the certification service',
  'test/serviceMaskingEncoded.test.ts': 'the certification service',
  'test/servicePactChecks.test.ts': 'the certification service',
  'test/servicePgBoss.test.ts': 'the certification service',
  'test/serviceQueue.test.ts': 'the certification service',
  'test/serviceRestart.test.ts': 'the certification service',
  'test/serviceRuns.test.ts': 'the certification service',
  'test/serviceWorkspaceSlots.test.ts': 'the certification service',
  'test/compare.browser.test.ts': 'a browser',
  'test/serviceRunPage.browser.test.ts': 'a browser',
  'test/serviceWalk.browser.test.ts': 'a browser',
};

/**
 * Which tier this run of vitest is: `quick` when CONFORMANCE_TESTS=quick (`npm test` sets it),
 * `full` otherwise, so that `npx vitest run FILE` runs any file it is given.
 */
export const TIER: 'quick' | 'full' = process.env.CONFORMANCE_TESTS === 'quick' ? 'quick' : 'full';

/** The files `npm test` leaves to `npm run test:full`, as vitest exclude patterns. */
export function excludedInTier(tier: 'quick' | 'full'): string[] {
  return tier === 'full' ? [] : Object.keys(FULL_ONLY);
}

/** Into how many parts `npm test` divides the self-tests' batches: one part a day. */
export const QUICK_PARTS = { faults: 6, variants: 8 } as const;

/**
 * The day `npm test` is on (days since 1970-01-01, UTC), or CONFORMANCE_QUICK_DAY to replay
 * another day's part (the test names print it).
 */
export function quickDay(env: NodeJS.ProcessEnv = process.env): number {
  const pinned = env.CONFORMANCE_QUICK_DAY;
  return pinned !== undefined && /^\d+$/.test(pinned) ? Number(pinned) : Math.floor(Date.now() / 86_400_000);
}

export interface DayPart<T> {
  /** The part taken (0-based) and how many there are. */
  part: number;
  of: number;
  items: T[];
}

/**
 * The day's part of a list: the items dealt into `parts` parts of about equal weight (heaviest
 * first, each to the lightest part so far), part `day mod parts` kept in the list's order. Over
 * `parts` consecutive days every item is taken once. In the full tier, everything.
 */
export function dayPart<T>(
  items: readonly T[],
  weight: (item: T) => number,
  parts: number,
  tier: 'quick' | 'full' = TIER,
  day: number = quickDay(),
): DayPart<T> {
  if (tier === 'full' || parts <= 1) return { part: 0, of: 1, items: [...items] };
  const load = Array.from({ length: parts }, () => 0);
  const partOf = new Map<number, number>();
  const byWeight = items.map((item, i) => ({ i, w: weight(item) })).sort((a, b) => b.w - a.w || a.i - b.i);
  for (const { i, w } of byWeight) {
    let lightest = 0;
    for (let p = 1; p < parts; p++) if (load[p] < load[lightest]) lightest = p;
    load[lightest] += w;
    partOf.set(i, lightest);
  }
  const part = day % parts;
  return { part, of: parts, items: items.filter((_, i) => partOf.get(i) === part) };
}
