/**
 * report.html: one self-contained file rebuilt from `RunResults`. No external URL of any kind
 * (a Content-Security-Policy with `default-src 'none'` enforces it), inline CSS and one small inline
 * script for the filters; the page is complete and readable with scripts disabled.
 *
 * Everything that comes from the results is HTML-escaped: response bodies are hostile input.
 *
 * The page is a list of sections (`ReportSection`); a later report part (requirement
 * traceability, decisions) is one more entry in `DEFAULT_SECTIONS`.
 */
import { reasonsLabel, shareLabel, type MustCoverage } from '../core/coverage.ts';
import { createHash } from 'node:crypto';
import {
  STATUSES,
  emptyCounts,
  verdictOf,
  type CheckResult,
  type ExchangeRecord,
  type RunResults,
  type Status,
  type Verdict,
} from '../core/results.ts';
import type { Level } from '../spec/types.ts';
import { integrityOf, type IntegrityState } from '../core/integrity.ts';
import { curlCommand, maskedHeaderValue, maskedUrl } from './curl.ts';
import { operationRows, type OperationRow } from './operationRows.ts';
import {
  TRACE_STATUSES,
  coverageLabel,
  coverageOf,
  rowsOfDocument,
  rowsOfOperation,
  traceability,
  type TraceRow,
  type TraceStatus,
} from './traceability.ts';

// ---------------------------------------------------------------------------------------------
// Escaping and small formatting helpers

