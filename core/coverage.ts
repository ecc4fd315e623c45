/**
 * No verdict claims more than was judged (spec/decisions.md DEC-R-02). The share of the testable
 * MUST requirements of a run's selection that the run judged, per operation and overall, with
 * why the others were not judged. What the user chose to leave out (operations not selected,
 * destructive steps not allowed, features the config says its credentials lack, operations the
 * config omits) is outside the share and shown as such; what could not be judged for want of data
 * or credentials (a missing fixture, a credential not configured, an empty list to act on, no
 * result at all) counts against it. A run whose share is below the minimum is inconclusive.
 */
import type { Requirement } from '../spec/requirements.ts';
import { type CoverageStanding, decidedOutcome, OPERATION_IN_SCOPE } from './decidedOutcomes.ts';
import type { CheckResult, MustCoverage, RunCoverage, Status } from './results.ts';

export type { MustCoverage, RunCoverage } from './results.ts';

const standingOf = (check: string) => decidedOutcome(check)?.coverage;

/** Default of `--min-coverage` (DEC-R-02). */
export const DEFAULT_MIN_COVERAGE = 0.9;

const judgedStatus = (s: Status): boolean => s === 'pass' || s === 'fail' || s === 'warn';

type Citing = Pick<CheckResult, 'check' | 'status' | 'operation' | 'requirements' | 'message'>;

/** Why a requirement with these citing results is not judged, and whether that was the user's choice. */
function standing(citing: readonly Citing[]): { judged: true } | { judged: false; chosen: boolean; reason: string } {
  if (citing.some((r) => judgedStatus(r.status))) return { judged: true };
  if (citing.length === 0) return { judged: false, chosen: false, reason: 'no result cites it' };
  const chosen = citing.map((r) => standingOf(r.check)).filter((c) => c?.standing === 'chosen');
  const reasonOf = (c: CoverageStanding | undefined) => (c && 'reason' in c ? c.reason : '');
  if (chosen.length === citing.length) return { judged: false, chosen: true, reason: reasonOf(chosen[0]) };
  const wanting = citing.map((r) => standingOf(r.check)).find((c) => c?.standing === 'wanting');
  if (wanting) return { judged: false, chosen: false, reason: reasonOf(wanting) };
  if (citing.some((r) => r.status === 'error'))
    return { judged: false, chosen: false, reason: 'could not be judged (error)' };
  return { judged: false, chosen: false, reason: 'precondition not met on the target' };
}

function empty(): MustCoverage {
  return { inScope: 0, judged: 0, notJudged: {}, leftOut: {} };
}

function add(c: MustCoverage, s: ReturnType<typeof standing>): void {
  if (s.judged) {
    c.inScope += 1;
    c.judged += 1;
  } else if (s.chosen) {
    c.leftOut[s.reason] = (c.leftOut[s.reason] ?? 0) + 1;
  } else {
    c.inScope += 1;
    c.notJudged[s.reason] = (c.notJudged[s.reason] ?? 0) + 1;
  }
}

/**
 * Coverage of the testable MUST requirements of the run's operations. `operations` are the
 * selected ones; an operation whose only result is an `operation-in-scope` omit was left out by
 * the config.
 */
export function mustCoverage(
  requirements: readonly Requirement[],
  operations: readonly string[],
  results: readonly Citing[],
  minimum: number,
): RunCoverage {
  const citing = new Map<string, Citing[]>();
  for (const r of results) for (const id of new Set(r.requirements)) citing.set(id, [...(citing.get(id) ?? []), r]);
  const omittedByConfig = new Set(
    results.filter((r) => r.check === 'operation-in-scope' && r.status === 'omit').map((r) => r.operation),
  );
  const selected = new Set(operations);
  const overall = empty();
  const perOperation: Record<string, MustCoverage> = Object.fromEntries(operations.map((o) => [o, empty()]));
  for (const req of requirements) {
    if (req.level !== 'MUST' || req.notTestedReason !== '') continue;
    const ops = req.operations.filter((o) => selected.has(o));
    if (ops.length === 0) continue;
    // A requirement shared by several operations (a flow's list, get and acknowledge) is judged
    // for each of them once any result judges it.
    const s = standing(citing.get(req.id) ?? []);
    const left = { judged: false, chosen: true, reason: OPERATION_IN_SCOPE.coverage.reason } as const;
    add(overall, ops.every((o) => omittedByConfig.has(o)) ? left : s);
    for (const o of ops) add(perOperation[o], omittedByConfig.has(o) ? left : s);
  }
  return { minimum, overall, operations: perOperation };
}

/** Judged share of the requirements in scope (1 when none is in scope: nothing was claimed). */
export const shareOf = (c: MustCoverage): number => (c.inScope === 0 ? 1 : c.judged / c.inScope);

/** `87% (123/141)` */
export const shareLabel = (c: MustCoverage): string =>
  c.inScope === 0 ? 'n/a' : `${Math.floor(100 * shareOf(c))}% (${c.judged}/${c.inScope})`;

/** `12 fixture not configured, 3 no result cites it` */
export const reasonsLabel = (reasons: Record<string, number>): string =>
  Object.entries(reasons)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ');

/** The reason a run is inconclusive for want of coverage, or undefined when its share suffices. */
export function coverageShortfall(c: RunCoverage): string | undefined {
  if (shareOf(c.overall) >= c.minimum) return undefined;
  return `only ${shareLabel(c.overall)} of the testable MUST requirements in scope were judged, below the minimum of ${Math.round(100 * c.minimum)}% (--min-coverage); not judged: ${reasonsLabel(c.overall.notJudged)}`;
}
