/**
 * Baselines (issue 24): a run compared with an earlier one of the same suite version, target and
 * config. Each finding (core/findings.ts) of the run is `new` (its cause was not a finding of the
 * baseline) or `still failing`; each finding of the baseline the run no longer has is `fixed`.
 * With `--fail-on new` the exit code is 1 only when a new MUST finding exists: the known failures
 * of a staging server no longer break a CI build, while the verdict still says what it is and the
 * report says which baseline was applied.
 *
 * A baseline from another suite version, target or config is refused with the reason: its causes
 * would not be comparable (another version may word or split its checks differently; another
 * target or config is another thing judged).
 *
 * `diffRuns` is the same comparison of any two runs for `conformance diff A B`: verdict, coverage,
 * findings new, fixed and still failing, and the per-operation verdicts that changed.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { shareLabel } from './coverage.ts';
import { type Finding, findingsOf, isBlocking } from './findings.ts';
import type { BaselineRecord, FindingDigest, RunResults, Verdict } from './results.ts';

export type { BaselineRecord, FindingDigest } from './results.ts';

export const digestOf = (f: Finding): FindingDigest => ({
  key: f.key,
  check: f.check,
  level: f.level,
  status: f.status,
  operations: f.operations,
  count: f.results.length,
  cause: f.cause,
});

/** A baseline that cannot be used: one line saying why. */
export class BaselineError extends Error {}

/**
 * Reads a baseline: a report folder (its results.json) or a results.json file.
 * @throws BaselineError with a one-line reason when it is missing or not a run's results.
 */
