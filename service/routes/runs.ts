/**
 * Runs: starting one (refused beyond the organisation's limit: claims.ts queueRun), watching it,
 * its status as JSON, cancelling it, its report; and the history helpers the product page uses.
 */
import { shareLabel } from '../../core/coverage.ts';
import { findingsOf, isBlocking } from '../../core/findings.ts';
import type { RunResults, Status } from '../../core/results.ts';
import { causeAnchor } from '../../reports/html/sections/causes.ts';
import { certificateDecision, certificateStatus, SIGNED_FILES } from '../certificates.ts';
import type { ServiceContext } from '../context.ts';
import { csrfField, html, type Raw } from '../html.ts';
import { tarGz } from '../tarGz.ts';
import type { ProgressRow } from '../jobs/runProgress.ts';
import { progressText, readProgress, streamRunEvents } from '../runEvents.ts';
import { cancelRun, queueRun } from '../jobs/claims.ts';
import { RUN_PROGRESS_PATH, RUN_PROGRESS_SCRIPT } from '../assets/runProgress.ts';
import { audit, byRequest } from '../audit.ts';
import { assetRoute, notFound, param, refuse, type RouteSpec, send, productOf, runOf, wantsJson } from './shared.ts';

/** How each verdict is drawn in the history chart, and named in words beside its colour. */
const VERDICT_MARKS: Record<string, { colour: string; words: string; colourName: string }> = {
  conformant: { colour: '#070', words: 'conformant', colourName: 'green' },
  'not-conformant': { colour: '#a00', words: 'not conformant', colourName: 'red' },
  inconclusive: { colour: '#b80', words: 'inconclusive', colourName: 'amber' },
};
const OTHER_MARK = { colour: '#777', words: 'no verdict', colourName: 'grey' };
const markOf = (verdict: string | null) => VERDICT_MARKS[verdict ?? ''] ?? OTHER_MARK;

/** The share of a run's testable MUST rows judged, 0 to 1 (0 when none was recorded). */
function shareOf(r: { coverage_judged: number | null; coverage_in_scope: number | null }): number {
  if (r.coverage_judged === null || !r.coverage_in_scope) return 0;
  return Math.min(1, Math.max(0, r.coverage_judged / r.coverage_in_scope));
}

const fixed = (n: number): string => n.toFixed(1);

/** The room one label of the x axis takes (a date, YYYY-MM-DD, at 12 px is about 70 px wide). */
const LABEL_PX = 80;

/**
 * Verdict and coverage over a product's finished runs, oldest left, as an inline SVG (nothing to
 * load, no script): the y axis is the run's MUST coverage, 0 to 100% with a tick and a label every
 * 25%; the x axis the runs in order, each numbered, with its date (or its time, after a run of the
 * same day), a label on every run or, when there are many, on every few and the last; one point
 * per run, coloured by its verdict, with a `<title>` (shown on hover) saying it in words; a legend
 * naming each colour's verdict in words; and, for those who do not see it, a title and a
 * description (the runs, their verdicts counted, the latest) that name it, the chart being an image.
 * `finished` is newest first, as the product page lists the runs.
 */
