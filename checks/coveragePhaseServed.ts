import { fail, pass, type Check } from '../core/check.ts';
import type { Level } from '../spec/types.ts';

/** One request of the coverage phase and how it was judged (suites/common/derivedRequests.ts). */
export interface CoveragePhaseEntry {
  /** What it exercises: `count=1000 (maximum)`, `invalid: count is not a positive integer (range)`. */
  label: string;
  /** The coverage aspect (generators/coveragePhase.ts) or `invalid-<kind>`. */
  aspect: string;
  parameter?: string;
  /** The level the entry was judged at (the level of the rule it tests); absent when not sent. */
  level?: Level;
  outcome: 'pass' | 'fail' | 'not-sent';
  status?: number;
  /** For `not-sent`, why; for `fail`, the one-line reason. */
  why?: string;
}

/** The coverage phase of one operation, every entry judged. */
export interface CoveragePhase {
  entries: readonly CoveragePhaseEntry[];
}

const entryOutcome = (e: CoveragePhaseEntry) =>
  e.outcome === 'fail' ? (e.level === 'MUST' ? 'fail' : 'warn') : e.outcome;

/**
 * The deterministic coverage phase of an operation (issue 14, item 3): every enum value, every
 * boundary, every feature-gated field with and without its feature and one sample of every
 * invalid-request family, each judged by its own rule (valid-request-served, matches-schema,
 * invalid-request-answered). Fails when an entry judged at MUST failed; an entry whose rule is a
 * SHOULD is listed as `warn` and recorded on its own by the suite. Nothing sent: skip.
 */
export const coveragePhaseServed: Check<CoveragePhase> = {
  id: 'coverage-phase-served',
  summary: 'Every request of the coverage phase is answered as the documents allow',
  run: ({ entries }) => {
    const listed = entries.map((e) => {
      const { level: _level, ...rest } = e;
      return { ...rest, outcome: entryOutcome(e) };
    });
    const evidence = { coveragePhase: { entries: listed } };
    const sent = entries.filter((e) => e.outcome !== 'not-sent');
    const failed = entries.filter((e) => e.outcome === 'fail' && e.level === 'MUST');
    const warned = entries.filter((e) => e.outcome === 'fail' && e.level !== 'MUST');
    if (sent.length === 0)
      return { outcome: 'skip', message: 'no request of the coverage phase could be sent', evidence };
    if (failed.length > 0)
      return fail(
        `Expected every request of the coverage phase to be answered as the documents allow, received ${failed.length} of ${sent.length} not: ${failed[0].label}: ${failed[0].why ?? ''}`,
        evidence,
      );
    const tail = warned.length > 0 ? `, ${warned.length} warned` : '';
    const notSent = entries.length - sent.length;
    return pass(
      `${sent.length} requests answered as allowed${tail}${notSent > 0 ? `, ${notSent} not sent` : ''}`,
      evidence,
    );
  },
};
