/**
 * compare.html: the comparison as one self-contained page, rebuilt from a `Comparison`
 * (reports/compareModel.ts) and beside the candidate's usual report.html. No script at all and no
 * external URL (a Content-Security-Policy with `default-src 'none'` enforces it): the table of
 * differences links each group to its pair of answers, side by side, the member that differs
 * marked in each; each documented row a group breaks links to its row in the candidate's report.
 * Everything from the answers is HTML-escaped: response bodies are hostile input.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ExchangeRecord } from '../core/results.ts';
import {
  type Comparison,
  type ComparisonInReport,
  type DifferenceGroupRecord,
  type NoiseEntry,
  placeIn,
} from './compareModel.ts';
import { failsComparison } from './compareJunit.ts';
import { maskedUrl } from './curl.ts';
import { BODY_DISPLAY_CAP, capUtf8, esc } from './html/escape.ts';
import { pageHead } from './html/pageHead.ts';

const KIND_LABEL: Record<string, string> = {
  'status-changed': 'status changed',
  'header-changed': 'header changed',
  'value-changed': 'value changed',
  'type-changed': 'type changed',
  'member-gone': 'member gone',
  'member-new': 'member new',
  'body-changed': 'body changed',
  'exchange-gone': 'call made by the reference only',
  'exchange-new': 'call made by the candidate only',
};

const ROLE_LABEL: Record<string, string> = {
  candidate: 'Candidate',
  reference: 'Reference',
  second: 'Second reference',
};

/** The comparison's own styles (html/assets/compare.css): report.html adds them when it carries a comparison. */
export const COMPARISON_STYLE = readFileSync(new URL('./html/assets/compare.css', import.meta.url), 'utf8');

const STYLE = `${readFileSync(new URL('./html/assets/report.css', import.meta.url), 'utf8')}\n${COMPARISON_STYLE}`;

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
export const COMPARE_CONTENT_SECURITY_POLICY = `default-src 'none'; style-src ${sha256(STYLE)}; base-uri 'none'; form-action 'none'`;

const json = (v: unknown): string => {
  if (v === undefined) return '(absent)';
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
};

/** A JSON pointer's tokens (`/a~1b/0` is `a/b`, `0`). */
const tokens = (pointer: string): string[] =>
  pointer === ''
    ? []
    : pointer
        .split('/')
        .slice(1)
        .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));

/**
 * A JSON value pretty-printed as escaped HTML, the node at `mark` (a JSON pointer) wrapped in
 * <mark>: the member that differs, in each answer.
 */
