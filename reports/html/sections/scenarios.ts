/**
 * report.html section (client runs): the certification scenarios, one row each: how it ended,
 * its MUST failures and its warnings, so a partner sees at once which flows passed.
 */
import { esc } from '../escape.ts';
import { statusBadge } from '../format.ts';
import { type ReportContext, resultAnchor, section } from '../context.ts';

const SCENARIO = /^scenario (\S+)$/;

export const hasScenarios = (ctx: ReportContext): boolean =>
  ctx.results.party === 'client' && ctx.results.results.some((r) => SCENARIO.test(r.test ?? ''));

export function scenariosSection(ctx: ReportContext): string {
  const byScenario = new Map<string, number[]>();
  ctx.results.results.forEach((r, i) => {
    const id = SCENARIO.exec(r.test ?? '')?.[1];
    if (id) byScenario.set(id, [...(byScenario.get(id) ?? []), i]);
  });
  const rows = [...byScenario].map(([id, indexes]) => {
    const results = indexes.map((i) => ctx.results.results[i]);
    const end = results.find((r) => r.check === 'scenario-completed');
    const failed = indexes.filter(
      (i) => ['fail', 'error'].includes(ctx.results.results[i].status) && ctx.results.results[i].level === 'MUST',
    );
    const warned = indexes.filter((i) => ctx.results.results[i].status === 'warn');
    const links = (list: number[]) =>
      list.length === 0
        ? '0'
        : list.map((i) => `<a href="#${esc(resultAnchor(i))}">${esc(ctx.results.results[i].check)}</a>`).join(', ');
    const outcome =
      failed.length > 0 ? 'fail' : end?.status === 'pass' ? (warned.length > 0 ? 'warn' : 'pass') : 'error';
    return `<tr data-scenario="${esc(id)}"><th scope="row"><code>${esc(id)}</code></th><td>${statusBadge(outcome)}</td><td>${esc(end?.message ?? 'no end recorded')}</td><td>${links(failed)}</td><td>${links(warned)}</td></tr>`;
  });
  const table = [
    '<div class="scroll"><table id="scenarios-table">',
    '<thead><tr><th scope="col">scenario</th><th scope="col">outcome</th><th scope="col">how it ended</th><th scope="col">MUST failures and errors</th><th scope="col">warnings</th></tr></thead>',
    `<tbody>\n${rows.join('\n')}\n</tbody>`,
    '</table></div>',
  ].join('\n');
  return section('scenarios', `Scenarios (${rows.length})`, table);
}
