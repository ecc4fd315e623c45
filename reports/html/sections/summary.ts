/** report.html section: Counts by level and status, and the coverage of the MUST requirements judged. */
import { STATUSES } from '../../../core/results.ts';
import { coverageLabel, coverageOf, type TraceStatus } from '../../traceability.ts';
import { esc } from '../escape.ts';
import { countCells, countsOf, LEVELS, statusHeaders } from '../format.ts';
import { type ReportContext, section } from '../context.ts';

export function summarySection(ctx: ReportContext): string {
  const all = ctx.results.results;
  const counts = countsOf(all);
  const byStatus = [
    '<table class="counts" id="counts-by-status">',
    '<caption>Results by status</caption>',
    `<thead><tr>${statusHeaders()}<th scope="col" class="num">total</th></tr></thead>`,
    `<tbody><tr>${STATUSES.map((s) => `<td class="num${counts[s] > 0 ? ` has-${s}` : ''}" data-count="${s}">${counts[s]}</td>`).join('')}<td class="num" data-count="total">${all.length}</td></tr></tbody>`,
    '</table>',
  ].join('\n');
  const levelRows = LEVELS.map((level) => {
    const list = all.filter((x) => x.level === level);
    return `<tr data-level="${level}"><th scope="row">${level}</th>${countCells(countsOf(list))}<td class="num">${list.length}</td></tr>`;
  });
  const byLevel = [
    '<table class="counts" id="counts-by-level">',
    '<caption>Results by level</caption>',
    `<thead><tr><th scope="col">level</th>${statusHeaders()}<th scope="col" class="num">total</th></tr></thead>`,
    `<tbody>\n${levelRows.join('\n')}\n</tbody>`,
    '</table>',
  ].join('\n');
  const cov = coverageOf(ctx.trace);
  const byTrace = new Map<TraceStatus, number>();
  for (const row of ctx.trace) byTrace.set(row.status, (byTrace.get(row.status) ?? 0) + 1);
  const coverage = [
    '<table class="counts" id="coverage-summary">',
    '<caption>Requirements</caption>',
    '<thead><tr><th scope="col">in the table</th><th scope="col">testable</th><th scope="col">verified by this run</th><th scope="col" title="testable rows of any level with a judged result; the MUST coverage that decides the verdict is above">rows judged</th><th scope="col">not testable (reason given)</th><th scope="col">testable, no result</th></tr></thead>',
    `<tbody><tr><td class="num">${cov.total}</td><td class="num">${cov.testable}</td><td class="num">${cov.verified}</td><td class="num" data-coverage="run">${esc(coverageLabel(cov))}</td><td class="num">${byTrace.get('not-tested') ?? 0}</td><td class="num${(byTrace.get('not-run') ?? 0) > 0 ? ' has-warn' : ''}">${byTrace.get('not-run') ?? 0}</td></tr></tbody>`,
    '</table>',
  ].join('\n');
  return section('summary', 'Summary', `${byStatus}\n${byLevel}\n${coverage}`);
}
