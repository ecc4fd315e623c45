/** report.html section: Every result, filterable. */
import { attrs, esc } from '../escape.ts';
import { statusBadge } from '../format.ts';
import { type ReportContext, resultAnchor, section } from '../context.ts';

export function allResultsSection(ctx: ReportContext): string {
  const findingIndexes = new Set(ctx.findings.map((f) => f.index));
  const ordered = ctx.results.results
    .map((result, index) => ({ result, index }))
    .sort(
      (a, b) =>
        (ctx.operationOrder.get(a.result.operation) ?? 0) - (ctx.operationOrder.get(b.result.operation) ?? 0) ||
        a.index - b.index,
    );
  const rows = ordered.map(({ result: r, index }) => {
    const link = findingIndexes.has(index) ? `<a href="#${resultAnchor(index)}">evidence</a>` : '';
    return (
      `<tr class="result-row"${attrs({ 'data-status': r.status, 'data-level': r.level, 'data-document': ctx.documentOf.get(r.operation) ?? '', 'data-operation': r.operation })} data-filterable>` +
      `<td>${statusBadge(r.status)}</td><td>${esc(r.level)}</td><td><code>${esc(r.operation)}</code></td>` +
      `<td><code>${esc(r.check)}</code></td><td>${esc(r.requirements.join(', '))}</td><td class="message">${esc(r.message)}</td><td>${link}</td></tr>`
    );
  });
  const table = [
    '<div class="scroll"><table id="results-table">',
    '<thead><tr><th scope="col">status</th><th scope="col">level</th><th scope="col">operation</th><th scope="col">check</th><th scope="col">requirements</th><th scope="col">message</th><th scope="col"><span class="visually-hidden">evidence</span></th></tr></thead>',
    `<tbody>\n${rows.join('\n')}\n</tbody>`,
    '</table></div>',
  ].join('\n');
  return section(
    'all-results',
    'All results',
    `<details id="all-results-details">\n<summary>Show all ${ctx.results.results.length} results</summary>\n${table}\n</details>`,
  );
}