export function historyChart(
  finished: readonly {
    verdict: string | null;
    coverage_judged: number | null;
    coverage_in_scope: number | null;
    created_at: string;
  }[],
): Raw | '' {
  const runs = [...finished].reverse();
  const n = runs.length;
  if (n === 0) return '';
  // The legend: the three verdicts always, and "no verdict" when a run has none; the plot is at least as wide.
  const marks = [
    ...Object.entries(VERDICT_MARKS),
    ...(runs.some((r) => !VERDICT_MARKS[r.verdict ?? '']) ? [['', OTHER_MARK] as const] : []),
  ].map(([verdict, m]) => ({ verdict, ...m, label: `${m.words} (${m.colourName})` }));
  const legendWidth = marks.reduce((sum, m) => sum + 17 + m.label.length * 7 + 18, 0);
  const [left, right, top, bottom] = [56, 20, 44, 62];
  const plotW = Math.min(Math.max(760, legendWidth), Math.max(240, legendWidth, 48 * n));
  const plotH = 160;
  const [w, h] = [left + plotW + right, top + plotH + bottom];
  const x = (i: number) => left + (n === 1 ? plotW / 2 : 16 + (i * (plotW - 32)) / (n - 1));
  const y = (share: number) => top + plotH * (1 - share);
  const describe = (r: (typeof runs)[number], i: number) =>
    `Run ${i + 1} of ${n}, ${r.created_at}: ${r.verdict ?? 'no verdict'}, coverage ${coverageText(r.coverage_judged, r.coverage_in_scope) || 'not recorded'}`;
  // A label on every run while they fit (a date is about 70 px wide), else on every few, and always on the last.
  const every = n === 1 ? 1 : Math.max(1, Math.ceil(LABEL_PX / (x(1) - x(0))));
  const labelled = runs.map((_, i) => i).filter((i) => i % every === 0 || i === n - 1);
  // The last labelled one before it drops when the last would overlap it.
  if (labelled.length > 1 && x(n - 1) - x(labelled[labelled.length - 2]) < LABEL_PX) labelled.splice(-2, 1);
  const dateOf = (i: number) => runs[i].created_at.slice(0, 10);
  const xLabels = labelled.map((i, k) => {
    const sameDay = k > 0 && dateOf(labelled[k - 1]) === dateOf(i);
    return html`<line x1="${fixed(x(i))}" y1="${top + plotH}" x2="${fixed(x(i))}" y2="${top + plotH + 5}" stroke="#445"/><text x="${fixed(x(i))}" y="${top + plotH + 18}" text-anchor="middle">#${i + 1}</text><text x="${fixed(x(i))}" y="${top + plotH + 32}" text-anchor="middle" fill="#555">${sameDay ? runs[i].created_at.slice(11, 16) : dateOf(i)}</text>`;
  });
  const yTicks = [0, 25, 50, 75, 100].map(
    (t) =>
      html`<line x1="${left}" y1="${fixed(y(t / 100))}" x2="${left + plotW}" y2="${fixed(y(t / 100))}" stroke="#dde"${t === 0 ? '' : html` stroke-dasharray="3"`}/><line x1="${left - 5}" y1="${fixed(y(t / 100))}" x2="${left}" y2="${fixed(y(t / 100))}" stroke="#445"/><text x="${left - 8}" y="${fixed(y(t / 100) + 4)}" text-anchor="end">${t}%</text>`,
  );
  let at = left;
  const legend = marks.map((m) => {
    const item = html`<g class="legend-item" data-verdict="${m.verdict}"><rect x="${at}" y="8" width="12" height="12" fill="${m.colour}"/><text x="${at + 17}" y="18">${m.label}</text></g>`;
    at += 17 + m.label.length * 7 + 18;
    return item;
  });
  const tally = marks
    .map((m) => ({
      words: m.words,
      count: runs.filter((r) => (m.verdict === '' ? !VERDICT_MARKS[r.verdict ?? ''] : r.verdict === m.verdict)).length,
    }))
    .filter((t) => t.count > 0)
    .map((t) => `${t.count} ${t.words}`)
    .join(', ');
  const latest = runs[n - 1];
  const summary = `${n} finished ${n === 1 ? 'run' : 'runs'}${n > 1 ? ` from ${dateOf(0)} to ${dateOf(n - 1)}` : ` on ${dateOf(0)}`}: ${tally}. The latest: ${latest.verdict ?? 'no verdict'}, MUST coverage ${coverageText(latest.coverage_judged, latest.coverage_in_scope) || 'not recorded'}.`;
  // Points as big as their room allows (5 px; no less than 2.5 when runs are many).
  const radius = n === 1 ? '5' : fixed(Math.min(5, Math.max(2.5, (x(1) - x(0)) / 2.5)));
  const line = runs.map((r, i) => `${fixed(x(i))},${fixed(y(shareOf(r)))}`).join(' ');
  return html`<svg id="history-chart" role="img" aria-labelledby="history-chart-title history-chart-desc" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-size="12" font-family="system-ui,sans-serif" fill="#1d1d1f">
<title id="history-chart-title">Verdict and MUST coverage of each finished run, oldest first</title>
<desc id="history-chart-desc">${summary}</desc>
<g class="legend">${legend}</g>
<g class="y-axis">${yTicks}<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}" stroke="#445"/><text transform="translate(14 ${fixed(top + plotH / 2)}) rotate(-90)" text-anchor="middle">MUST coverage</text></g>
<g class="x-axis"><line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}" stroke="#445"/>${xLabels}<text x="${fixed(left + plotW / 2)}" y="${h - 6}" text-anchor="middle">Runs, oldest first</text></g>
${n > 1 ? html`<polyline points="${line}" fill="none" stroke="#789"/>` : ''}
${runs.map(
  (r, i) =>
    html`<circle cx="${fixed(x(i))}" cy="${fixed(y(shareOf(r)))}" r="${radius}" stroke="#fff" fill="${markOf(r.verdict).colour}"><title>${describe(r, i)}</title></circle>`,
)}</svg>`;
}