function prettyMarked(value: unknown, mark: string[] | undefined, indent = ''): string {
  if (mark !== undefined && mark.length === 0 && indent === '') return `<mark>${prettyMarked(value, undefined)}</mark>`;
  const next = `${indent}  `;
  /** A member or item, marked when the pointer ends at it. */
  const part = (key: string, v: unknown, label: string): string => {
    const at = mark !== undefined && mark[0] === key;
    const text = `${label}${prettyMarked(v, at && mark.length > 1 ? mark.slice(1) : undefined, next)}`;
    return `${next}${at && mark.length === 1 ? `<mark>${text}</mark>` : text}`;
  };
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v, i) => part(String(i), v, '')).join(',\n')}\n${indent}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, v]) => part(k, v, `${esc(JSON.stringify(k))}: `)).join(',\n')}\n${indent}}`;
  }
  return esc(JSON.stringify(value) ?? 'null');
}

/** An answer's body: pretty and marked when it is JSON within the display cap, else as received. */
function bodyHtml(x: ExchangeRecord, path: string | undefined): string {
  const body = x.response?.body ?? '';
  if (body === '') return '<p class="muted">No body.</p>';
  const capped = capUtf8(body, BODY_DISPLAY_CAP);
  if (!capped.capped) {
    try {
      const parsed = JSON.parse(body) as unknown;
      const mark = path !== undefined && (path.startsWith('/') || path === '') ? tokens(path) : undefined;
      return `<pre class="body">${prettyMarked(parsed, mark)}</pre>`;
    } catch {
      // not JSON: shown as received
    }
  }
  const note = capped.capped ? `<p class="note">Body cut at ${BODY_DISPLAY_CAP} of ${capped.bytes} bytes.</p>` : '';
  return `<pre class="body">${esc(capped.text)}</pre>${note}`;
}

/**
 * One side of a pair: the call, its status, the value that differs, its headers and body with the
 * member marked where this side holds it (`place`; none for a member it lacks), and its curl.
 * compare.html and report.html's comparison section show a pair through this one function.
 */
function answerHtml(
  role: 'reference' | 'candidate',
  x: ExchangeRecord | undefined,
  curl: string | undefined,
  place: string | undefined,
  shownPath: string,
  value: unknown,
): string {
  const label = ROLE_LABEL[role];
  const head = `<section class="answer answer-${role}" aria-label="${esc(`${label} answer`)}">\n<h4>${esc(label)}</h4>`;
  if (!x) return `${head}\n<p class="muted">No such call in the ${role}'s run.</p>\n</section>`;
  const status =
    x.status !== undefined
      ? `<p class="status-line">HTTP <strong>${x.status}</strong> in ${esc(String(x.duration))} ms</p>`
      : `<p class="no-response">No answer: ${esc(x.error ?? 'none')}</p>`;
  const headers = Object.entries(x.response?.headers ?? {})
    .map(([k, v]) => {
      const line = `${esc(k)}: ${esc(v)}`;
      return place === `header:${k.toLowerCase()}` ? `<mark>${line}</mark>` : line;
    })
    .join('\n');
  const named = shownPath.startsWith('header:') || shownPath === 'status';
  return [
    head,
    `<p><code>${esc(x.method)} ${esc(maskedUrl(x.url))}</code></p>`,
    place === 'status' ? `<mark>${status}</mark>` : status,
    `<p class="difference-value">${esc(shownPath || '(body)')}: <code class="value">${esc(json(value))}</code></p>`,
    headers ? `<details${named ? ' open' : ''}><summary>Response headers</summary><pre>${headers}</pre></details>` : '',
    x.response ? bodyHtml(x, place) : '',
    curl ? `<details><summary>The request as curl</summary><pre>${esc(curl)}</pre></details>` : '',
    '</section>',
  ]
    .filter(Boolean)
    .join('\n');
}

/** A group's example pair, side by side: each answer marked where it holds the member that differs. */
function pairHtml(g: DifferenceGroupRecord, id?: string): string {
  const e = g.example;
  const d = {
    kind: g.kind,
    path: e.path,
    ...(e.candidatePath !== undefined ? { candidatePath: e.candidatePath } : {}),
  };
  const [r, c] = [placeIn('reference', d), placeIn('candidate', d)];
  return [
    `<div class="side-by-side"${id ? ` id="${esc(id)}"` : ''}>`,
    answerHtml('reference', e.exchanges.reference, e.curl.reference, r, r ?? g.path, e.reference),
    answerHtml('candidate', e.exchanges.candidate, e.curl.candidate, c, c ?? g.path, e.candidate),
    '</div>',
  ].join('\n');
}

function ruleHtml(g: DifferenceGroupRecord, candidateReport: string): string {
  if (g.breaks.length === 0) return '<span class="rule-none">no documented rule</span>';
  const ids = [...new Set(g.breaks.map((b) => b.requirement))];
  return `<span class="rule-breaks">breaks ${ids.map((id) => `<a href="${esc(`${candidateReport}#req-${id}`)}">${esc(id)}</a>`).join(', ')}</span>`;
}

