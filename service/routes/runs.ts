/**
 * Runs: starting one (refused beyond the organisation's limit: claims.ts queueRun), watching it,
 * its status as JSON, cancelling it, its report; and the history helpers the product page uses.
 */
import { shareLabel } from '../../core/coverage.ts';
import type { RunResults } from '../../core/results.ts';
import { certificateDecision, certificateStatus, SIGNED_FILES } from '../certificates.ts';
import type { ServiceContext } from '../context.ts';
import { csrfField, html, type Raw } from '../html.ts';
import { tarGz } from '../tarGz.ts';
import { progressText, streamRunEvents } from '../runEvents.ts';
import { cancelRun, queueRun } from '../jobs/claims.ts';
import { RUN_PROGRESS_PATH, RUN_PROGRESS_SCRIPT } from '../assets/runProgress.ts';
import { audit, byRequest } from '../audit.ts';
import { assetRoute, notFound, param, refuse, type RouteSpec, send, productOf, runOf, wantsJson } from './shared.ts';

const VERDICT_COLOURS: Record<string, string> = {
  conformant: '#070',
  'not-conformant': '#a00',
  inconclusive: '#b80',
};

/**
 * Verdict and coverage over time, oldest left: one point per finished run at its coverage (0 to
 * 100%), coloured by its verdict; an inline SVG, so the page needs nothing else.
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
  if (runs.length === 0) return '';
  const [w, h, pad] = [Math.max(120, 40 * runs.length), 100, 10];
  const x = (i: number) => (runs.length === 1 ? w / 2 : pad + (i * (w - 2 * pad)) / (runs.length - 1));
  const y = (r: (typeof runs)[number]) =>
    h - pad - ((h - 2 * pad) * (r.coverage_judged ?? 0)) / Math.max(1, r.coverage_in_scope ?? 1);
  const line = runs.map((r, i) => `${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(' ');
  return html`<svg id="history-chart" role="img" aria-label="Coverage and verdict of each run" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
<line x1="0" y1="${h - pad}" x2="${w}" y2="${h - pad}" stroke="#ccd"/><line x1="0" y1="${pad}" x2="${w}" y2="${pad}" stroke="#ccd" stroke-dasharray="3"/>
<polyline points="${line}" fill="none" stroke="#789"/>
${runs.map(
  (r, i) =>
    html`<circle cx="${x(i).toFixed(1)}" cy="${y(r).toFixed(1)}" r="5" fill="${VERDICT_COLOURS[r.verdict ?? ''] ?? '#777'}"><title>${r.created_at}: ${r.verdict ?? ''}, coverage ${coverageText(r.coverage_judged, r.coverage_in_scope)}</title></circle>`,
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
  const decision = certificateDecision(run, ctx.settings.certificate, await readResults(ctx, run.id));
  const why = decision.earned
    ? run.signature === null
      ? 'the run was performed before the service signed its runs'
      : 'none was issued for this run'
    : decision.reason;
  return html`<p id="no-certificate">No certificate: ${why}.</p>`;
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
      return send(
        reply,
        `Run of ${run.name} ${run.version}`,
        html`<p><a href="/products/${run.product_id}">History of the product</a>${run.kind === 'client' ? html` · <a id="workspace" href="/runs/${id}/workspace">the workspace</a> (addresses and credentials for the client)` : ''}</p>
<p>State: <strong id="state">${run.state}</strong> · Verdict: <strong id="verdict">${run.verdict ?? ''}</strong>
${run.coverage_in_scope !== null ? html` · Coverage: ${coverageText(run.coverage_judged, run.coverage_in_scope)}` : ''}</p>
${run.problem ? html`<p class="problem" id="problem">${run.problem}</p>` : ''}
<p>Progress: <span id="progress">${run.state === 'cancelled' && !run.progress ? 'none: cancelled before a worker took it' : progressText(run.progress)}</span></p>
${live ? html`<form method="post" action="/runs/${id}/cancel">${csrfField(who.csrf)}<button id="cancel">Cancel the run</button></form>` : ''}
${run.state === 'finished' && run.report_dir ? html`<p><a id="report" href="/runs/${id}/report">The report</a>${run.signature !== null ? html` · <a id="download" href="/runs/${id}/report.tar.gz">the signed report folder</a> (<code>tar -xzf</code>, then <code>npx conformance verify-report DIR --key URL</code>)` : ''}</p>` : ''}
${await certificateLine(ctx, run)}
${live ? html`<script src="/assets/run-progress.js" data-run-id="${id}"></script>` : ''}`,
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