/** A run's MUST coverage as every command and the report show it (core/coverage.ts shareLabel: rounded down). */
export function coverageText(judged: number | null, inScope: number | null): string {
  if (judged === null || inScope === null) return '';
  return shareLabel({ judged, inScope, notJudged: {}, leftOut: {} });
}

/** A file of a finished run, as the worker that performed it stored it (on any machine). */
export async function runFile(ctx: ServiceContext, runId: string, name: string): Promise<string | undefined> {
  const row = await ctx.db
    .selectFrom('run_files')
    .select('content')
    .where('run_id', '=', runId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.content;
}

export async function readResults(ctx: ServiceContext, runId: string): Promise<RunResults | undefined> {
  const text = await runFile(ctx, runId, 'results.json');
  try {
    return text === undefined ? undefined : (JSON.parse(text) as RunResults);
  } catch {
    return undefined;
  }
}

/** What a finished run earned: a link to its certificate, or one line why it earned none. */
async function certificateLine(
  ctx: ServiceContext,
  run: {
    id: string;
    state: string;
    signature: string | null;
    verdict: string | null;
    coverage_judged: number | null;
    coverage_in_scope: number | null;
  },
  results: RunResults | undefined,
): Promise<Raw | ''> {
  if (run.state !== 'finished') return '';
  const certificate = await ctx.db
    .selectFrom('certificates')
    .select(['id', 'revoked_at', 'superseded_at', 'expires_at'])
    .where('run_id', '=', run.id)
    .executeTakeFirst();
  if (certificate)
    return html`<p>Certificate: <a id="certificate" href="/certificates/${certificate.id}">${certificate.id}</a> (${certificateStatus(certificate, ctx.now())})</p>`;
  // With its results: a run that certifies no operation says which were left out and why.
  const decision = certificateDecision(run, ctx.settings.certificate, results);
  const why = decision.earned
    ? run.signature === null
      ? 'the run was performed before the service signed its runs'
      : 'none was issued for this run'
    : decision.reason;
  return html`<p id="no-certificate">No certificate: ${why}.</p>`;
}

/** The count columns of the operations table, in the order the command line prints them. */
const COUNT_COLUMNS = ['pass', 'fail', 'error', 'warn', 'skip', 'omit'] as const satisfies readonly Status[];

/** The most findings the run page lists; the report has every one. */
export const RUN_PAGE_FINDINGS = 50;

interface OperationLine {
  id: string;
  /** waiting, running, done; for a run that ended without finishing: not run, stopped. */
  state: string;
  verdict?: string;
  counts: Partial<Record<Status, number>>;
}

/**
 * Each operation's line on the run page: from the results once the run has finished, else from the
 * progress its worker wrote (an operation a failed or cancelled run never finished is "not run" or "stopped").
 */
function operationLines(
  live: boolean,
  progress: ProgressRow | undefined,
  results: RunResults | undefined,
): OperationLine[] {
  if (results)
    return results.operations.map((o) => ({ id: o.id, state: 'done', verdict: o.verdict, counts: o.counts }));
  return (progress?.operations ?? []).map((o) => ({
    id: o.id,
    state: live || o.state === 'done' ? o.state : o.state === 'running' ? 'stopped' : 'not run',
    ...(o.verdict ? { verdict: o.verdict } : {}),
    counts: o,
  }));
}

/**
 * The run's progress bar (operations judged of all; a run without operations, such as a client
 * run: its steps done of all) and its operations table, each row its state and counts by status.
 * The page's script (service/assets/runProgress.ts) updates both from the event stream.
 */
export function progressDetail(
  kind: string,
  live: boolean,
  progress: ProgressRow | undefined,
  results: RunResults | undefined,
): Raw {
  const lines = operationLines(live, progress, results);
  const withOperations = results !== undefined || progress?.operations !== undefined;
  const done = withOperations ? lines.filter((l) => l.state === 'done').length : (progress?.done ?? 0);
  const total = withOperations ? lines.length : (progress?.total ?? 0);
  const counted = `${done} of ${total}`;
  const bar =
    progress || results
      ? html`<progress id="progress-bar" max="${Math.max(1, total)}" value="${done}">${counted}</progress>`
      : html`<progress id="progress-bar">waiting for a worker</progress>`;
  return html`<div id="run-progress-detail">
<p><label for="progress-bar">${kind === 'server' ? 'Operations judged' : 'Steps done'}:</label> ${bar} <span id="progress-count">${progress || results ? counted : ''}</span></p>
<table id="operations"${lines.length === 0 ? html` hidden` : ''}><caption>Operations: each one's state and its results by status</caption>
<thead><tr><th scope="col">Operation</th><th scope="col">State</th><th scope="col">Verdict</th>${COUNT_COLUMNS.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
<tbody>${lines.map(
    (l) =>
      html`<tr data-operation="${l.id}" data-state="${l.state}"><th scope="row"><code>${l.id}</code></th><td class="op-state">${l.state}</td><td class="op-verdict${l.verdict ? ` verdict-${l.verdict}` : ''}">${l.verdict ?? ''}</td>${COUNT_COLUMNS.map((c) => html`<td class="count-${c}">${l.counts[c] ?? 0}</td>`)}</tr>`,
  )}</tbody></table>
</div>`;
}

/**
 * A finished run's findings that decide its verdict (core/findings.ts isBlocking: MUST failures,
 * then MUST errors), each with the requirement rows it breaks, linked to its cause and to the rows
 * in the report; how many other findings the report holds.
 */
export function runFindings(runId: string, results: RunResults, withReport: boolean): Raw {
  const all = findingsOf(results);
  const blocking = all.filter(isBlocking);
  const others = all.length - blocking.length;
  const report = `/runs/${runId}/report`;
  const link = (fragment: string, text: Raw | string) =>
    withReport ? html`<a href="${report}#${fragment}">${text}</a>` : text;
  const rest =
    others > 0
      ? html`<p id="other-findings">${others} other ${others === 1 ? 'finding' : 'findings'} (SHOULD and INFO rows, warnings) in ${link('causes', 'the report')}.</p>`
      : '';
  if (blocking.length === 0)
    return html`<section id="findings"><h2>Findings</h2><p id="no-must-failure">No MUST failure and no MUST error.</p>${rest}</section>`;
  const failures = blocking.filter((f) => f.status === 'fail').length;
  const errors = blocking.length - failures;
  const shown = blocking.slice(0, RUN_PAGE_FINDINGS);
  return html`<section id="findings"><h2>Findings</h2>
<p>${[failures > 0 ? `${failures} MUST ${failures === 1 ? 'failure' : 'failures'}` : '', errors > 0 ? `${errors} MUST ${errors === 1 ? 'error' : 'errors'} (not judged)` : ''].filter(Boolean).join(' and ')}, each with the requirement rows it breaks${withReport ? ', linked to the report' : ''}:</p>
<ol id="must-findings">${shown.map(
    (f) =>
      html`<li class="finding" data-status="${f.status}" data-check="${f.check}"><strong>${f.status === 'fail' ? 'MUST failure' : 'MUST error'}</strong> ${link(causeAnchor(f), html`<code>${f.check}</code>`)} on ${f.operations.join(', ')} (${f.results.length === 1 ? 'once' : `${f.results.length} times`}): ${f.change}
<span class="finding-rows">Rows: ${f.requirements.length === 0 ? '(none)' : f.requirements.map((r, i) => html`${i > 0 ? ', ' : ''}<span class="row-id">${link(`req-${r}`, html`<code>${r}</code>`)}</span>`)}</span></li>`,
  )}</ol>
${blocking.length > shown.length ? html`<p id="more-findings">And ${blocking.length - shown.length} more in ${link('causes', 'the report')}.</p>` : ''}${rest}</section>`;
}

export const RUN_ROUTES: RouteSpec[] = [
  assetRoute(RUN_PROGRESS_PATH, 'text/javascript', RUN_PROGRESS_SCRIPT),
  {
    method: 'POST',
    url: '/products/:productId/runs',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const productId = param(request, 'productId');
      const product = await productOf(ctx, request);
      if (product.kind === 'client')
        return send(
          reply,
          'Start a run',
          html`<p class="problem">Expected a server product, received a client product: a client is certified in a workspace, started on <a href="/products/${productId}">its page</a>.</p>`,
          who,
          400,
        );
      const id = await queueRun(ctx, product, 'server', null, {
        ...byRequest(request, who),
        detail: `server run of ${product.name} ${product.version}`,
      });
      return reply.redirect(`/runs/${id}`, 303);
    },
  },
  {
    method: 'GET',
    url: '/runs/:runId',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const id = param(request, 'runId');
      const run = await runOf(ctx, request);
      const live = run.state === 'queued' || run.state === 'running';
      const results = run.state === 'finished' ? await readResults(ctx, id) : undefined;
      const progress = readProgress(run.progress);
      const withReport = run.state === 'finished' && Boolean(run.report_dir);
      // What changes while the run goes on carries an id: the page's script (service/assets/runProgress.ts)
      // updates the state and the progress, and when the run has ended swaps in the blocks below from this page anew.
      return send(
        reply,
        `Run of ${run.name} ${run.version}`,
        html`<p><a href="/products/${run.product_id}">History of the product</a>${run.kind === 'client' ? html` · <a id="workspace" href="/runs/${id}/workspace">the workspace</a> (addresses and credentials for the client)` : ''}</p>
<p role="status">State: <strong id="state">${run.state}</strong> · Verdict: <strong id="verdict">${run.verdict ?? ''}</strong><span id="coverage">${run.coverage_in_scope !== null ? html` · Coverage: ${coverageText(run.coverage_judged, run.coverage_in_scope)}` : ''}</span></p>
<div id="run-problem">${run.problem ? html`<p class="problem" id="problem">${run.problem}</p>` : ''}</div>
<p>Progress: <span id="progress">${run.state === 'cancelled' && !run.progress ? 'none: cancelled before a worker took it' : progressText(run.progress)}</span></p>
${live ? html`<noscript><p>This page follows the run with a script: <a href="/runs/${id}">reload it</a> to see how far it has come.</p></noscript>` : ''}
${progressDetail(run.kind, live, progress, results)}
<div id="run-outcome">${live ? html`<form method="post" action="/runs/${id}/cancel">${csrfField(who.csrf)}<button id="cancel">Cancel the run</button></form>` : ''}
${withReport ? html`<p><a id="report" href="/runs/${id}/report">The report</a>${run.signature !== null ? html` · <a id="download" href="/runs/${id}/report.tar.gz">the signed report folder</a> (<code>tar -xzf</code>, then <code>npx conformance verify-report DIR --key URL</code>)` : ''}</p>` : ''}
${await certificateLine(ctx, run, results)}
${results ? runFindings(id, results, withReport) : ''}</div>
${live ? html`<script src="${RUN_PROGRESS_PATH}" data-run-id="${id}"></script>` : ''}`,
        who,
      );
    },
  },
  {
    method: 'GET',
    url: '/runs/:runId.json',
    access: 'signed-in',
    async handler(request, reply, ctx) {
      const run = await runOf(ctx, request);
      return reply.type('application/json').send({
        id: run.id,
        product: { id: run.product_id, name: run.name, version: run.version },
        kind: run.kind,
        state: run.state,
        verdict: run.verdict,
        coverage:
          run.coverage_in_scope !== null ? { judged: run.coverage_judged, inScope: run.coverage_in_scope } : null,
        problem: run.problem,
        // As the event stream gives it: suites done, and each operation's state and counts (readProgress).
        progress: readProgress(run.progress) ?? null,
        attempt: run.attempt,
        createdAt: run.created_at,
        startedAt: run.started_at,
        finishedAt: run.finished_at,
      });
    },
  },
  {
    method: 'POST',
    url: '/runs/:runId/cancel',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const id = param(request, 'runId');
      const cancelled = await cancelRun(ctx, id, `Cancelled by ${who.email}.`);
      if (cancelled) {
        const run = await runOf(ctx, request);
        await audit(ctx, {
          ...byRequest(request, who),
          organisationId: run.organisation_id,
          productId: run.product_id,
          runId: id,
          action: 'run-cancelled',
          detail: `${run.kind} run of ${run.name} ${run.version}`,
        });
      }
      if (!cancelled) {
        const run = await runOf(ctx, request);
        return refuse(
          request,
          reply,
          409,
          'Cancel the run',
          `Expected a queued or running run, received a ${run.state} one: nothing to cancel.`,
          who,
        );
      }
      if (wantsJson(request)) return reply.type('application/json').send({ id, state: 'cancelled' });
      return reply.redirect(`/runs/${id}`, 303);
    },
  },
  {
    method: 'GET',
    url: '/runs/:runId/events',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const id = param(request, 'runId');
      return streamRunEvents(ctx, id, request, reply, who.userId);
    },
  },
  {
    method: 'GET',
    url: '/runs/:runId/report.tar.gz',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const id = param(request, 'runId');
      const run = await ctx.db
        .selectFrom('runs')
        .select(['signature', 'finished_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      if (run.signature === null) return notFound(reply, who);
      const rows = await ctx.db
        .selectFrom('run_files')
        .select(['name', 'content'])
        .where('run_id', '=', id)
        .where('name', 'in', [...SIGNED_FILES])
        .execute();
      const files = Object.fromEntries(
        SIGNED_FILES.flatMap((name) => rows.filter((r) => r.name === name).map((r) => [name, r.content])),
      );
      const folder = `conformance-report-${id}`;
      return reply
        .type('application/gzip')
        .header('content-disposition', `attachment; filename="${folder}.tar.gz"`)
        .send(tarGz(folder, files, new Date(run.finished_at ?? 0)));
    },
  },
  {
    method: 'GET',
    url: '/runs/:runId/report',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const report = await runFile(ctx, param(request, 'runId'), 'report.html');
      if (report === undefined) return notFound(reply, who);
      return reply.type('text/html; charset=utf-8').send(report);
    },
  },
];
