/** report.html section: Failures, warnings and errors first, each with its evidence. */
import type { Requirement } from '../../../spec/requirements.ts';
import { attrs, esc, requirementText } from '../escape.ts';
import { statusBadge } from '../format.ts';
import { joined, type ReportContext, resultAnchor, section, sectionPieces, whole } from '../context.ts';
import { CLIENT_ADVICE } from '../clientAdvice.ts';
import { evidenceBlock, replayBlock, resultFacts } from './evidence.ts';

export function findingsSection(ctx: ReportContext): string {
  return whole(findingsPieces(ctx));
}

/**
 * The section piece by piece, one finding at a time: a run against a misbehaving target has
 * hundreds of findings, each showing up to 20 KB of a body.
 */
export function* findingsPieces(ctx: ReportContext): Generator<string> {
  if (ctx.findings.length === 0) {
    yield section('findings', 'Failures, warnings and errors', '<p class="muted">None.</p>');
    return;
  }
  const quotes = new Map(ctx.results.requirements.map((q) => [q.id, q]));
  yield* sectionPieces(
    'findings',
    `Failures, warnings and errors (${ctx.findings.length})`,
    joined(ctx.findings, ({ index, result: r }) =>
      [
        `<article class="finding status-${esc(r.status)}"${attrs({ id: resultAnchor(index), 'data-status': r.status, 'data-level': r.level, 'data-document': ctx.documentOf.get(r.operation) ?? '', 'data-operation': r.operation })} data-filterable>`,
        `<h3>${statusBadge(r.status)} <code class="check-id">${esc(r.check)}</code> <span class="check-summary">${esc(r.summary)}</span></h3>`,
        resultFacts(r),
        requirementQuotes(quotes, r.requirements),
        ctx.results.party === 'client' && CLIENT_ADVICE[r.check]
          ? `<p class="advice"><strong>What to change:</strong> ${esc(CLIENT_ADVICE[r.check])}</p>`
          : '',
        replayBlock(ctx, r),
        evidenceBlock(ctx, r),
        '</article>',
      ].join('\n'),
    ),
  );
}

/** The rows a result cites, quoted from the requirement table (the documents' words). */
function requirementQuotes(text: ReadonlyMap<string, Requirement>, ids: readonly string[]): string {
  const quoted = ids.flatMap((id) => {
    const q = text.get(id);
    return q
      ? [
          `<li><code>${esc(id)}</code> (${esc(q.level)}, ${esc(q.document)} ${esc(q.section)}): ${requirementText(q.text)}</li>`,
        ]
      : [];
  });
  return quoted.length > 0 ? `<ul class="requirement-quotes">\n${quoted.join('\n')}\n</ul>` : '';
}
