/** report.html section: One row per operation: counts, MUST share judged and verdict. */
import { reasonsLabel, shareLabel, type MustCoverage } from '../../../core/coverage.ts';
import { coverageLabel, coverageOf, rowsOfOperation } from '../../traceability.ts';
import { attrs, esc } from '../escape.ts';
import { countCells, statusHeaders, verdictBadge } from '../format.ts';
import { type ReportContext, section } from '../context.ts';

function mustCell(c: MustCoverage | undefined, id: string): string {
  if (!c) return '<td>-</td>';
  const why = [
    Object.keys(c.notJudged).length ? `not judged: ${reasonsLabel(c.notJudged)}` : '',
    Object.keys(c.leftOut).length ? `left out: ${reasonsLabel(c.leftOut)}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return `<td data-must-coverage="${esc(id)}">${esc(shareLabel(c))}${why ? `<br><small>${esc(why)}</small>` : ''}</td>`;
}

export function operationsSection(ctx: ReportContext): string {
  const rows = ctx.operations.map(
    (o) =>
      `<tr class="operation-row"${attrs({ 'data-operation': o.id, 'data-verdict': o.verdict })}>` +
      `<th scope="row"><code>${esc(o.id)}</code></th><td>${esc(o.document)}</td><td>${esc(o.section)}</td><td>${esc(o.summary)}</td>` +
      `${countCells(o.counts)}<td class="num" data-coverage="${esc(o.id)}">${esc(coverageLabel(coverageOf(rowsOfOperation(ctx.trace, o.id))))}</td>` +
      `${mustCell(ctx.results.coverage?.operations[o.id], o.id)}<td>${verdictBadge(o.verdict)}</td></tr>`,
  );
  const table = [
    '<div class="scroll"><table id="operations-table">',
    `<thead><tr><th scope="col">operation</th><th scope="col">document</th><th scope="col">section</th><th scope="col">summary</th>${statusHeaders()}<th scope="col" class="num" title="testable rows of the operation, any level, with a judged result (the MUST coverage is the next column)">rows judged</th><th scope="col" title="testable MUST requirements in scope that were judged, and why the others were not">MUST judged</th><th scope="col">verdict</th></tr></thead>`,
    `<tbody>\n${rows.join('\n')}\n</tbody>`,
    '</table></div>',
  ].join('\n');
  return section('operations', 'Operations', table);
}
