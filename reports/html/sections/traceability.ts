/** report.html section: Requirement traceability: each requirement of the documents with the results that judge it. */
import type { TraceRow, TraceStatus } from '../../traceability.ts';
import { attrs, esc, requirementText } from '../escape.ts';
import { statusBadge } from '../format.ts';
import { joined, type ReportContext, sectionPieces, whole } from '../context.ts';
import { TRACE_LABEL } from './filters.ts';

function traceBadge(status: TraceStatus): string {
  return `<span class="badge status-${esc(status)}">${esc(TRACE_LABEL[status])}</span>`;
}

export function traceabilitySection(ctx: ReportContext): string {
  return whole(traceabilityPieces(ctx));
}

/** One requirement's row. */
function traceRow(row: TraceRow): string {
  const q = row.requirement;
  const checks =
    row.checks.length === 0
      ? `<span class="muted">${esc(row.reason)}</span>`
      : `<ul class="trace-checks">${row.checks
          .map(
            (c) =>
              `<li>${statusBadge(c.status)} <code>${esc(c.check)}</code> on <code>${esc(c.operation)}</code>${c.count > 1 ? ` <span class="muted">×${c.count}</span>` : ''}</li>`,
          )
          .join('')}</ul>`;
  return (
    `<tr class="trace-row"${attrs({ id: `req-${q.id}`, 'data-status': row.status, 'data-level': q.level, 'data-document': q.document, 'data-operations': [...new Set([...q.operations, ...row.checks.map((c) => c.operation)])].join(' ') })} data-filterable>` +
    `<th scope="row"><code>${esc(q.id)}</code></th><td>${esc(q.document)} §${esc(q.section)}</td><td>${esc(q.level)}</td><td>${traceBadge(row.status)}</td>` +
    `<td class="trace-text">${requirementText(q.text)}</td><td>${checks}</td></tr>`
  );
}

/** The section piece by piece, one row per requirement of the table. */
export function* traceabilityPieces(ctx: ReportContext): Generator<string> {
  const intro =
    '<p>Every row of the requirement table (<code>spec/requirements.csv</code> of the suite version that ran), with the checks whose results cite it. ' +
    'A requirement takes the worst status of its results; <em>not testable</em> rows give the reason no black-box check can verify them; <em>no result</em> rows are testable but no result of this run cites them. ' +
    'The same matrix is in <code>requirements-coverage.csv</code>.</p>';
  function* body(): Generator<string> {
    yield `${intro}\n`;
    yield '<div class="scroll"><table id="traceability-table">\n';
    yield '<thead><tr><th scope="col">requirement</th><th scope="col">section</th><th scope="col">level</th><th scope="col">status</th><th scope="col">statement</th><th scope="col">checks and results, or why none</th></tr></thead>\n';
    yield '<tbody>\n';
    yield* joined(ctx.trace, traceRow);
    yield '\n</tbody>\n</table></div>';
  }
  yield* sectionPieces('traceability', `Requirement traceability (${ctx.trace.length})`, body());
}