export function readBaseline(path: string): RunResults {
  let file = path;
  try {
    if (statSync(path).isDirectory()) file = join(path, 'results.json');
  } catch {
    throw new BaselineError(`the baseline ${path} does not exist`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new BaselineError(
      code === 'ENOENT'
        ? `the baseline folder ${path} holds no results.json`
        : `the baseline ${file} is not a run's results.json (${code ?? 'not JSON'})`,
    );
  }
  const r = parsed as Partial<RunResults>;
  if (
    typeof r !== 'object' ||
    r === null ||
    !Array.isArray(r.results) ||
    typeof r.suite?.version !== 'string' ||
    typeof r.target !== 'string'
  )
    throw new BaselineError(`the baseline ${file} is not a run's results.json (no suite, target or results)`);
  return parsed as RunResults;
}

/** Why a baseline cannot be compared with a run, or undefined when it can. */
export function incompatibility(run: RunResults, baseline: RunResults): string | undefined {
  if (baseline.suite.version !== run.suite.version)
    return `it was made by suite version ${baseline.suite.version}, this is ${run.suite.version}: its findings are not comparable; make a new baseline`;
  if (baseline.target !== run.target) return `it judged ${baseline.target}, this run judges ${run.target}`;
  if (baseline.configDigest !== run.configDigest)
    return 'it was made with another config (its digest differs): the fixtures, credentials or settings changed';
  if ((baseline.party ?? 'server') !== (run.party ?? 'server'))
    return `it judged a ${baseline.party ?? 'server'}, this run judges a ${run.party ?? 'server'}`;
  return undefined;
}

export interface Comparison {
  /** Findings with a cause on an operation the baseline did not fail with that cause. */
  new: Finding[];
  still: Finding[];
  /** The baseline's findings, each on the operations where the run no longer has its cause. */
  fixed: FindingDigest[];
  /**
   * The baseline's findings on operations this run did not judge (a shard, `--only`): not compared,
   * never fixed.
   */
  notCompared: FindingDigest[];
  /** Per new finding that the baseline had on other operations: the operations it is new on. */
  newOn: Record<string, string[]>;
}

/**
 * A finding's identities: its cause on each operation it touches (issue 30, item 6). The same
 * cause newly failing on another operation is a new finding there: a regression of one rule on a
 * second operation must not hide behind the first one's known failure.
 */
const unitsOf = (f: { key: string; operations: readonly string[] }): string[] =>
  f.operations.length === 0 ? [f.key] : f.operations.map((op) => `${f.key} ${op}`);
const unitOperation = (unit: string): string => unit.slice(unit.indexOf(' ') + 1);

/** The run's findings against the baseline's, by cause and operation. */
export function compare(run: RunResults, baseline: RunResults): Comparison {
  const current = findingsOf(run);
  const before = findingsOf(baseline);
  const known = new Set(before.flatMap(unitsOf));
  const now = new Set(current.flatMap(unitsOf));
  const newOn: Record<string, string[]> = {};
  const fresh: Finding[] = [];
  const still: Finding[] = [];
  for (const f of current) {
    const unknown = unitsOf(f).filter((u) => !known.has(u));
    if (unknown.length === 0) still.push(f);
    else {
      fresh.push(f);
      if (unknown.length < unitsOf(f).length || before.some((b) => b.key === f.key))
        newOn[f.key] = unknown.map(unitOperation);
    }
  }
  // Only what this run judged can be fixed: a baseline finding on an operation outside the run's
  // scope (a shard, --only) is not compared.
  const judged = new Set(run.operations.map((o) => o.id));
  const inScope = (u: string) => !u.includes(' ') || judged.has(unitOperation(u));
  const fixed: FindingDigest[] = [];
  const notCompared: FindingDigest[] = [];
  for (const f of before) {
    const gone = unitsOf(f).filter((u) => !now.has(u));
    const [compared, outside] = [gone.filter(inScope), gone.filter((u) => !inScope(u))];
    const digest = (units: string[]): FindingDigest => ({
      ...digestOf(f),
      ...(f.operations.length > 0 ? { operations: units.map(unitOperation) } : {}),
    });
    if (compared.length > 0) fixed.push(digest(compared));
    if (outside.length > 0) notCompared.push(digest(outside));
  }
  return { new: fresh, still, fixed, notCompared, newOn };
}

/**
 * Applies a baseline to a run: the record the results carry (and the report shows).
 * @throws BaselineError when the baseline is from another suite version, target or config.
 */
export function applyBaseline(
  run: RunResults,
  baseline: RunResults,
  source: string,
  failOn: 'any' | 'new',
): BaselineRecord {
  const why = incompatibility(run, baseline);
  if (why !== undefined) throw new BaselineError(`the baseline ${source} cannot be used: ${why}`);
  const c = compare(run, baseline);
  return {
    source,
    startedAt: baseline.startedAt,
    verdict: baseline.verdict,
    ...(baseline.integrity ? { digest: baseline.integrity.digest } : {}),
    failOn,
    new: c.new.map((f) => f.key),
    ...(Object.keys(c.newOn).length > 0 ? { newOn: c.newOn } : {}),
    still: c.still.map((f) => f.key),
    fixed: c.fixed,
    ...(c.notCompared.length > 0 ? { notCompared: c.notCompared } : {}),
  };
}

/** The console's lines about a baseline: counts, each fixed finding, and what was not compared. */
export function baselineLines(b: BaselineRecord): string[] {
  const outside = b.notCompared ?? [];
  return [
    `Baseline: ${b.source} (run started ${b.startedAt}, ${b.verdict}): ${b.new.length} new, ${b.still.length} still failing, ${b.fixed.length} fixed${outside.length > 0 ? `, ${outside.length} not compared (on operations this run did not judge)` : ''}${b.failOn === 'new' ? '; the exit code counts only new MUST findings (--fail-on new)' : ''}`,
    ...b.fixed.map((f) => `  fixed: ${f.check} ${f.level} on ${f.operations.join(', ')}: ${f.cause}`),
  ];
}

/** Each finding key's mark for the console and the report. */
export function baselineMarks(b: BaselineRecord): Map<string, string> {
  return new Map([
    ...b.new.map((k) => [k, b.newOn?.[k] ? `new on ${b.newOn[k].join(', ')}` : 'new'] as const),
    ...b.still.map((k) => [k, 'still failing'] as const),
  ]);
}

/**
 * The exit code under a baseline with `--fail-on new`: 1 when a new MUST finding exists, else 0
 * when the run judged enough to say anything (a run that is inconclusive for coverage or errors
 * keeps its own code, 3: a baseline excuses known failures, never what was not judged).
 */
export function exitCodeUnderBaseline(run: RunResults, record: BaselineRecord, ordinary: number): number {
  if (record.failOn !== 'new') return ordinary;
  const fresh = new Set(record.new);
  const blockingNew = findingsOf(run).some((f) => fresh.has(f.key) && isBlocking(f) && f.status === 'fail');
  if (blockingNew) return 1;
  return ordinary === 1 ? 0 : ordinary;
}

export interface RunDiff {
  a: { source: string; verdict: Verdict; startedAt: string; coverage?: string; suiteVersion: string; target: string };
  b: { source: string; verdict: Verdict; startedAt: string; coverage?: string; suiteVersion: string; target: string };
  /** Differences that make the comparison weaker (another target, config or suite version). */
  notes: string[];
  /** `notCompared`: A's findings on operations B did not judge (B a shard or an --only run). */
  findings: { new: FindingDigest[]; fixed: FindingDigest[]; still: FindingDigest[]; notCompared: FindingDigest[] };
  /** Operations whose verdict changed, and those judged in only one of the runs. */
  operations: { id: string; a?: Verdict; b?: Verdict }[];
}

/** The run's MUST coverage as every command shows it (core/coverage.ts shareLabel: rounded down). */
const coverageText = (r: RunResults): string | undefined => (r.coverage ? shareLabel(r.coverage.overall) : undefined);

/** `conformance diff A B`: what changed from run A to run B. */
export function diffRuns(a: RunResults, aSource: string, b: RunResults, bSource: string): RunDiff {
  const why = incompatibility(b, a);
  const c = compare(b, a);
  const av = new Map(a.operations.map((o) => [o.id, o.verdict]));
  const bv = new Map(b.operations.map((o) => [o.id, o.verdict]));
  const ids = [...new Set([...av.keys(), ...bv.keys()])];
  const side = (r: RunResults, source: string) => ({
    source,
    verdict: r.verdict,
    startedAt: r.startedAt,
    ...(coverageText(r) ? { coverage: coverageText(r) } : {}),
    suiteVersion: r.suite.version,
    target: r.target,
  });
  return {
    a: side(a, aSource),
    b: side(b, bSource),
    notes: why
      ? [
          `the runs are not strictly comparable: ${why.replace(/^it /, 'A ').replace('this run', 'B').replace(', this is ', ', B is ')}`,
        ]
      : [],
    findings: { new: c.new.map(digestOf), fixed: c.fixed, still: c.still.map(digestOf), notCompared: c.notCompared },
    operations: ids
      .filter((id) => av.get(id) !== bv.get(id))
      .map((id) => ({ id, ...(av.has(id) ? { a: av.get(id) } : {}), ...(bv.has(id) ? { b: bv.get(id) } : {}) })),
  };
}

/** `conformance diff` as text. */
export function formatDiff(d: RunDiff): string[] {
  const line = (f: FindingDigest) =>
    `  ${f.status.toUpperCase()} ${f.level} ${f.check} ×${f.count} on ${f.operations.join(', ')}: ${f.cause}`;
  const lines = [
    `A: ${d.a.source}  ${d.a.verdict}  coverage ${d.a.coverage ?? 'n/a'}  started ${d.a.startedAt}`,
    `B: ${d.b.source}  ${d.b.verdict}  coverage ${d.b.coverage ?? 'n/a'}  started ${d.b.startedAt}`,
    ...d.notes.map((n) => `Note: ${n}`),
    `Verdict: ${d.a.verdict === d.b.verdict ? `unchanged (${d.b.verdict})` : `${d.a.verdict} -> ${d.b.verdict}`}`,
    `Findings: ${d.findings.new.length} new, ${d.findings.fixed.length} fixed, ${d.findings.still.length} still failing${d.findings.notCompared.length > 0 ? `, ${d.findings.notCompared.length} not compared (on operations B did not judge)` : ''}`,
  ];
  if (d.findings.new.length > 0) lines.push('New in B:', ...d.findings.new.map(line));
  if (d.findings.fixed.length > 0) lines.push('Fixed in B:', ...d.findings.fixed.map(line));
  if (d.findings.still.length > 0) lines.push('Still failing:', ...d.findings.still.map(line));
  if (d.findings.notCompared.length > 0)
    lines.push('Not compared (B did not judge these operations):', ...d.findings.notCompared.map(line));
  if (d.operations.length > 0)
    lines.push(
      'Operations whose verdict changed:',
      ...d.operations.map((o) => `  ${o.id}: ${o.a ?? 'not run'} -> ${o.b ?? 'not run'}`),
    );
  return lines;
}
