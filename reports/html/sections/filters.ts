/** report.html section: The filter panel (status, level, document, operation, text), hidden until the script shows it. */
import { STATUSES, type Status } from '../../../core/results.ts';
import { TRACE_STATUSES, type TraceStatus } from '../../traceability.ts';
import { esc } from '../escape.ts';
import { countsOf, LEVELS } from '../format.ts';
import type { ReportContext } from '../context.ts';

export const TRACE_LABEL: Record<TraceStatus, string> = {
  pass: 'pass',
  fail: 'fail',
  warn: 'warn',
  skip: 'skip',
  omit: 'omit',
  error: 'error',
  'not-tested': 'not testable',
  'not-run': 'no result',
};

export function selectControl(id: string, label: string, all: string, options: readonly [string, string][]): string {
  const opts = options.map(([value, text]) => `<option value="${esc(value)}">${esc(text)}</option>`).join('');
  return `<label for="${esc(id)}">${esc(label)}</label> <select id="${esc(id)}" data-filter="${esc(id.replace('filter-', ''))}"><option value="">${esc(all)}</option>${opts}</select>`;
}

export function filtersSection(ctx: ReportContext): string {
  const counts = countsOf(ctx.results.results);
  const traceCounts = new Map<TraceStatus, number>();
  for (const row of ctx.trace) traceCounts.set(row.status, (traceCounts.get(row.status) ?? 0) + 1);
  const boxes = TRACE_STATUSES.map((s) => {
    const n = (STATUSES as readonly string[]).includes(s) ? counts[s as Status] : (traceCounts.get(s) ?? 0);
    return `<label class="filter-status"><input type="checkbox" name="status" value="${s}" checked> <span class="badge status-${esc(s)}">${esc(TRACE_LABEL[s])}</span> <span class="count">${n}</span></label>`;
  }).join('\n');
  const documents = [...new Set(ctx.operations.map((o) => o.document).filter((d) => d !== ''))];
  // Hidden until the script runs: without scripts every item is shown and the controls would do nothing.
  return [
    '<section id="filters" class="filters" hidden aria-label="Filters">',
    '<h2>Filters</h2>',
    `<fieldset><legend>Status</legend>\n${boxes}\n</fieldset>`,
    '<p class="filter-selects">',
    selectControl(
      'filter-level',
      'Level',
      'all levels',
      LEVELS.map((l) => [l, l]),
    ),
    selectControl(
      'filter-document',
      'Document',
      'all documents',
      documents.map((d) => [d, d]),
    ),
    selectControl(
      'filter-operation',
      'Operation',
      'all operations',
      ctx.operations.map((o) => [o.id, o.id]),
    ),
    '</p>',
    '<p class="filter-text"><label for="filter-text">Search</label> <input type="search" id="filter-text" placeholder="check, operation, requirement, message" autocomplete="off" aria-keyshortcuts="/"> <button type="button" id="filter-reset">Reset</button> <span class="muted">Press <kbd>/</kbd> to search, <kbd>Esc</kbd> to clear.</span></p>',
    '<p id="filter-count" aria-live="polite"></p>',
    '</section>',
  ].join('\n');
}
