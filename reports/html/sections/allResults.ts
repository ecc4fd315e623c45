/** report.html section: Every result, filterable. */
import { attrs, esc } from '../escape.ts';
import { statusBadge } from '../format.ts';
import { joined, type ReportContext, resultAnchor, sectionPieces, whole } from '../context.ts';

export function allResultsSection(ctx: ReportContext): string {
  return whole(allResultsPieces(ctx));
}

/** The section piece by piece, one row per result (a run has thousands). */
export function* allResultsPieces(ctx: ReportContext): Generator<string> {
  const findingIndexes = new Set(ctx.findings.map((f) => f.index));
  // Indexes only: the rows are made one at a time as the page is written.
  const ordered = ctx.results.results
    .map((_, index) => index)
    .sort(
      (a, b) =>
        (ctx.operationOrder.get(ctx.results.results[a].operation) ?? 0) -
          (ctx.operationOrder.get(ctx.results.results[b].operation) ?? 0) || a - b,
    );
  const row = (index: number): string => {
    const r = ctx.results.results[index];
    const link = findingIndexes.has(index) ? `<a href="#${resultAnchor(index)}">evidence</a>` : '';
    return (
      `<tr class="result-row"${attrs({ 'data-status': r.status, 'data-level': r.level, 'data-document': ctx.documentOf.get(r.operation) ?? '', 'data-operation': r.operation })} data-filterable>` +
      `<td>${statusBadge(r.status)}</td><td>${esc(r.level)}</td><td><code>${esc(r.operation)}</code></td>` +
      `<td><code>${esc(r.check)}</code></td><td>${esc(r.requirements.join(', '))}</td><td class="message">${esc(r.message)}</td><td>${link}</td></tr>`
    );
  };
  function* body(): Generator<string> {
    yield `<details id="all-results-details">\n<summary>Show all ${ctx.results.results.length} results</summary>\n`;
    yield '<div class="scroll"><table id="results-table">\n';
    yield '<thead><tr><th scope="col">status</th><th scope="col">level</th><th scope="col">operation</th><th scope="col">check</th><th scope="col">requirements</th><th scope="col">message</th><th scope="col"><span class="visually-hidden">evidence</span></th></tr></thead>\n';
    yield '<tbody>\n';
    yield* joined(ordered, row);
    yield '\n</tbody>\n</table></div>\n</details>';
  }
  yield* sectionPieces('all-results', 'All results', body());
}
