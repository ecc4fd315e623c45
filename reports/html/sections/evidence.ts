/** report.html section: Evidence of a result: request, response, curl command and replay command, masked and escaped. */
import type { CheckResult, ExchangeRecord, RunResults } from '../../../core/results.ts';
import { curlCommand, maskedHeaderValue, maskedUrl } from '../../curl.ts';
import { BODY_DISPLAY_CAP, capUtf8, esc, prettyBody } from '../escape.ts';
import { formatBytes, showValue } from '../format.ts';
import type { ReportContext } from '../context.ts';

export function headerLines(headers: Record<string, string>, mask: boolean): string {
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${mask ? maskedHeaderValue(k, v) : v}`);
  return lines.length === 0 ? '(none)' : lines.join('\n');
}

export function headerValue(headers: Record<string, string>, name: string): string {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? '' : (headers[key] ?? '');
}

export function bodyBlock(body: string, contentType: string, className: string): string {
  if (body === '') return '<p class="muted">(empty body)</p>';
  const shown = capUtf8(prettyBody(body, contentType), BODY_DISPLAY_CAP);
  const note = shown.capped
    ? `<p class="note">Showing the first 20 KB of ${esc(formatBytes(shown.bytes))}; results.json holds it as recorded (up to http.maxEvidenceBytes, 64 KiB by default).</p>`
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

export function evidenceBlock(ctx: ReportContext, r: CheckResult): string {
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

export function resultFacts(r: CheckResult): string {
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

export function replayBlock(ctx: ReportContext, r: CheckResult): string {
  const command = replayCommand(ctx.results, r);
  if (command === undefined) return '';
  return `<p class="replay-label">Replay this property case (add <code>--config FILE</code> if the run used one):</p><pre class="replay"><code>${esc(command)}</code></pre>`;
}