function groupHtml(c: Pick<Comparison, 'failOn'>, g: DifferenceGroupRecord, candidateReport: string): string {
  const e = g.example;
  const breaks = g.breaks
    .map(
      (b) =>
        `<li><a href="${esc(`${candidateReport}#req-${b.requirement}`)}">${esc(b.requirement)}</a> (${esc(b.level)})${b.text ? `: “${esc(b.text)}”` : ''}<br><span class="muted">${esc(b.check)}: ${esc(b.message)}</span></li>`,
    )
    .join('\n');
  return [
    `<article class="difference${g.breaks.length > 0 ? ' breaks' : ''}" id="${esc(g.id)}" aria-labelledby="${esc(`${g.id}-title`)}">`,
    `<h3 id="${esc(`${g.id}-title`)}">${esc(g.id)} · ${esc(g.operation)} · <code>${esc(g.path || '(body)')}</code> · ${esc(KIND_LABEL[g.kind] ?? g.kind)} ×${g.count}</h3>`,
    `<p>${ruleHtml(g, candidateReport)}${failsComparison(c, g) ? '' : ' <span class="muted">(does not fail the comparison under --fail-on documented)</span>'}</p>`,
    breaks ? `<ul class="breaks">\n${breaks}\n</ul>` : '',
    '<dl class="facts">',
    `<dt>Pairs</dt><dd>${g.pairs} pair(s) of answers, ${g.count} difference(s); the example is pair ${e.pair}</dd>`,
    `<dt>Where</dt><dd><code>${esc(e.path || '(body)')}</code>: reference <code>${esc(json(e.reference))}</code>, candidate <code>${esc(json(e.candidate))}</code></dd>`,
    `<dt>Call</dt><dd>${esc(e.place.suite)} › ${esc(e.place.test || '(set-up)')}, call ${e.place.ordinal + 1}</dd>`,
    `<dt>Replay</dt><dd><code>${esc(g.replay)}</code></dd>`,
    '</dl>',
    pairHtml(g),
    '<p><a href="#differences">Back to the differences</a></p>',
    '</article>',
  ]
    .filter(Boolean)
    .join('\n');
}

function noiseRow(n: NoiseEntry): string {
  const example = n.example
    ? `reference <code>${esc(json(n.example.reference))}</code>, second <code>${esc(json(n.example.second))}</code>`
    : '';
  return `<tr><td><code>${esc(n.path || '(body)')}</code></td><td>${esc(n.operation === '*' ? 'every operation' : n.operation)}</td><td>${esc(n.source)}</td><td class="message">${esc(n.why)}</td><td class="num">${n.suppressed}</td><td class="message">${example}</td></tr>`;
}