/** C0/C1 controls (but tab, LF, CR) and lone surrogates render as U+FFFD instead of vanishing. */
const UNPRINTABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the pattern exists to find control characters and lone surrogates
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes text for element content and quoted attribute values alike. */
export function escapeHtml(value: string): string {
  return value
    .replace(UNPRINTABLE, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const esc = escapeHtml;

/** Attribute list from pairs; values escaped, undefined values left out. */
function attrs(pairs: Record<string, string | number | undefined>): string {
  return Object.entries(pairs)
    .filter((e): e is [string, string | number] => e[1] !== undefined)
    .map(([k, v]) => ` ${k}="${esc(String(v))}"`)
    .join('');
}

/** Responses larger than this are cut in the page (results.json keeps them whole). */
export const BODY_DISPLAY_CAP = 20 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function capUtf8(text: string, maxBytes: number): { text: string; bytes: number; capped: boolean } {
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return { text, bytes: bytes.length, capped: false };
  const cut = decoder.decode(bytes.subarray(0, maxBytes)).replace(/\uFFFD$/, '');
  return { text: cut, bytes: bytes.length, capped: true };
}

/** A body pretty-printed when it is JSON, else as received. */
export function prettyBody(body: string, contentType = ''): string {
  if (/json/i.test(contentType) || /^\s*[[{]/.test(body)) {
    try {
      return JSON.stringify(JSON.parse(body) as unknown, null, 2);
    } catch {
      return body;
    }
  }
  return body;
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  return `${n} bytes (${(n / 1024).toFixed(1)} KB)`;
}

/** Milliseconds as a short human duration: 850 ms, 12.3 s, 4 min 05 s. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return 'unknown';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const min = Math.floor(s / 60);
  const rest = Math.round(s - min * 60);
  return `${min} min ${String(rest).padStart(2, '0')} s`;
}

function showValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

const VERDICT_LABEL: Record<Verdict, string> = {
  conformant: 'Conformant',
  'not-conformant': 'Not conformant',
  inconclusive: 'Inconclusive',
};

const VERDICT_EXPLANATION: Record<Verdict, string> = {
  conformant: 'Every MUST requirement that was judged passed.',
  'not-conformant': 'At least one MUST requirement failed.',
  inconclusive: 'A MUST requirement could not be judged (error), or no MUST requirement was judged at all.',
};

const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'INFO'];

function statusBadge(status: Status): string {
  return `<span class="badge status-${esc(status)}">${esc(status)}</span>`;
}

function verdictBadge(verdict: Verdict): string {
  return `<span class="badge verdict-${verdict}">${esc(VERDICT_LABEL[verdict])}</span>`;
}

function countsOf(results: readonly CheckResult[]): Record<Status, number> {
  const counts = emptyCounts();
  for (const r of results) counts[r.status] += 1;
  return counts;
}

function countCells(counts: Record<Status, number>): string {
  return STATUSES.map((s) => `<td class="num${counts[s] > 0 ? ` has-${s}` : ''}">${counts[s]}</td>`).join('');
}

const statusHeaders = (): string => STATUSES.map((s) => `<th scope="col" class="num">${s}</th>`).join('');

// ---------------------------------------------------------------------------------------------
// The section model

/** Everything a section may need, computed once. */
export interface ReportContext {
  results: RunResults;
  /** Operations in report order (document, section). */
  operations: OperationRow[];
  /** Position of each operation in report order, for sorting results. */
  operationOrder: Map<string, number>;
  /** fail, error and warn results (with their index in `results.results`), worst first. */
  findings: { index: number; result: CheckResult }[];
  /** Every requirement of the table with the results citing it. */
  trace: TraceRow[];
  /** Operation id -> document, for filtering results by document. */
  documentOf: Map<string, string>;
  integrity: IntegrityState;
}

export interface ReportSection {
  /** Anchor id of the section element. */
  id: string;
  /** Label in the page's table of contents. */
  title: string;
  render: (ctx: ReportContext) => string;
}

const FINDING_ORDER: Partial<Record<Status, number>> = { fail: 0, error: 1, warn: 2 };

export function reportContext(results: RunResults): ReportContext {
  const operations = operationRows(results);
  const operationOrder = new Map(operations.map((o, i) => [o.id, i]));
  const findings = results.results
    .map((result, index) => ({ index, result }))
    .filter((f) => FINDING_ORDER[f.result.status] !== undefined)
    .sort(
      (a, b) =>
        (FINDING_ORDER[a.result.status] ?? 9) - (FINDING_ORDER[b.result.status] ?? 9) ||
        (operationOrder.get(a.result.operation) ?? 0) - (operationOrder.get(b.result.operation) ?? 0) ||
        a.index - b.index,
    );
  const documentOf = new Map(operations.map((o) => [o.id, o.document]));
  return {
    results,
    operations,
    operationOrder,
    findings,
    trace: traceability(results),
    documentOf,
    integrity: integrityOf(results),
  };
}

/** Anchor of one result's evidence. */
const resultAnchor = (index: number): string => `result-${index}`;

function section(id: string, title: string, body: string, extra = ''): string {
  return `<section id="${esc(id)}"${extra}>\n<h2>${esc(title)}</h2>\n${body}\n</section>`;
}

// ---------------------------------------------------------------------------------------------
// Sections

const ATTESTATION_FIELDS: readonly [keyof RunResults['attestation'], string][] = [
  ['organisation', 'Organisation'],
  ['product', 'Product'],
  ['environment', 'Environment'],
  ['person', 'Run by'],
];

function integrityText(state: IntegrityState): string {
  if (state.state === 'intact') return `SHA-256 ${state.digest} (matches the content of results.json)`;
  if (state.state === 'altered')
    return `ALTERED: results.json states SHA-256 ${state.stored} but its content has ${state.actual}`;
  return `NOT SEALED: results.json carries no digest (content SHA-256 ${state.actual})`;
}

export function overviewSection(ctx: ReportContext): string {
  const r = ctx.results;
  const duration = Date.parse(r.finishedAt) - Date.parse(r.startedAt);
  const facts: [string, string][] = [
    ['Target', r.target],
    ['Suite', `${r.suite.name} ${r.suite.version}`],
    ['Config digest', r.configDigest],
    ['Seed', String(r.seed)],
    ['Runs per property', String(r.runs)],
    ['Started', r.startedAt],
    ['Finished', r.finishedAt],
    ['Duration', formatDuration(duration)],
    ['Destructive operations', r.allowDestructive ? 'allowed' : 'not allowed (omitted)'],
    [
      'Evidence',
      r.evidence === 'full' ? 'full: personal data is NOT masked' : 'masked: secrets and personal data are masked',
    ],
  ];
  if (r.only !== undefined) facts.push(['Only', r.only]);
  const dl = facts
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd data-fact="${esc(k.toLowerCase().replace(/\s+/g, '-'))}">${esc(v)}</dd>`)
    .join('\n');
  const stated = ATTESTATION_FIELDS.filter(([k]) => (r.attestation?.[k] ?? '') !== '');
  const attestation = ATTESTATION_FIELDS.map(
    ([k, label]) =>
      `<dt>${esc(label)}</dt><dd data-attestation="${esc(k)}">${r.attestation?.[k] ? esc(r.attestation[k]) : '<span class="muted">not stated</span>'}</dd>`,
  ).join('\n');
  const attestationNote =
    stated.length < ATTESTATION_FIELDS.length
      ? '<p class="note">The config\'s <code>attestation</code> does not state every field; a certification report should.</p>'
      : '';
  const integrityClass = ctx.integrity.state === 'intact' ? 'integrity-ok' : 'integrity-bad';
  const banner =
    r.evidence === 'full'
      ? '<p id="evidence-banner" class="banner banner-danger" role="alert"><strong>Full evidence.</strong> This report shows personal data of patients and members unmasked (<code>--evidence full</code>). It is for a private run only: do not share it.</p>'
      : '';
  return [
    '<header id="overview">',
    '<a class="skip-link" href="#findings">Skip to failures, warnings and errors</a>',
    `<p class="eyebrow">Conformance report · ${esc(r.suite.name)} ${esc(r.suite.version)}</p>`,
    banner,
    `<h1 id="verdict" class="verdict verdict-${esc(r.verdict)}" data-verdict="${esc(r.verdict)}">${esc(VERDICT_LABEL[r.verdict] ?? r.verdict)}</h1>`,
    `<p class="verdict-explanation">${esc(VERDICT_EXPLANATION[r.verdict] ?? '')}</p>`,
    r.verdictReason
      ? `<p class="verdict-reason" id="verdict-reason"><strong>Why:</strong> ${esc(r.verdictReason)}</p>`
      : '',
    r.coverage
      ? `<p class="must-coverage" id="must-coverage">MUST requirements judged: <strong>${esc(shareLabel(r.coverage.overall))}</strong> of the testable MUST requirements in scope (minimum ${Math.round(100 * r.coverage.minimum)}%)` +
        `${Object.keys(r.coverage.overall.notJudged).length ? `; not judged: ${esc(reasonsLabel(r.coverage.overall.notJudged))}` : ''}` +
        `${Object.keys(r.coverage.overall.leftOut).length ? `; left out by choice: ${esc(reasonsLabel(r.coverage.overall.leftOut))}` : ''}.</p>`
      : '',
    '<div class="header-grid">',
    `<div><h2 class="header-title">Run</h2><dl class="facts run-facts">\n${dl}\n</dl></div>`,
    `<div><h2 class="header-title">Attestation</h2><dl class="facts attestation">\n${attestation}\n</dl>${attestationNote}</div>`,
    '</div>',
    `<p id="integrity" class="integrity ${integrityClass}" data-integrity="${esc(ctx.integrity.state)}"><strong>Integrity:</strong> ${esc(integrityText(ctx.integrity))}. ` +
      'Check the folder with <code>npx conformance verify-report DIR</code>. The digest shows the files were not altered after the run; it is not a signature.</p>',
    '</header>',
  ].join('\n');
}

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
    '<thead><tr><th scope="col">in the table</th><th scope="col">testable</th><th scope="col">verified by this run</th><th scope="col">coverage</th><th scope="col">not testable (reason given)</th><th scope="col">testable, no result</th></tr></thead>',
    `<tbody><tr><td class="num">${cov.total}</td><td class="num">${cov.testable}</td><td class="num">${cov.verified}</td><td class="num" data-coverage="run">${esc(coverageLabel(cov))}</td><td class="num">${byTrace.get('not-tested') ?? 0}</td><td class="num${(byTrace.get('not-run') ?? 0) > 0 ? ' has-warn' : ''}">${byTrace.get('not-run') ?? 0}</td></tr></tbody>`,
    '</table>',
  ].join('\n');
  return section('summary', 'Summary', `${byStatus}\n${byLevel}\n${coverage}`);
}

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
    `<thead><tr><th scope="col">document</th><th scope="col" class="num">operations</th>${statusHeaders()}<th scope="col" class="num" title="testable requirements of the document with a judged result">requirement coverage</th><th scope="col">verdict</th></tr></thead>`,
    `<tbody>\n${rows.join('\n')}\n</tbody>`,
    '</table>',
  ].join('\n');
  return section('documents', 'Documents', table);
}

/** The operation's judged share of its testable MUST requirements, with the reasons for the rest. */
function mustCell(c: MustCoverage | undefined, id: string): string {
  if (!c) return '<td>-</td>';
  const why = [
    Object.keys(c.notJudged).length ? `not judged: ${reasonsLabel(c.notJudged)}` : '',
    Object.keys(c.leftOut).length ? `left out: ${reasonsLabel(c.leftOut)}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return `<td data-must-coverage="${esc(id)}">${esc(shareLabel(c))}${why ? `<br><small>${esc(why)}</small>` : ''}</td>`;
}

export function operationsSection(ctx: ReportContext): string {
  const rows = ctx.operations.map(
    (o) =>
      `<tr class="operation-row"${attrs({ 'data-operation': o.id, 'data-verdict': o.verdict })}>` +
      `<th scope="row"><code>${esc(o.id)}</code></th><td>${esc(o.document)}</td><td>${esc(o.section)}</td><td>${esc(o.summary)}</td>` +
      `${countCells(o.counts)}<td class="num" data-coverage="${esc(o.id)}">${esc(coverageLabel(coverageOf(rowsOfOperation(ctx.trace, o.id))))}</td>` +
      `${mustCell(ctx.results.coverage?.operations[o.id], o.id)}<td>${verdictBadge(o.verdict)}</td></tr>`,
  );
  const table = [
    '<div class="scroll"><table id="operations-table">',
    `<thead><tr><th scope="col">operation</th><th scope="col">document</th><th scope="col">section</th><th scope="col">summary</th>${statusHeaders()}<th scope="col" class="num" title="testable requirements of the operation with a judged result">requirement coverage</th><th scope="col" title="testable MUST requirements in scope that were judged, and why the others were not">MUST judged</th><th scope="col">verdict</th></tr></thead>`,
    `<tbody>\n${rows.join('\n')}\n</tbody>`,
    '</table></div>',
  ].join('\n');
  return section('operations', 'Operations', table);
}

const TRACE_LABEL: Record<TraceStatus, string> = {
  pass: 'pass',
  fail: 'fail',
  warn: 'warn',
  skip: 'skip',
  omit: 'omit',
  error: 'error',
  'not-tested': 'not testable',
  'not-run': 'no result',
};

function selectControl(id: string, label: string, all: string, options: readonly [string, string][]): string {
  const opts = options.map(([value, text]) => `<option value="${esc(value)}">${esc(text)}</option>`).join('');
  return `<label for="${esc(id)}">${esc(label)}</label> <select id="${esc(id)}" data-filter="${esc(id.replace('filter-', ''))}"><option value="">${esc(all)}</option>${opts}</select>`;
}

export function filtersSection(ctx: ReportContext): string {
  const counts = countsOf(ctx.results.results);
  const traceCounts = new Map<TraceStatus, number>();
  for (const row of ctx.trace) traceCounts.set(row.status, (traceCounts.get(row.status) ?? 0) + 1);
  const boxes = TRACE_STATUSES.map((s) => {
    const n = (STATUSES as readonly string[]).includes(s) ? counts[s as Status] : (traceCounts.get(s) ?? 0);
    return `<label class="filter-status"><input type="checkbox" name="status" value="${s}" checked> <span class="badge status-${esc(s)}">${esc(TRACE_LABEL[s])}</span> <span class="count">${n}</span></label>`;
  }).join('\n');
  const documents = [...new Set(ctx.operations.map((o) => o.document).filter((d) => d !== ''))];
  // Hidden until the script runs: without scripts every item is shown and the controls would do nothing.
  return [
    '<section id="filters" class="filters" hidden aria-label="Filters">',
    '<h2>Filters</h2>',
    `<fieldset><legend>Status</legend>\n${boxes}\n</fieldset>`,
    '<p class="filter-selects">',
    selectControl(
      'filter-level',
      'Level',
      'all levels',
      LEVELS.map((l) => [l, l]),
    ),
    selectControl(
      'filter-document',
      'Document',
      'all documents',
      documents.map((d) => [d, d]),
    ),
    selectControl(
      'filter-operation',
      'Operation',
      'all operations',
      ctx.operations.map((o) => [o.id, o.id]),
    ),
    '</p>',
    '<p class="filter-text"><label for="filter-text">Search</label> <input type="search" id="filter-text" placeholder="check, operation, requirement, message" autocomplete="off" aria-keyshortcuts="/"> <button type="button" id="filter-reset">Reset</button> <span class="muted">Press <kbd>/</kbd> to search, <kbd>Esc</kbd> to clear.</span></p>',
    '<p id="filter-count" aria-live="polite"></p>',
    '</section>',
  ].join('\n');
}

function headerLines(headers: Record<string, string>, mask: boolean): string {
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${mask ? maskedHeaderValue(k, v) : v}`);
  return lines.length === 0 ? '(none)' : lines.join('\n');
}

function headerValue(headers: Record<string, string>, name: string): string {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? '' : (headers[key] ?? '');
}

function bodyBlock(body: string, contentType: string, className: string): string {
  if (body === '') return '<p class="muted">(empty body)</p>';
  const shown = capUtf8(prettyBody(body, contentType), BODY_DISPLAY_CAP);
  const note = shown.capped
    ? `<p class="note">Showing the first 20 KB of ${esc(formatBytes(shown.bytes))}; results.json holds the whole body.</p>`
    : '';
  return `<pre class="${className}"><code>${esc(shown.text)}</code></pre>${note}`;
}

export function requestBlock(x: ExchangeRecord): string {
  return [
    '<h4>Request</h4>',
    `<p class="request-line"><code>${esc(x.method)} ${esc(maskedUrl(x.url))}</code></p>`,
    `<pre class="headers"><code>${esc(headerLines(x.request.headers, true))}</code></pre>`,
    x.request.body !== undefined
      ? bodyBlock(x.request.body, headerValue(x.request.headers, 'content-type'), 'body request-body')
      : '',
  ].join('\n');
}

export function responseBlock(x: ExchangeRecord): string {
  if (x.response === undefined || x.status === undefined) {
    return `<h4>Response</h4>\n<p class="no-response">No response${x.error !== undefined ? `: ${esc(x.error)}` : ''}</p>`;
  }
  const truncated = x.response.truncated
    ? `<p class="note">The suite stopped reading at its size cap; the body is incomplete (${esc(formatBytes(x.response.size))} received).</p>`
    : '';
  return [
    '<h4>Response</h4>',
    `<p class="status-line"><code>HTTP ${esc(String(x.status))}</code></p>`,
    `<pre class="headers"><code>${esc(headerLines(x.response.headers, true))}</code></pre>`,
    bodyBlock(x.response.body, headerValue(x.response.headers, 'content-type'), 'body response-body'),
    truncated,
  ].join('\n');
}

function evidenceBlock(ctx: ReportContext, r: CheckResult): string {
  const x = r.exchange === undefined ? undefined : ctx.results.exchanges[r.exchange];
  const parts: string[] = [];
  let label = 'Evidence';
  if (x !== undefined) {
    label = `Evidence: ${x.method} ${maskedUrl(x.url)} → ${x.status !== undefined ? `HTTP ${x.status}` : 'no response'}`;
    const facts: [string, string][] = [
      ['Started', x.startedAt],
      ['Duration', `${x.duration} ms`],
    ];
    if (x.response !== undefined) facts.push(['Size', formatBytes(x.response.size)]);
    if (x.error !== undefined) facts.push(['Transport error', x.error]);
    parts.push(
      `<dl class="facts exchange-facts">${facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`,
      requestBlock(x),
      responseBlock(x),
      '<h4>Replay with curl</h4>',
      `<pre class="curl"><code>${esc(curlCommand(x))}</code></pre>`,
    );
  } else {
    parts.push('<p class="muted">No exchange was recorded for this result.</p>');
  }
  if (r.evidence !== undefined && Object.keys(r.evidence).length > 0) {
    parts.push(
      '<h4>Check evidence</h4>',
      `<pre class="check-evidence"><code>${esc(showValue(r.evidence))}</code></pre>`,
    );
  }
  return `<details class="evidence">\n<summary>${esc(label)}</summary>\n${parts.join('\n')}\n</details>`;
}

/** The command that replays a property case of this run (the config, if any, is the user's to add). */
export function replayCommand(run: RunResults, r: CheckResult): string | undefined {
  if (r.replay === undefined) return undefined;
  const parts = [
    'npx conformance run',
    `--target '${run.target.replace(/'/g, `'\\''`)}'`,
    `--only ${r.operation}`,
    `--seed ${r.replay.seed}`,
  ];
  if (r.replay.path !== undefined) parts.push(`--path '${r.replay.path}'`);
  parts.push(`--runs ${run.runs}`);
  if (run.allowDestructive) parts.push('--allow-destructive');
  return parts.join(' ');
}

function resultFacts(r: CheckResult): string {
  const facts: [string, string][] = [
    ['Operation', r.operation],
    ['Level', r.level],
    ['Requirements', r.requirements.length > 0 ? r.requirements.join(', ') : '(none)'],
    ['Message', r.message],
  ];
  if (r.test !== undefined) facts.push(['Test', r.test]);
  if (r.replay !== undefined) {
    facts.push(['Replay seed', String(r.replay.seed)]);
    if (r.replay.path !== undefined) facts.push(['Replay path', r.replay.path]);
    if (r.replay.counterexample !== undefined) facts.push(['Counterexample', showValue(r.replay.counterexample)]);
  }
  return `<dl class="facts result-facts">\n${facts
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd class="fact-${esc(k.toLowerCase().replace(/\s+/g, '-'))}">${esc(v)}</dd>`)
    .join('\n')}\n</dl>`;
}

function replayBlock(ctx: ReportContext, r: CheckResult): string {
  const command = replayCommand(ctx.results, r);
  if (command === undefined) return '';
  return `<p class="replay-label">Replay this property case (add <code>--config FILE</code> if the run used one):</p><pre class="replay"><code>${esc(command)}</code></pre>`;
}

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

function traceBadge(status: TraceStatus): string {
  return `<span class="badge status-${esc(status)}">${esc(TRACE_LABEL[status])}</span>`;
}

export function traceabilitySection(ctx: ReportContext): string {
  const rows = ctx.trace.map((row) => {
    const q = row.requirement;
    const checks =
      row.checks.length === 0
        ? `<span class="muted">${esc(row.reason)}</span>`
        : `<ul class="trace-checks">${row.checks
            .map(
              (c) =>
                `<li>${statusBadge(c.status)} <code>${esc(c.check)}</code> on <code>${esc(c.operation)}</code>${c.count > 1 ? ` <span class="muted">×${c.count}</span>` : ''}</li>`,
            )
            .join('')}</ul>`;
    return (
      `<tr class="trace-row"${attrs({ id: `req-${q.id}`, 'data-status': row.status, 'data-level': q.level, 'data-document': q.document, 'data-operations': [...new Set([...q.operations, ...row.checks.map((c) => c.operation)])].join(' ') })} data-filterable>` +
      `<th scope="row"><code>${esc(q.id)}</code></th><td>${esc(q.document)} §${esc(q.section)}</td><td>${esc(q.level)}</td><td>${traceBadge(row.status)}</td>` +
      `<td class="trace-text">${esc(q.text)}</td><td>${checks}</td></tr>`
    );
  });
  const table = [
    '<div class="scroll"><table id="traceability-table">',
    '<thead><tr><th scope="col">requirement</th><th scope="col">section</th><th scope="col">level</th><th scope="col">status</th><th scope="col">statement</th><th scope="col">checks and results, or why none</th></tr></thead>',
    `<tbody>\n${rows.join('\n')}\n</tbody>`,
    '</table></div>',
  ].join('\n');
  const intro =
    '<p>Every row of the requirement table (<code>spec/requirements.csv</code> of the suite version that ran), with the checks whose results cite it. ' +
    'A requirement takes the worst status of its results; <em>not testable</em> rows give the reason no black-box check can verify them; <em>no result</em> rows are testable but no result of this run cites them. ' +
    'The same matrix is in <code>requirements-coverage.csv</code>.</p>';
  return section('traceability', `Requirement traceability (${ctx.trace.length})`, `${intro}\n${table}`);
}

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
export const DEFAULT_SECTIONS: readonly ReportSection[] = [
  { id: 'overview', title: 'Verdict', render: overviewSection },
  { id: 'summary', title: 'Summary', render: summarySection },
  { id: 'documents', title: 'Documents', render: documentsSection },
  { id: 'operations', title: 'Operations', render: operationsSection },
  { id: 'filters', title: 'Filters', render: filtersSection },
  { id: 'findings', title: 'Failures, warnings and errors', render: findingsSection },
  { id: 'traceability', title: 'Requirement traceability', render: traceabilitySection },
  { id: 'decisions', title: 'Decisions applied', render: decisionsSection },
  { id: 'all-results', title: 'All results', render: allResultsSection },
];

// ---------------------------------------------------------------------------------------------
// Page shell: styles, script, CSP

const STYLE = `
:root { --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; --bg:#ffffff; --panel:#f6f8fa;
  --pass:#1a7f37; --fail:#cf222e; --warn:#9a6700; --error:#8250df; --skip:#59636e; --omit:#6e7781; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0 auto; max-width: 80rem; padding: 1rem 1.5rem 3rem; color: var(--fg); background: var(--bg);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.88em; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.6rem 0.8rem;
  overflow: auto; white-space: pre-wrap; word-break: break-word; max-height: 40rem; }
h1, h2, h3, h4 { line-height: 1.25; }
h2 { border-bottom: 1px solid var(--line); padding-bottom: 0.3rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; margin: 0 0 0.5rem; }
h4 { margin: 1rem 0 0.3rem; font-size: 0.95rem; }
a { color: #0969da; }
.eyebrow { color: var(--muted); margin: 0.5rem 0 0; }
.verdict { display: inline-block; font-size: 2.6rem; margin: 0.3rem 0; padding: 0.2rem 1rem; border-radius: 8px; border: 2px solid; }
.verdict-conformant { color: #116329; background: #dafbe1; border-color: #1a7f37; }
.verdict-not-conformant { color: #a40e26; background: #ffebe9; border-color: #cf222e; }
.verdict-inconclusive { color: #7d4e00; background: #fff8c5; border-color: #bf8700; }
.verdict-explanation { margin-top: 0; color: var(--muted); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 1rem; margin: 0.5rem 0; }
.facts dt { font-weight: 600; color: var(--muted); }
.facts dd { margin: 0; white-space: pre-wrap; word-break: break-word; }
nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.4rem 1rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.3rem; }
th, td { border: 1px solid var(--line); padding: 0.25rem 0.55rem; text-align: left; vertical-align: top; }
thead th { background: var(--panel); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.message { max-width: 40rem; word-break: break-word; }
.scroll { overflow-x: auto; }
.badge { display: inline-block; padding: 0 0.45rem; border-radius: 1rem; font-size: 0.8rem; font-weight: 600;
  border: 1px solid currentColor; white-space: nowrap; }
.status-pass { color: var(--pass); } .status-fail { color: var(--fail); } .status-warn { color: var(--warn); }
.status-error { color: var(--error); } .status-skip { color: var(--skip); } .status-omit { color: var(--omit); }
.has-fail { color: var(--fail); font-weight: 700; } .has-error { color: var(--error); font-weight: 700; }
.has-warn { color: var(--warn); font-weight: 700; }
span.verdict-conformant, span.verdict-not-conformant, span.verdict-inconclusive { border-width: 1px; }
.finding { border: 1px solid var(--line); border-left: 6px solid currentColor; border-radius: 6px; padding: 0.8rem 1rem; margin: 1rem 0; }
.finding > * { color: var(--fg); }
.finding h3 .badge { color: inherit; }
.finding.status-fail h3 .badge { color: var(--fail); } .finding.status-warn h3 .badge { color: var(--warn); }
.finding.status-error h3 .badge { color: var(--error); }
.check-summary { font-weight: 400; }
details > summary { cursor: pointer; font-weight: 600; }
details.evidence { margin-top: 0.5rem; }
.note { color: var(--warn); font-size: 0.9rem; }
.muted, .no-response { color: var(--muted); }
.filters { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 1rem; }
.filters h2 { border: 0; margin: 0.3rem 0; font-size: 1.1rem; }
.filters fieldset { border: 0; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 0.3rem 1rem; }
.filters legend { font-weight: 600; float: left; margin-right: 1rem; }
.filter-status .count { color: var(--muted); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
:focus-visible { outline: 3px solid #0969da; outline-offset: 2px; }
.skip-link { position: absolute; left: -999px; }
.skip-link:focus { left: 1rem; top: 0.5rem; background: var(--bg); padding: 0.3rem 0.6rem; border: 2px solid #0969da; z-index: 10; }
.banner { padding: 0.6rem 1rem; border-radius: 6px; border: 2px solid; }
.banner-danger { color: #a40e26; background: #ffebe9; border-color: #cf222e; }
.header-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr)); gap: 0 2rem; }
.header-title { font-size: 1rem; border: 0; margin: 0.8rem 0 0.2rem; }
.integrity { font-size: 0.9rem; word-break: break-all; }
.integrity-bad { color: var(--fail); font-weight: 600; }
.filter-selects { display: flex; flex-wrap: wrap; gap: 0.3rem 1.2rem; margin: 0.4rem 0; }
.status-not-tested { color: var(--skip); } .status-not-run { color: var(--warn); }
.trace-text { min-width: 20rem; max-width: 36rem; }
.trace-checks { margin: 0; padding-left: 1rem; }
kbd { border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 4px; padding: 0 0.3rem; font-size: 0.85em; }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; color: #000; background: #fff; }
  nav, #filters, #filter-reset, .skip-link { display: none !important; }
  .header-grid { display: block; }
  .scroll { overflow: visible; }
  table { font-size: 8.5pt; }
  .finding { border-left-width: 4px; }
  pre { max-height: none; overflow: visible; border-color: #999; background: #fff; }
  a { color: inherit; text-decoration: none; }
  .finding, tr { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  .verdict { border-width: 3px; }
}
`;

/**
 * Filters (status checkboxes; level, document and operation lists; text search), keyboard
 * shortcuts (`/` focuses the search, Escape clears it), and opening every <details> for printing.
 */
const SCRIPT = `
(function () {
  'use strict';
  var panel = document.getElementById('filters');
  var items = Array.prototype.slice.call(document.querySelectorAll('[data-filterable]'));
  if (panel) {
    panel.hidden = false;
    var boxes = Array.prototype.slice.call(panel.querySelectorAll('input[name="status"]'));
    var selects = Array.prototype.slice.call(panel.querySelectorAll('select[data-filter]'));
    var text = document.getElementById('filter-text');
    var reset = document.getElementById('filter-reset');
    var out = document.getElementById('filter-count');
    var apply = function () {
      var on = {};
      boxes.forEach(function (b) { on[b.value] = b.checked; });
      var want = {};
      selects.forEach(function (s) { want[s.getAttribute('data-filter')] = s.value; });
      var q = text.value.trim().toLowerCase();
      var tally = { finding: [0, 0], result: [0, 0], requirement: [0, 0] };
      items.forEach(function (el) {
        var ops = (el.getAttribute('data-operations') || el.getAttribute('data-operation') || '').split(' ');
        var show = on[el.getAttribute('data-status')] === true &&
          (want.level === '' || el.getAttribute('data-level') === want.level) &&
          (want.document === '' || el.getAttribute('data-document') === want.document) &&
          (want.operation === '' || ops.indexOf(want.operation) !== -1) &&
          (q === '' || el.textContent.toLowerCase().indexOf(q) !== -1);
        el.hidden = !show;
        var kind = el.classList.contains('trace-row') ? 'requirement' : el.tagName === 'TR' ? 'result' : 'finding';
        tally[kind][1] += 1;
        if (show) tally[kind][0] += 1;
      });
      out.textContent = 'Showing ' + tally.finding[0] + ' of ' + tally.finding[1] + ' failures, warnings and errors; ' +
        tally.result[0] + ' of ' + tally.result[1] + ' results; ' + tally.requirement[0] + ' of ' + tally.requirement[1] + ' requirements.';
    };
    boxes.forEach(function (b) { b.addEventListener('change', apply); });
    selects.forEach(function (s) { s.addEventListener('change', apply); });
    text.addEventListener('input', apply);
    var clear = function () {
      boxes.forEach(function (b) { b.checked = true; });
      selects.forEach(function (s) { s.value = ''; });
      text.value = '';
      apply();
    };
    reset.addEventListener('click', function () { clear(); text.focus(); });
    text.addEventListener('keydown', function (e) {
      if (e.key === 'Escape') { text.value = ''; apply(); }
    });
    document.addEventListener('keydown', function (e) {
      var t = e.target;
      var typing = t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA');
      if (e.key === '/' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) { e.preventDefault(); text.focus(); }
    });
    apply();
  }
  var opened = [];
  window.addEventListener('beforeprint', function () {
    opened = Array.prototype.slice.call(document.querySelectorAll('details:not([open])'));
    opened.forEach(function (d) { d.open = true; });
  });
  window.addEventListener('afterprint', function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });
})();
`;

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Nothing may be fetched; only our own style and script run (a failed escape still could not execute). */
export const CONTENT_SECURITY_POLICY = `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(SCRIPT)}; base-uri 'none'; form-action 'none'`;

function nav(sections: readonly ReportSection[]): string {
  const links = sections
    .filter((s) => s.id !== 'filters')
    .map((s) => `<li><a href="#${esc(s.id)}">${esc(s.title)}</a></li>`)
    .join('');
  return `<nav aria-label="Report sections"><ul>${links}</ul></nav>`;
}

export function renderHtml(results: RunResults, sections: readonly ReportSection[] = DEFAULT_SECTIONS): string {
  const ctx = reportContext(results);
  const [first, ...rest] = sections;
  const title = `Conformance report: ${VERDICT_LABEL[results.verdict] ?? results.verdict} · ${results.suite.name} ${results.suite.version} · ${results.target}`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${esc(CONTENT_SECURITY_POLICY)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${esc(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    first !== undefined ? first.render(ctx) : '',
    nav(rest),
    '<main>',
    ...rest.map((s) => s.render(ctx)),
    '</main>',
    `<script>${SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
