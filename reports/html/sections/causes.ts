/**
 * report.html section: the findings grouped by cause (core/findings.ts), the page's first read
 * after the verdict (issue 24). Each cause is one expandable entry: how often and on which
 * operations it failed, the requirements it breaks, what to change, its shortest example, and, on
 * demand, every result it holds (links to their cards in "Failures, warnings and errors", which
 * keep the evidence).
 */
import type { Finding } from '../../../core/findings.ts';
import { attrs, esc } from '../escape.ts';
import { statusBadge } from '../format.ts';
import { joined, type ReportContext, resultAnchor, section, sectionPieces, whole } from '../context.ts';

export const causeAnchor = (f: Pick<Finding, 'key'>): string => `cause-${f.key}`;

export function causesSection(ctx: ReportContext): string {
  return whole(causesPieces(ctx));
}

/** The section piece by piece, one cause at a time (a cause lists every result it holds). */
export function* causesPieces(ctx: ReportContext): Generator<string> {
  if (ctx.causes.length === 0) {
    yield section('causes', 'Findings', '<p class="muted">None.</p>');
    return;
  }
  const total = ctx.causes.reduce((n, f) => n + f.results.length, 0);
  const intro = `<p class="causes-intro">${ctx.causes.length} ${ctx.causes.length === 1 ? 'cause' : 'causes'} of ${total} ${total === 1 ? 'result' : 'results'} that failed, erred or warned: MUST failures first, then by how many operations each touches. A result repeated on many requests is one finding.</p>`;
  function* body(): Generator<string> {
    yield `${intro}\n<ol class="causes">\n`;
    let n = 0;
    yield* joined(ctx.causes, (f) => causeItem(ctx, f, ++n));
    yield '\n</ol>';
  }
  yield* sectionPieces('causes', `Findings (${ctx.causes.length})`, body());
}

function causeItem(ctx: ReportContext, f: Finding, n: number): string {
  const example = ctx.results.results[f.example];
  const times = f.results.length === 1 ? 'once' : `${f.results.length} times`;
  const mark = ctx.baselineMarks?.get(f.key);
  // Each distinct result once, with how many times it was seen (a cause repeated on many requests
  // often repeats one message word for word), linked to its first occurrence.
  const distinct = new Map<string, { first: number; count: number; operation: string; message: string }>();
  for (const i of f.results) {
    const r = ctx.results.results[i];
    if (!r) continue;
    const key = `${r.operation}\u0000${r.message}`;
    const seen = distinct.get(key);
    if (seen) seen.count++;
    else distinct.set(key, { first: i, count: 1, operation: r.operation, message: r.message });
  }
  const results = [...distinct.values()]
    .map(
      (d) =>
        `<li><a href="#${esc(resultAnchor(d.first))}">${esc(d.operation)}</a>: ${esc(d.message)}${d.count > 1 ? ` <span class="times">×${d.count}</span>` : ''}</li>`,
    )
    .join('\n');
  return [
    `<li class="cause status-${esc(f.status)}"${attrs({ id: causeAnchor(f), 'data-level': f.level, 'data-status': f.status, 'data-key': f.key })}>`,
    '<details class="cause-details">',
    `<summary>${statusBadge(f.status)} <span class="level">${esc(f.level)}</span> <code class="check-id">${esc(f.check)}</code> ${esc(times)} on ${esc(f.operations.join(', '))}${mark ? ` <span class="baseline-mark baseline-${esc(mark.replace(/\s+/g, '-'))}">${esc(mark)}</span>` : ''}</summary>`,
    `<p class="cause-change"><strong>What to change:</strong> ${esc(f.change)}</p>`,
    example
      ? `<p class="cause-example"><strong>Example</strong> (${esc(example.operation)}): ${esc(example.message)}</p>`
      : '',
    `<p class="cause-requirements"><strong>Requirements:</strong> ${f.requirements.map((id) => `<code>${esc(id)}</code>`).join(' ') || '(none)'}</p>`,
    `<p class="cause-results-label">${n}. The ${f.results.length === 1 ? 'result' : `${f.results.length} results`} of this cause${distinct.size < f.results.length ? `, ${distinct.size} distinct` : ''}:</p>`,
    `<ul class="cause-results">\n${results}\n</ul>`,
    '</details>',
    '</li>',
  ].join('\n');
}
