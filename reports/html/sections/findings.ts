/** report.html section: Failures, warnings and errors first, each with its evidence. */
import { attrs, esc } from '../escape.ts';
import { statusBadge } from '../format.ts';
import { type ReportContext, resultAnchor, section } from '../context.ts';
import { evidenceBlock, replayBlock, resultFacts } from './evidence.ts';

export function findingsSection(ctx: ReportContext): string {
  if (ctx.findings.length === 0)
    return section('findings', 'Failures, warnings and errors', '<p class="muted">None.</p>');
  const items = ctx.findings.map(({ index, result: r }) =>
    [
      `<article class="finding status-${esc(r.status)}"${attrs({ id: resultAnchor(index), 'data-status': r.status, 'data-level': r.level, 'data-document': ctx.documentOf.get(r.operation) ?? '', 'data-operation': r.operation })} data-filterable>`,
      `<h3>${statusBadge(r.status)} <code class="check-id">${esc(r.check)}</code> <span class="check-summary">${esc(r.summary)}</span></h3>`,
      resultFacts(r),
      replayBlock(ctx, r),
      evidenceBlock(ctx, r),
      '</article>',
    ].join('\n'),
  );
  return section('findings', `Failures, warnings and errors (${ctx.findings.length})`, items.join('\n'));
}
