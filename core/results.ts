/**
 * The canonical results model. `results.json` is exactly a `RunResults`; every other report
 * (junit.xml, report.html) is rebuilt from it.
 */
import type { Decision } from '../spec/decisions.ts';
import type { Requirement } from '../spec/requirements.ts';
import type { DocumentId, Level } from '../spec/types.ts';
import type { ConformanceRunConfiguration } from './configTypes.ts';

export type Status = 'pass' | 'fail' | 'warn' | 'skip' | 'omit' | 'error';
export const STATUSES: readonly Status[] = ['pass', 'fail', 'warn', 'skip', 'omit', 'error'];

export type Verdict = 'conformant' | 'not-conformant' | 'inconclusive';

/** One HTTP request and its answer, secrets already masked. */
export interface ExchangeRecord {
  method: string;
  url: string;
  operation?: string;
  startedAt: string;
  /** Milliseconds from sending the request to the end of the response body. */
  duration: number;
  request: { headers: Record<string, string>; body?: string };
  /** Absent when no response arrived (see `error`). */
  status?: number;
  response?: { headers: Record<string, string>; body: string; size: number; truncated: boolean };
  /** Transport failure: refused connection, time-out, size cap, ... */
  error?: string;
}

export interface CheckResult {
  check: string;
  /** One-line statement of what the check asserts. */
  summary: string;
  operation: string;
  requirements: string[];
  level: Level;
  status: Status;
  message: string;
  /** Index into `RunResults.exchanges`. */
  exchange?: number;
  /** The vitest test (suite title path) that produced the result. */
  test?: string;
  evidence?: Record<string, unknown>;
  /** Property-based cases: how to replay (`--seed`, `--path`). */
  replay?: { seed: number; path?: string; counterexample?: unknown };
}

export interface OperationSummary {
  id: string;
  document: DocumentId;
  section: string;
  summary: string;
  counts: Record<Status, number>;
  /** Worst MUST outcome for the operation, used for the per-operation verdict column. */
  verdict: Verdict;
}

/** Who ran the suite, against what, for whom: the config's `attestation`, as stated there. */
export type Attestation = NonNullable<ConformanceRunConfiguration['attestation']>;

/** `masked` (default) masks personal data in every artefact; `full` keeps it (secrets stay masked). */
export type EvidenceMode = 'masked' | 'full';

export interface MustCoverage {
  /** Testable MUST requirements of the operation(s) in the share (selected, not left out by choice). */
  inScope: number;
  /** Of those, the ones with a pass, fail or warn result. */
  judged: number;
  /** In the share but not judged: reason -> number of requirements. */
  notJudged: Record<string, number>;
  /** Left out by the user's choice, outside the share: reason -> number of requirements. */
  leftOut: Record<string, number>;
}

export interface RunCoverage {
  /** The minimum share of judged requirements for a conclusive verdict (0 to 1). */
  minimum: number;
  overall: MustCoverage;
  operations: Record<string, MustCoverage>;
}

/** SHA-256 of the canonical content of results.json (every member but `integrity`, see core/integrity.ts). */
export interface Integrity {
  algorithm: 'sha256';
  canonicalization: 'json-sorted-keys';
  digest: string;
}

