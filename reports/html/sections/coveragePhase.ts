/**
 * report.html section: the deterministic coverage phase that runs before the random property
 * phase (issue 14, item 3). One row per operation whose phase ran (its `coverage-phase-served`
 * result): how it ended, how many requests were sent, passed, failed, warned or not sent, and
 * every value and boundary exercised, grouped by aspect. It also says how many selected operations
 * have no coverage phase result, so the page never claims more than was judged.
 */
import type { CheckResult } from '../../../core/results.ts';
import { attrs, esc } from '../escape.ts';
import { statusBadge } from '../format.ts';
import { type ReportContext, resultAnchor, section } from '../context.ts';

/** The check whose result carries an operation's coverage phase (`evidence.coveragePhase`). */
export const COVERAGE_PHASE_CHECK = 'coverage-phase-served';

export type CoveragePhaseOutcome = 'pass' | 'fail' | 'warn' | 'not-sent';

export interface CoveragePhaseEntry {
  label: string;
  aspect: string;
  parameter?: string;
  outcome: CoveragePhaseOutcome;
  status?: number;
  why?: string;
}

/** Aspects in the order the phase exercises them, each with its heading in the page. */
const ASPECTS: readonly (readonly [string, string])[] = [
  ['required-only', 'Required parameters only'],
  ['enum-value', 'Enum values'],
  ['boolean-value', 'Boolean values'],
  ['count-minimum', 'count: minimum'],
  ['count-maximum', 'count: maximum'],
  ['page-first', 'page: first page'],
  ['page-past-the-last', 'page: past the last page'],
  ['integer-minimum', 'Integers: minimum'],
  ['integer-maximum', 'Integers: maximum'],
  ['near-unit-radius-smallest', 'near: each unit, smallest radius'],
  ['near-unit-radius-widest', 'near: each unit, widest radius'],
  ['near-centre-edge', 'near: centre at the edge'],
  ['comparator', 'Comparators'],
  ['field', 'Other fields'],
  ['feature-without', 'Feature-gated parameters without their feature'],
  ['invalid-missing', 'Invalid: missing'],
  ['invalid-empty', 'Invalid: empty'],
  ['invalid-format', 'Invalid: format'],
  ['invalid-range', 'Invalid: range'],
  ['invalid-enum', 'Invalid: enum'],
];
const ASPECT_HEADING = new Map(ASPECTS);
const ASPECT_ORDER = new Map(ASPECTS.map(([aspect], i) => [aspect, i]));

const OUTCOMES: readonly CoveragePhaseOutcome[] = ['pass', 'fail', 'warn', 'not-sent'];
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * The entries of a `coverage-phase-served` result. results.json may come from another version or
 * be edited by hand: malformed entries are dropped here rather than breaking the page.
 */
export function coveragePhaseEntries(result: CheckResult): CoveragePhaseEntry[] {
  const phase = result.evidence?.coveragePhase;
  if (!isRecord(phase) || !Array.isArray(phase.entries)) return [];
  return phase.entries.flatMap((e: unknown): CoveragePhaseEntry[] => {
    if (!isRecord(e) || typeof e.label !== 'string' || typeof e.aspect !== 'string') return [];
    if (!OUTCOMES.includes(e.outcome as CoveragePhaseOutcome)) return [];
    return [
      {
        label: e.label,
        aspect: e.aspect,
        outcome: e.outcome as CoveragePhaseOutcome,
        ...(typeof e.parameter === 'string' ? { parameter: e.parameter } : {}),
        ...(typeof e.status === 'number' ? { status: e.status } : {}),
        ...(typeof e.why === 'string' ? { why: e.why } : {}),
      },
    ];
  });
}

/** Results of the coverage phase with their index in `results.results`, in report order. */
function phaseResults(ctx: ReportContext): { index: number; result: CheckResult }[] {
  return ctx.results.results
    .map((result, index) => ({ index, result }))
    .filter((r) => r.result.check === COVERAGE_PHASE_CHECK)
    .sort(
      (a, b) =>
        (ctx.operationOrder.get(a.result.operation) ?? 1e9) - (ctx.operationOrder.get(b.result.operation) ?? 1e9) ||
        a.index - b.index,
    );
}

export const hasCoveragePhase = (ctx: ReportContext): boolean =>
  ctx.results.results.some((r) => r.check === COVERAGE_PHASE_CHECK);

export interface CoveragePhaseCounts {
  sent: number;
  passed: number;
  failed: number;
  warned: number;
  notSent: number;
}

export function coveragePhaseCounts(entries: readonly CoveragePhaseEntry[]): CoveragePhaseCounts {
  const of = (o: CoveragePhaseOutcome) => entries.filter((e) => e.outcome === o).length;
  return {
    sent: entries.length - of('not-sent'),
    passed: of('pass'),
    failed: of('fail'),
    warned: of('warn'),
    notSent: of('not-sent'),
  };
}

function outcomeBadge(outcome: CoveragePhaseOutcome): string {
  return outcome === 'not-sent' ? '<span class="badge status-skip">not sent</span>' : statusBadge(outcome);
}

