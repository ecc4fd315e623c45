import { baselineMarks as marksOf } from '../../core/baseline.ts';
import { type Finding, findingsOf } from '../../core/findings.ts';
import type { CheckResult, RunResults, Status } from '../../core/results.ts';
import { integrityOf, type IntegrityState } from '../../core/integrity.ts';
import { operationRows, type OperationRow } from '../operationRows.ts';
import { traceability, type TraceRow } from '../traceability.ts';
import { esc } from './escape.ts';

/** Everything a section may need, computed once. */
export interface ReportContext {
  results: RunResults;
  /** Operations in report order (document, section). */
  operations: OperationRow[];
  /** Position of each operation in report order, for sorting results. */
  operationOrder: Map<string, number>;
  /** fail, error and warn results (with their index in `results.results`), worst first. */
  findings: { index: number; result: CheckResult }[];
  /** The findings grouped by cause (core/findings.ts), worst first. */
  causes: Finding[];
  /** With a baseline: its mark (new, still failing) per finding key. */
  baselineMarks?: ReadonlyMap<string, string>;
  /** Every requirement of the table with the results citing it. */
  trace: TraceRow[];
  /** Operation id -> document, for filtering results by document. */
  documentOf: Map<string, string>;
  integrity: IntegrityState;
}

export interface ReportSection {
  /** Anchor id of the section element. */
  id: string;
  /** Label in the page's table of contents. */
  title: string;
  render: (ctx: ReportContext) => string;
  /**
   * The same text as `render`, piece by piece: a section that grows with the run (one entry per
   * result) gives it, so that the page is written to its file as it is made, never held whole.
   */
  pieces?: (ctx: ReportContext) => Iterable<string>;
  /** False when the section has nothing to say for this run (left out of the page and its contents). */
  applies?: (ctx: ReportContext) => boolean;
}

export const FINDING_ORDER: Partial<Record<Status, number>> = { fail: 0, error: 1, warn: 2 };

/**
 * @param integrity the state of the results' digest when the caller knows it already (it has just
 *   sealed or checked them): the digest walks every result and exchange again otherwise.
 */
export function reportContext(results: RunResults, integrity?: IntegrityState): ReportContext {
  const baselineMarks = results.baseline ? marksOf(results.baseline) : undefined;
  const operations = operationRows(results);
  const operationOrder = new Map(operations.map((o, i) => [o.id, i]));
  const findings = results.results
    .map((result, index) => ({ index, result }))
    .filter((f) => FINDING_ORDER[f.result.status] !== undefined)
    .sort(
      (a, b) =>
        (FINDING_ORDER[a.result.status] ?? 9) - (FINDING_ORDER[b.result.status] ?? 9) ||
        (operationOrder.get(a.result.operation) ?? 0) - (operationOrder.get(b.result.operation) ?? 0) ||
        a.index - b.index,
    );
  const documentOf = new Map(operations.map((o) => [o.id, o.document]));
  return {
    results,
    operations,
    operationOrder,
    findings,
    causes: findingsOf(results),
    ...(baselineMarks ? { baselineMarks } : {}),
    trace: traceability(results),
    documentOf,
    integrity: integrity ?? integrityOf(results),
  };
}

/** Anchor of one result's evidence. */
export const resultAnchor = (index: number): string => `result-${index}`;

export function section(id: string, title: string, body: string, extra = ''): string {
  return `<section id="${esc(id)}"${extra}>\n<h2>${esc(title)}</h2>\n${body}\n</section>`;
}

/** `section` piece by piece: its body's pieces between the opening and the closing tags. */
export function* sectionPieces(id: string, title: string, body: Iterable<string>, extra = ''): Generator<string> {
  yield `<section id="${esc(id)}"${extra}>\n<h2>${esc(title)}</h2>\n`;
  yield* body;
  yield '\n</section>';
}

/** The items' pieces with `separator` between items, as `items.join(separator)` would give them. */
export function* joined<T>(items: Iterable<T>, piece: (item: T) => string, separator = '\n'): Generator<string> {
  let first = true;
  for (const item of items) {
    yield first ? piece(item) : `${separator}${piece(item)}`;
    first = false;
  }
}

/** A section's text whole, from its pieces (the page writer takes the pieces instead). */
export const whole = (pieces: Iterable<string>): string => [...pieces].join('');
