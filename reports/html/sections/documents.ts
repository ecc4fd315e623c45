/** report.html section: One row per document: counts and the MUST share judged. */
import { verdictOf } from '../../../core/results.ts';
import { coverageLabel, coverageOf, rowsOfDocument } from '../../traceability.ts';
import { esc } from '../escape.ts';
import { countCells, countsOf, statusHeaders, verdictBadge } from '../format.ts';
import { type ReportContext, section } from '../context.ts';

export function documentsSection(ctx: ReportContext): string {
  const docs = [...new Set(ctx.operations.map((o) => o.document))];
  const rows = docs.map((doc) => {
    const ids = new Set(ctx.operations.filter((o) => o.document === doc).map((o) => o.id));
    const list = ctx.results.results.filter((r) => ids.has(r.operation));
    const verdict = verdictOf(list);
    const coverage = coverageLabel(coverageOf(rowsOfDocument(ctx.trace, doc)));
    return `<tr data-document="${esc(doc)}"><th scope="row">${esc(doc || '(unknown)')}</th><td class="num">${ids.size}</td>${countCells(countsOf(list))}<td class="num" data-coverage="${esc(doc)}">${esc(coverage)}</td><td>${verdictBadge(verdict)}</td></tr>`;
  });
  const table = [
    '<table id="documents-table">',
    `<thead><tr><th scope="col">document</th><th scope="col" class="num">operations</th>${statusHeaders()}<th scope="col" class="num" title="testable rows of the document, any level, with a judged result (not the MUST coverage of the verdict)">rows judged</th><th scope="col">verdict</th></tr></thead>`,
    `<tbody>\n${rows.join('\n')}\n</tbody>`,
    '</table>',
  ].join('\n');
  return section('documents', 'Documents', table);
}

/** The operation's judged share of its testable MUST requirements, with the reasons for the rest. */