function entryRow(e: CoveragePhaseEntry): string {
  const cells = [
    `<td><code>${esc(e.label)}</code></td>`,
    `<td class="num">${e.status === undefined ? '<span class="muted">-</span>' : esc(String(e.status))}</td>`,
    `<td>${outcomeBadge(e.outcome)}</td>`,
    `<td class="message">${e.why === undefined ? '' : esc(e.why)}</td>`,
  ];
  return `<tr${attrs({ 'data-outcome': e.outcome, 'data-parameter': e.parameter })}>${cells.join('')}</tr>`;
}

/** One operation's entries, one `<tbody>` per aspect in the order the phase exercises them. */
function entriesTable(entries: readonly CoveragePhaseEntry[]): string {
  const groups = new Map<string, CoveragePhaseEntry[]>();
  for (const e of entries) groups.set(e.aspect, [...(groups.get(e.aspect) ?? []), e]);
  const bodies = [...groups]
    .sort(([a], [b]) => (ASPECT_ORDER.get(a) ?? 1e9) - (ASPECT_ORDER.get(b) ?? 1e9) || a.localeCompare(b))
    .map(
      ([aspect, list]) =>
        `<tbody${attrs({ 'data-aspect': aspect })}><tr><th scope="rowgroup" colspan="4">${esc(ASPECT_HEADING.get(aspect) ?? aspect)} (${list.length})</th></tr>\n` +
        `${list.map(entryRow).join('\n')}\n</tbody>`,
    );
  return [
    '<table class="coverage-phase-entries">',
    '<thead><tr><th scope="col">value or boundary exercised</th><th scope="col" class="num">HTTP status</th><th scope="col">outcome</th><th scope="col">why</th></tr></thead>',
    ...bodies,
    '</table>',
  ].join('\n');
}

function operationRow(index: number, result: CheckResult, findings: Set<number>): string {
  const entries = coveragePhaseEntries(result);
  const c = coveragePhaseCounts(entries);
  const num = (n: number, cls: string, count: string) =>
    `<td class="num${n > 0 && cls ? ` ${cls}` : ''}" data-count="${count}">${n}</td>`;
  // Only findings (fail, warn, error) have an evidence anchor in the page.
  const outcome = findings.has(index)
    ? `<a href="#${esc(resultAnchor(index))}">${statusBadge(result.status)}<span class="visually-hidden"> see the evidence</span></a>`
    : statusBadge(result.status);
  const details =
    entries.length === 0
      ? `<span class="muted">no entries recorded${result.message ? `: ${esc(result.message)}` : ''}</span>`
      : `<details${attrs({ 'data-operation': result.operation })}><summary>${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}</summary>\n${entriesTable(entries)}\n</details>`;
  return (
    `<tr${attrs({ 'data-operation': result.operation, 'data-status': result.status })}>` +
    `<th scope="row"><code>${esc(result.operation)}</code></th><td>${outcome}</td>` +
    `${num(c.sent, '', 'sent')}${num(c.passed, '', 'passed')}${num(c.failed, 'has-fail', 'failed')}${num(c.warned, 'has-warn', 'warned')}${num(c.notSent, '', 'not-sent')}` +
    `<td>${details}</td></tr>`
  );
}

/** How many selected operations have no coverage phase result, and which. */
function withoutPhase(ctx: ReportContext, covered: Set<string>): string {
  const selected = ctx.operations.filter((o) => o.known).map((o) => o.id);
  const missing = selected.filter((id) => !covered.has(id));
  const of = `${selected.length} selected operation${selected.length === 1 ? '' : 's'}`;
  if (missing.length === 0)
    return `<p id="coverage-phase-missing" data-missing="0">Every one of the ${of} has a coverage phase result.</p>`;
  const list = missing.map((id) => `<li><code>${esc(id)}</code></li>`).join('');
  return (
    `<p id="coverage-phase-missing" data-missing="${missing.length}">${missing.length} of the ${of} ${missing.length === 1 ? 'has' : 'have'} no coverage phase result; nothing is claimed for ${missing.length === 1 ? 'it' : 'them'} here.</p>\n` +
    `<details id="coverage-phase-missing-list"><summary>Operations without a coverage phase result</summary><ul>${list}</ul></details>`
  );
}

export function coveragePhaseSection(ctx: ReportContext): string {
  const phase = phaseResults(ctx);
  const findings = new Set(ctx.findings.map((f) => f.index));
  const rows = phase.map(({ index, result }) => operationRow(index, result, findings));
  const intro =
    '<p>Before the random property phase, each operation is sent a fixed list of requests: every enum value, the paging and integer boundaries, every unit of <code>near</code>, each feature-gated parameter with and without its feature, and one request of every invalid-request family. Open an operation&#39;s entries to see what was exercised, the HTTP status received and the outcome; requests not sent say why.</p>';
  const table = [
    '<div class="scroll"><table id="coverage-phase-table">',
    '<thead><tr><th scope="col">operation</th><th scope="col">outcome</th><th scope="col" class="num">sent</th><th scope="col" class="num">passed</th><th scope="col" class="num">failed</th><th scope="col" class="num">warned</th><th scope="col" class="num">not sent</th><th scope="col">values and boundaries exercised</th></tr></thead>',
    `<tbody>\n${rows.join('\n')}\n</tbody>`,
    '</table></div>',
  ].join('\n');
  const covered = new Set(phase.map((p) => p.result.operation));
  return section(
    'coverage-phase',
    `Coverage phase (${covered.size} operation${covered.size === 1 ? '' : 's'})`,
    [intro, withoutPhase(ctx, covered), table].join('\n'),
  );
}
