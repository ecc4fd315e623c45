/**
 * What a differential run (`conformance compare`, issue 35) finds, as `compare.json` holds it
 * (its schema: reports/compare.schema.json): the targets compared, the noise left out and why, and
 * the differences grouped like findings, each with an example pair of answers, its replay and the
 * documented rule it breaks, if any. compare.junit.xml and compare.html are rebuilt from it and
 * nothing else. Every exchange in it is masked as results.json masks its evidence.
 */
import type { DifferenceKind } from '../core/answerDiff.ts';
import type { EvidenceMode, ExchangeRecord, RunResults, Verdict } from '../core/results.ts';
import type { Level } from '../spec/types.ts';

export const COMPARE_JSON = 'compare.json';
export const COMPARE_JUNIT = 'compare.junit.xml';
export const COMPARE_HTML = 'compare.html';

/** The candidate is judged against the reference; the second reference teaches the noise. */
export type TargetRole = 'candidate' | 'reference' | 'second';

export interface ComparedTarget {
  role: TargetRole;
  url: string;
  /** Started by the comparison itself (the reference sandbox, `--reference sandbox`, `--second sandbox`). */
  sandbox: boolean;
  /** The config its run used, as given (or the sandbox's demo config). */
  config: string;
  /** Its run's verdict and exit code (the usual report, beside compare.html). */
  verdict: Verdict;
  exitCode: number;
  /** Calls its run made (every one logged: coverage phase, generated cases, state sequences). */
  exchanges: number;
  /** Its report.html, relative to the comparison's folder. */
  report: string;
}

/** Where a path is left out of the comparison, and why. */
export type NoiseSource = 'learned' | 'documented' | 'config';

export interface NoiseEntry {
  source: NoiseSource;
  /** The operation it applies to, or `*` for every one. */
  operation: string;
  /** The path left out (with what lies under it): a JSON pointer with `*` (any index) and `**` (any depth), `status`, `header:NAME`, `exchange`. */
  path: string;
  /** Why: the documents' words, the config's reason, or what the two references showed. */
  why: string;
  /** Differences between the reference and the candidate it left out. */
  suppressed: number;
  /** Learnt noise: what the two references answered there, the first time they differed. */
  example?: { reference?: unknown; second?: unknown };
}

/** A documented row the candidate's run failed on an exchange of the difference. */
export interface BrokenRow {
  requirement: string;
  level: Level;
  /** The row's text, as the documents state it (spec/requirements.csv). */
  text?: string;
  /** The check that failed it and its message, on the candidate. */
  check: string;
  message: string;
}

/** A call of the comparison as it was made: the suite file, the test, and its place among the test's calls. */
export interface CallPlace {
  suite: string;
  test: string;
  ordinal: number;
}

/**
 * Where each answer holds the member that differs, as the example shows and marks it: the
 * reference's place (`path`) and the candidate's (`candidatePath`, else `path`); none on the side
 * that does not hold it (a member gone from the candidate, a member new in it), whose place at
 * `path` is another item's when the member sits under an array compared as a set.
 */
export function placeIn(
  side: 'reference' | 'candidate',
  d: { kind: DifferenceKind; path: string; candidatePath?: string },
): string | undefined {
  if (side === 'candidate') return d.kind === 'member-gone' ? undefined : (d.candidatePath ?? d.path);
  return d.kind === 'member-new' ? undefined : d.path;
}

export interface DifferenceExample {
  /** The pair's index in the comparison. */
  pair: number;
  /**
   * Where in the answer (a JSON pointer, `status`, `header:NAME`, `exchange`): the reference's
   * place (the candidate's for a member new in it); `placeIn` says where each side holds it.
   */
  path: string;
  /** The candidate's place, when another (items of an array compared as a set pair wherever they are). */
  candidatePath?: string;
  reference?: unknown;
  candidate?: unknown;
  place: CallPlace;
  /** The two exchanges (one alone for a call only one run made), masked. */
  exchanges: { reference?: ExchangeRecord; candidate?: ExchangeRecord };
  /** curl commands that send the request again to each target (secrets as environment variables). */
  curl: { reference?: string; candidate?: string };
}

export interface DifferenceGroupRecord {
  /** `d1`, `d2` ...: the group's anchor in compare.html and its JUnit test case. */
  id: string;
  operation: string;
  /** The path with array indexes as `*`. */
  path: string;
  kind: DifferenceKind;
  /** Differences in the group, and the pairs of answers they were found on. */
  count: number;
  pairs: number;
  /** The documented rows the candidate broke on the group's exchanges; empty: no documented rule covers it. */
  breaks: BrokenRow[];
  example: DifferenceExample;
  /** The comparison narrowed to the operation, with the same seed: a command line. */
  replay: string;
}

export interface OperationComparison {
  operation: string;
  /** Pairs of answers compared. */
  pairs: number;
  differences: number;
  groups: number;
  /** Calls only the reference's run made, and only the candidate's. */
  referenceOnly: number;
  candidateOnly: number;
}

/** The counts of a comparison. */
export interface ComparisonSummary {
  pairs: number;
  differences: number;
  groups: number;
  /** Groups that break a documented row. */
  breaking: number;
  referenceOnly: number;
  candidateOnly: number;
  /** Differences left out as noise. */
  suppressed: number;
}

export interface Comparison {
  suite: { name: string; version: string };
  startedAt: string;
  finishedAt: string;
  seed: number;
  runs: number;
  only?: string;
  allowDestructive: boolean;
  evidence: EvidenceMode;
  /** `any`: every difference beyond noise fails the comparison; `documented`: only one that breaks a documented row. */
  failOn: 'any' | 'documented';
  /** `second`: noise learnt from a second reference; `documents`: the documented volatile members. `compare.ignore` applies to both. */
  noiseFrom: 'second' | 'documents';
  /** Candidate, reference, then the second reference when there is one. */
  targets: ComparedTarget[];
  summary: ComparisonSummary;
  /** `different` when a difference fails the comparison under `failOn`. */
  outcome: 'same' | 'different';
  exitCode: number;
  operations: OperationComparison[];
  noise: NoiseEntry[];
  groups: DifferenceGroupRecord[];
}

/**
 * The comparison as the candidate's results.json carries it, sealed with the run (the run is
 * sealed again once the comparison is made, through writeReports): what report.html's section
 * "Comparison with REFERENCE" shows. The groups and their example pairs are compare.json's (masked
 * alike); the noise and the operations are in compare.html, which `page` names beside the report.
 */
export interface ComparisonInReport
  extends Pick<
    Comparison,
    'seed' | 'failOn' | 'noiseFrom' | 'targets' | 'summary' | 'outcome' | 'exitCode' | 'groups'
  > {
  /** compare.html, relative to the report's folder. */
  page: string;
}

/** Results of a run that was the candidate of a comparison. */
export type ComparedResults = RunResults & { comparison?: ComparisonInReport };

/** What the candidate's report carries of a comparison. */
export function comparisonInReport(c: Comparison): ComparisonInReport {
  const { seed, failOn, noiseFrom, targets, summary, outcome, exitCode, groups } = c;
  return { seed, failOn, noiseFrom, targets, summary, outcome, exitCode, groups, page: COMPARE_HTML };
}

/** The comparison a run's results carry, when the run was the candidate of one. */
export const comparisonOf = (results: RunResults): ComparisonInReport | undefined =>
  (results as ComparedResults).comparison;
