/** report.html section: The decisions of spec/decisions.md that the run applied. */
import { esc } from '../escape.ts';
import { type ReportContext, section } from '../context.ts';

export function decisionsSection(ctx: ReportContext): string {
  const applied = ctx.results.appliedDecisions;
  if (applied.length === 0)
    return section(
      'decisions',
      'Decisions applied',
      '<p class="muted">No decision on an open point of the documents applied to this run.</p>',
    );
  const rows = applied.map(
    (d) =>
      `<tr id="${esc(d.id)}"><th scope="row"><code>${esc(d.id)}</code></th><td>${esc(d.documentSays)}</td><td>${esc(d.suiteDoes)}</td><td>${esc(d.level)}</td></tr>`,
  );
  const intro =
    '<p>Points the documents leave open or state two ways, as <code>spec/decisions.md</code> settles them, that checks of this run applied. The suite never fails a target on a point the documents leave open: such checks are INFO observations.</p>';
  const table = [
    '<div class="scroll"><table id="decisions-table">',
    '<thead><tr><th scope="col">decision</th><th scope="col">the documents say</th><th scope="col">the suite does</th><th scope="col">level</th></tr></thead>',
    `<tbody>\n${rows.join('\n')}\n</tbody>`,
    '</table></div>',
  ].join('\n');
  return section('decisions', `Decisions applied (${applied.length})`, `${intro}\n${table}`);
}

/** The page, top to bottom. */