export function renderCompareHtml(c: Comparison): string {
  const candidate = c.targets.find((t) => t.role === 'candidate');
  const candidateReport = candidate?.report ?? 'report.html';
  const outcome = c.outcome === 'same' ? 'SAME' : 'DIFFERENT';
  const title = `Comparison: ${outcome} · ${candidate?.url ?? ''} · ${c.suite.name} ${c.suite.version}`;
  const targets = c.targets
    .map(
      (t) =>
        `<dt>${esc(ROLE_LABEL[t.role] ?? t.role)}</dt><dd><code>${esc(t.url)}</code>${t.sandbox ? ' (the sandbox, started for the comparison)' : ''}; config ${esc(t.config)}; ${t.exchanges} calls; verdict ${esc(t.verdict)} (<a href="${esc(t.report)}">its report</a>)</dd>`,
    )
    .join('\n');
  const s = c.summary;
  const rows = c.groups
    .map(
      (g) =>
        `<tr id="${esc(`row-${g.id}`)}"><td><a href="#${esc(g.id)}">${esc(g.id)}</a></td><td>${esc(g.operation)}</td><td><code>${esc(g.path || '(body)')}</code></td><td>${esc(KIND_LABEL[g.kind] ?? g.kind)}</td><td class="num">${g.count}</td><td class="num">${g.pairs}</td><td>${ruleHtml(g, candidateReport)}</td><td><a href="#${esc(g.id)}" class="to-pair">answers side by side</a></td></tr>`,
    )
    .join('\n');
  const operations = c.operations
    .map(
      (o) =>
        `<tr><td>${esc(o.operation || '(none)')}</td><td class="num">${o.pairs}</td><td class="num">${o.differences}</td><td class="num">${o.groups}</td><td class="num">${o.referenceOnly}</td><td class="num">${o.candidateOnly}</td></tr>`,
    )
    .join('\n');
  const noiseFrom =
    c.noiseFrom === 'second'
      ? 'learnt from the second reference: where the two references answered the same request otherwise'
      : 'the members the documents make volatile (no second reference was given)';
  return [
    ...pageHead(title, COMPARE_CONTENT_SECURITY_POLICY, STYLE),
    '<header>',
    `<p class="eyebrow">${esc(c.suite.name)} ${esc(c.suite.version)} · comparison of two targets given the same requests (seed ${c.seed})</p>`,
    `<h1 class="verdict outcome-${c.outcome}">${outcome}</h1>`,
    `<p class="verdict-explanation">${s.differences} difference(s) beyond noise in ${s.groups} group(s), ${s.breaking} breaking a documented row, over ${s.pairs} pairs of answers; exit ${c.exitCode} under --fail-on ${esc(c.failOn)}.</p>`,
    '<dl class="facts">',
    targets,
    `<dt>Noise</dt><dd>${esc(noiseFrom)}; ${s.suppressed} difference(s) left out (<a href="#noise">which and why</a>)</dd>`,
    `<dt>Runs</dt><dd>seed ${c.seed}, ${c.runs} cases per property${c.only ? `, --only ${esc(c.only)}` : ''}${c.allowDestructive ? ', --allow-destructive' : ''}; evidence ${esc(c.evidence)}</dd>`,
    `<dt>Unpaired</dt><dd>${s.referenceOnly} call(s) by the reference only, ${s.candidateOnly} by the candidate only</dd>`,
    `<dt>Started</dt><dd>${esc(c.startedAt)}, finished ${esc(c.finishedAt)}</dd>`,
    '</dl>',
    '</header>',
    '<nav aria-label="Comparison sections"><ul><li><a href="#differences">Differences</a></li><li><a href="#operations">Operations</a></li><li><a href="#noise">Noise</a></li><li><a href="' +
      esc(candidateReport) +
      '">The candidate\'s report</a></li></ul></nav>',
    '<main>',
    '<section id="differences" aria-labelledby="differences-title">',
    '<h2 id="differences-title">Differences</h2>',
    c.groups.length === 0
      ? '<p>No difference beyond noise.</p>'
      : `<div class="scroll"><table id="differences-table"><thead><tr><th>Group</th><th>Operation</th><th>Path</th><th>Kind</th><th class="num">Differences</th><th class="num">Pairs</th><th>Documented rule</th><th>Example</th></tr></thead><tbody>\n${rows}\n</tbody></table></div>`,
    ...c.groups.map((g) => groupHtml(c, g, candidateReport)),
    '</section>',
    '<section id="operations" aria-labelledby="operations-title">',
    '<h2 id="operations-title">Operations</h2>',
    `<div class="scroll"><table id="operations-table"><thead><tr><th>Operation</th><th class="num">Pairs</th><th class="num">Differences</th><th class="num">Groups</th><th class="num">Reference only</th><th class="num">Candidate only</th></tr></thead><tbody>\n${operations}\n</tbody></table></div>`,
    '</section>',
    '<section id="noise" aria-labelledby="noise-title">',
    '<h2 id="noise-title">Noise left out</h2>',
    `<p>${esc(noiseFrom)}; and the configs' <code>compare.ignore</code>. The target's own address in an answer reads as <code>{target}</code>.</p>`,
    c.noise.length === 0
      ? '<p>Nothing.</p>'
      : `<div class="scroll"><table id="noise-table"><thead><tr><th>Path</th><th>Operation</th><th>Source</th><th>Why</th><th class="num">Left out</th><th>Example</th></tr></thead><tbody>\n${c.noise.map(noiseRow).join('\n')}\n</tbody></table></div>`,
    '</section>',
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** Anchors of report.html's comparison section: the section, and each group's pair of answers. */
export const COMPARISON_SECTION_ID = 'comparison';
export const comparisonGroupAnchor = (g: Pick<DifferenceGroupRecord, 'id'>): string => `comparison-${g.id}`;
export const comparisonPairAnchor = (g: Pick<DifferenceGroupRecord, 'id'>): string => `comparison-${g.id}-answers`;

/**
 * report.html's section "Comparison with REFERENCE", when the run was the candidate of a
 * comparison: the outcome under --fail-on, the counts, the table of difference groups (each
 * "breaks ROW" linked to its row in this report, or "no documented rule"), and each group's example
 * pair of answers side by side in a <details> (the same rendering as compare.html's, from the same
 * masked exchanges). The noise and the operations compared are in compare.html, linked.
 */
export function comparisonSectionHtml(c: ComparisonInReport): string {
  const reference = c.targets.find((t) => t.role === 'reference');
  const second = c.targets.find((t) => t.role === 'second');
  const outcome = c.outcome === 'same' ? 'SAME' : 'DIFFERENT';
  const s = c.summary;
  const noiseFrom =
    c.noiseFrom === 'second'
      ? `learnt from the second reference${second ? ` (${second.url})` : ''}`
      : 'the members the documents make volatile';
  const rows = c.groups
    .map(
      (g) =>
        `<tr id="${esc(`comparison-row-${g.id}`)}"><td><a href="#${esc(comparisonGroupAnchor(g))}">${esc(g.id)}</a></td><td>${esc(g.operation)}</td><td><code>${esc(g.path || '(body)')}</code></td><td>${esc(KIND_LABEL[g.kind] ?? g.kind)}</td><td class="num">${g.count}</td><td>${ruleHtml(g, '')}</td><td><a href="#${esc(comparisonPairAnchor(g))}" class="to-pair">answers side by side</a></td></tr>`,
    )
    .join('\n');
  const groups = c.groups.map((g) => {
    const e = g.example;
    return [
      `<details class="difference${g.breaks.length > 0 ? ' breaks' : ''}" id="${esc(comparisonGroupAnchor(g))}">`,
      `<summary>${esc(g.id)} · ${esc(g.operation)} · <code>${esc(g.path || '(body)')}</code> · ${esc(KIND_LABEL[g.kind] ?? g.kind)} ×${g.count}</summary>`,
      `<p>${ruleHtml(g, '')}${failsComparison(c, g) ? '' : ' <span class="muted">(does not fail the comparison under --fail-on documented)</span>'}</p>`,
      '<dl class="facts">',
      `<dt>Where</dt><dd><code>${esc(e.path || '(body)')}</code>: reference <code>${esc(json(e.reference))}</code>, candidate <code>${esc(json(e.candidate))}</code></dd>`,
      `<dt>Call</dt><dd>${esc(e.place.suite)} › ${esc(e.place.test || '(set-up)')}, call ${e.place.ordinal + 1}; ${g.pairs} pair(s) of answers differ so</dd>`,
      `<dt>Replay</dt><dd><code>${esc(g.replay)}</code></dd>`,
      '</dl>',
      pairHtml(g, comparisonPairAnchor(g)),
      `<p><a href="#${COMPARISON_SECTION_ID}">Back to the comparison</a> · <a href="${esc(`${c.page}#${g.id}`)}">this difference in ${esc(c.page)}</a></p>`,
      '</details>',
    ].join('\n');
  });
  return [
    `<section id="${COMPARISON_SECTION_ID}" aria-labelledby="comparison-title">`,
    `<h2 id="comparison-title">Comparison with ${esc(reference?.url ?? 'the reference')}${reference?.sandbox ? ' (the sandbox)' : ''}</h2>`,
    `<p>This run was the candidate of <code>conformance compare</code>: the same requests (seed ${c.seed}) went to the reference${second ? ' and to a second reference' : ''}, and their answers were compared with this run's.</p>`,
    '<dl class="facts">',
    `<dt>Outcome</dt><dd><span class="badge outcome-${c.outcome}">${outcome}</span> under --fail-on ${esc(c.failOn)} (exit ${c.exitCode})</dd>`,
    `<dt>Pairs</dt><dd>${s.pairs} pair(s) of answers compared</dd>`,
    `<dt>Differences</dt><dd>${s.differences} beyond noise in ${s.groups} group(s), ${s.breaking} breaking a documented row</dd>`,
    `<dt>Noise left out</dt><dd>${s.suppressed} difference(s), ${esc(noiseFrom)}, and the configs' compare.ignore</dd>`,
    `<dt>Unpaired</dt><dd>${s.referenceOnly} call(s) by the reference only, ${s.candidateOnly} by the candidate only</dd>`,
    `<dt>Whole comparison</dt><dd><a href="${esc(c.page)}">${esc(c.page)}</a> beside this report: the operations compared and the noise, path by path</dd>`,
    '</dl>',
    c.groups.length === 0
      ? '<p>No difference beyond noise.</p>'
      : `<div class="scroll"><table id="comparison-table"><thead><tr><th>Group</th><th>Operation</th><th>Path</th><th>Kind</th><th class="num">Differences</th><th>Documented rule</th><th>Example</th></tr></thead><tbody>\n${rows}\n</tbody></table></div>`,
    ...groups,
    '</section>',
  ].join('\n');
}
