/**
 * The operations of a run in report order (document, then section in numeric order, then id),
 * with a row for every operation that has results but no summary, so no result is ever dropped.
 */
import {
  emptyCounts,
  verdictOf,
  type CheckResult,
  type RunResults,
  type Status,
  type Verdict,
} from '../core/results.ts';

export interface OperationRow {
  id: string;
  /** Empty when the run has results for an operation it does not summarise. */
  document: string;
  section: string;
  summary: string;
  counts: Record<Status, number>;
  verdict: Verdict;
  /** False for operations found only in results. */
  known: boolean;
}

const collator = new Intl.Collator('en', { numeric: true });

/** Known before unknown, then document, then section as dotted numbers (4.2 < 4.10), then id. */
export function compareOperations(a: OperationRow, b: OperationRow): number {
  return (
    Number(b.known) - Number(a.known) ||
    collator.compare(a.document, b.document) ||
    collator.compare(a.section, b.section) ||
    collator.compare(a.id, b.id)
  );
}

export function operationRows(results: RunResults): OperationRow[] {
  const rows: OperationRow[] = results.operations.map((o) => ({ ...o, known: true }));
  const known = new Set(rows.map((o) => o.id));
  const orphans = new Map<string, CheckResult[]>();
  for (const r of results.results) {
    if (known.has(r.operation)) continue;
    const list = orphans.get(r.operation) ?? [];
    list.push(r);
    orphans.set(r.operation, list);
  }
  for (const [id, list] of orphans) {
    const counts = emptyCounts();
    for (const r of list) counts[r.status] += 1;
    rows.push({ id, document: '', section: '', summary: '', counts, verdict: verdictOf(list), known: false });
  }
  return rows.sort(compareOperations);
}

/** The results of one operation, in recorded order. */
export function resultsOf(results: RunResults, operation: string): CheckResult[] {
  return results.results.filter((r) => r.operation === operation);
}