export interface RunResults {
  suite: { name: string; version: string };
  target: string;
  configDigest: string;
  attestation: Attestation;
  /** `masked`: secrets and personal data masked; `full`: personal data kept (a private run). */
  evidence: EvidenceMode;
  seed: number;
  runs: number;
  allowDestructive: boolean;
  only?: string;
  startedAt: string;
  finishedAt: string;
  verdict: Verdict;
  /** Why the verdict is inconclusive although no MUST failed or erred (too little was judged). */
  verdictReason?: string;
  /** How much of the testable MUST requirements in scope was judged, overall and per operation (core/coverage.ts). */
  coverage?: RunCoverage;
  summary: Record<Status, number>;
  operations: OperationSummary[];
  results: CheckResult[];
  exchanges: ExchangeRecord[];
  /** Decision ids (spec/decisions.md) that the run's checks applied. */
  decisions: string[];
  /** The applied decisions' rows, so the report needs nothing but this file. */
  appliedDecisions: Decision[];
  /** The requirement table of the suite version that ran (spec/requirements.csv), for traceability. */
  requirements: Requirement[];
  /** Whose conformance the report judges: absent for a server, `client` for a partner's client (certify-client, pact check). */
  party?: 'client';
  /** This run judged one shard of the operations (`--shard I/N`); `conformance merge` joins the parts. */
  shard?: { index: number; count: number };
  /** Merged by `conformance merge` from this many shard runs. */
  mergedFrom?: number;
  /** The run was stopped (Ctrl-C) before every suite had run; `notRun`: the operations with no result judged. */
  interrupted?: { notRun: string[] };
  /** What answers refusing for load (HTTP 429, or 503 with Retry-After) cost the run: absent when none came. */
  load?: { retries: number; waitedMs: number; gaveUp: number };
  /** Who signs the report (a certification service), stated before sealing; the signature is signature.jws beside it. */
  signedBy?: SignedBy;
  /** The run was compared with a baseline (`--baseline`): which, and each finding new, still failing or fixed. */
  baseline?: BaselineRecord;
  integrity?: Integrity;
}

/** Who signs a report, as the results may state it before they are sealed (shown in report.html). */
export interface SignedBy {
  /** The signer's name (the operator of a certification service). */
  name: string;
  /** The key id the signature will name. */
  kid: string;
  /** Where its public keys are published (a JWKS URL), when they are. */
  jwks?: string;
}

/** What a report records about the baseline it was compared with. */
export interface BaselineRecord {
  /** The baseline as given (a report folder or a results.json), and what it was. */
  source: string;
  startedAt: string;
  verdict: Verdict;
  /** The baseline's integrity digest, when it had one. */
  digest?: string;
  /** `new`: the exit code counts only new MUST findings. */
  failOn: 'any' | 'new';
  /**
   * Keys of the run's findings that the baseline did not have: a cause new, or a known cause on an
   * operation the baseline did not fail with it.
   */
  new: string[];
  /** For a new finding whose cause the baseline had on other operations: the operations it is new on. */
  newOn?: Record<string, string[]>;
  /** Keys of the run's findings that the baseline had too. */
  still: string[];
  /** The baseline's findings the run no longer has, on operations it judged. */
  fixed: FindingDigest[];
  /** The baseline's findings on operations this run did not judge (a shard, `--only`): not compared. */
  notCompared?: FindingDigest[];
}

/** A finding as a comparison lists it: enough to name it without the run it came from. */
export interface FindingDigest {
  key: string;
  check: string;
  level: Level;
  status: 'fail' | 'error' | 'warn';
  operations: string[];
  count: number;
  cause: string;
}

export function emptyCounts(): Record<Status, number> {
  return { pass: 0, fail: 0, warn: 0, skip: 0, omit: 0, error: 0 };
}

/**
 * The verdict over a set of results: a MUST failure makes the target not conformant; a MUST that
 * could not be judged (error), or no MUST judged at all, makes the run inconclusive.
 */
export function verdictOf(results: readonly Pick<CheckResult, 'level' | 'status'>[]): Verdict {
  const must = results.filter((r) => r.level === 'MUST');
  if (must.some((r) => r.status === 'fail')) return 'not-conformant';
  if (must.some((r) => r.status === 'error')) return 'inconclusive';
  if (!must.some((r) => r.status === 'pass')) return 'inconclusive';
  return 'conformant';
}

export const EXIT = { conformant: 0, notConformant: 1, usage: 2, inconclusive: 3 } as const;

export function exitCodeOf(verdict: Verdict): number {
  if (verdict === 'conformant') return EXIT.conformant;
  if (verdict === 'not-conformant') return EXIT.notConformant;
  return EXIT.inconclusive;
}
