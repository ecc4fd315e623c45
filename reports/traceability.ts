/**
 * Requirement traceability: every row of the requirement table carried in results.json, joined
 * to the results that cite it. The same matrix feeds report.html and requirements-coverage.csv.
 */
import { STATUSES, emptyCounts, type CheckResult, type RunResults, type Status } from '../core/results.ts';
import type { Requirement } from '../spec/requirements.ts';
import type { DocumentId } from '../spec/types.ts';

/**
 * A requirement's standing in the run: the worst status of the results citing it, or
 * `not-tested` (no black-box check can verify it: the table gives the reason) or `not-run`
 * (testable, but no result of this run cites it: its operations were not selected, or a gap).
 */
export type TraceStatus = Status | 'not-tested' | 'not-run';

export const TRACE_STATUSES: readonly TraceStatus[] = [...STATUSES, 'not-tested', 'not-run'];

/** Worst first: a requirement with one failing and many passing results is failing. */
const SEVERITY: Record<Status, number> = { fail: 0, error: 1, warn: 2, pass: 3, skip: 4, omit: 5 };

export interface TraceCheck {
  check: string;
  operation: string;
  status: Status;
  /** Results of this (check, operation) pair citing the requirement. */
  count: number;
}

export interface TraceRow {
  requirement: Requirement;
  status: TraceStatus;
  counts: Record<Status, number>;
  /** Distinct (check, operation) pairs, each with its worst status. */
  checks: TraceCheck[];
  /** Why the requirement has no result (empty when it has results). */
  reason: string;
  /** Indexes into `results.results` of the results citing it. */
  results: number[];
}

const worst = (a: Status, b: Status): Status => (SEVERITY[a] <= SEVERITY[b] ? a : b);

/** A judged result verifies a requirement; a skipped or omitted one does not. */
export const isJudged = (s: Status): boolean => s === 'pass' || s === 'fail' || s === 'warn' || s === 'error';

export function traceability(run: RunResults): TraceRow[] {
  const byRequirement = new Map<string, number[]>();
  run.results.forEach((r, i) => {
    for (const id of new Set(r.requirements)) {
      const list = byRequirement.get(id) ?? [];
      list.push(i);
      byRequirement.set(id, list);
    }
  });
  const inRun = new Set(run.operations.map((o) => o.id));
  return run.requirements.map((requirement) => {
    const indexes = byRequirement.get(requirement.id) ?? [];
    const counts = emptyCounts();
    const pairs = new Map<string, TraceCheck>();
    for (const i of indexes) {
      const r = run.results[i] as CheckResult;
      counts[r.status] += 1;
      const key = `${r.check}\u0000${r.operation}`;
      const pair = pairs.get(key);
      if (pair) {
        pair.status = worst(pair.status, r.status);
        pair.count += 1;
      } else {
        pairs.set(key, { check: r.check, operation: r.operation, status: r.status, count: 1 });
      }
    }
    let status: TraceStatus;
    let reason = '';
    if (indexes.length > 0) {
      status = indexes.map((i) => (run.results[i] as CheckResult).status).reduce(worst);
      // A client's row whose flow check was skipped (the flow never reached it) is not passed by
      // the requests judged one at a time: it stays skipped, with the flow's reason.
      const flowSkipped = indexes
        .map((i) => run.results[i] as CheckResult)
        .find((r) => run.party === 'client' && r.exchange === undefined && r.status === 'skip');
      if (status === 'pass' && flowSkipped) {
        status = 'skip';
        reason = `Its flow was not judged (${flowSkipped.check}: ${flowSkipped.message}); only single requests were.`;
      }
    } else if (requirement.notTestedReason !== '') {
      status = 'not-tested';
      reason = requirement.notTestedReason;
    } else {
      status = 'not-run';
      const concerned = requirement.operations;
      reason =
        concerned.length > 0 && !concerned.some((o) => inRun.has(o))
          ? `Its operations (${concerned.join(', ')}) were not part of this run.`
          : 'No result of this run cites it.';
    }
    return { requirement, status, counts, checks: [...pairs.values()], reason, results: indexes };
  });
}

export interface Coverage {
  /** Requirements a black-box check can verify (no not-tested reason). */
  testable: number;
  /** Testable requirements with at least one judged result (pass, fail, warn, error). */
  verified: number;
  /** Requirements the table marks as not testable. */
  notTestable: number;
  total: number;
}

export function coverageOf(rows: readonly TraceRow[]): Coverage {
  const testable = rows.filter((r) => r.requirement.notTestedReason === '' || r.results.length > 0);
  return {
    testable: testable.length,
    verified: testable.filter((r) => r.checks.some((c) => isJudged(c.status))).length,
    notTestable: rows.length - testable.length,
    total: rows.length,
  };
}

/** Rows concerning a document. */
export const rowsOfDocument = (rows: readonly TraceRow[], document: DocumentId | string): TraceRow[] =>
  rows.filter((r) => r.requirement.document === document);

/** Rows concerning an operation: the table names it, or a result on it cites the requirement. */
export const rowsOfOperation = (rows: readonly TraceRow[], operation: string): TraceRow[] =>
  rows.filter((r) => r.requirement.operations.includes(operation) || r.checks.some((c) => c.operation === operation));

/** `verified / testable` as a percentage with no decimals, or `n/a`. */
export function coverageLabel(c: Coverage): string {
  if (c.testable === 0) return 'n/a';
  return `${Math.floor((100 * c.verified) / c.testable)}% (${c.verified}/${c.testable})`;
}

// ---------------------------------------------------------------------------------------------
// requirements-coverage.csv

export const COVERAGE_CSV_HEADER = [
  'requirement',
  'document',
  'section',
  'level',
  'operations',
  'status',
  'checks',
  ...STATUSES,
  'reason',
  'text',
] as const;

/** RFC 4180: every field quoted, quotes doubled, CRLF line ends (what spreadsheet tools expect). */
function csvField(value: string | number): string {
  return `"${String(value).replace(/"/g, '""')}"`;
}

export function renderCoverageCsv(run: RunResults): string {
  const lines = [COVERAGE_CSV_HEADER.map(csvField).join(',')];
  for (const row of traceability(run)) {
    const r = row.requirement;
    lines.push(
      [
        r.id,
        r.document,
        r.section,
        r.level,
        r.operations.join(' '),
        row.status,
        row.checks.map((c) => `${c.check}@${c.operation}:${c.status}`).join('; '),
        ...STATUSES.map((s) => row.counts[s]),
        row.reason,
        r.text,
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
