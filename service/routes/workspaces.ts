/**
 * Client certifications: starting one (a run of kind client: the workspaces of the chosen
 * scenarios, service/jobs/performClientRun.ts), its page with what the partner's client must
 * use (addresses and credentials, live as the worker records them), the same as JSON (what
 * `certify-client --config-out` writes, for a client started by a script), and "Finish and judge".
 */
import type { FastifyReply } from 'fastify';
import { progressText } from '../runEvents.ts';
import type { Who } from '../sessions.ts';
import { iso } from '../context.ts';
import { csrfField, html } from '../html.ts';
import type { ClientProgress, ClientRunInput } from '../jobs/performClientRun.ts';
import { queueRun } from '../jobs/claims.ts';
import { byRequest } from '../audit.ts';
import { notFound, param, type RouteSpec, send, assetRoute, productOf, runOf } from './shared.ts';

/** After this long without a request, a workspace says so (not only at the time-out). */
const NO_REQUEST_NOTICE_MS = 30_000;

/** The time-out a partner may give a workspace, in seconds: a workspace holds a worker while it waits. */
export const WORKSPACE_TIMEOUT = { min: 30, max: 3600, default: 600 } as const;

function progressOf(text: string | null): ClientProgress | undefined {
  if (!text) return undefined;
  const p = JSON.parse(text) as Partial<ClientProgress>;
  return p.kind === 'client' ? (p as ClientProgress) : undefined;
}

const problemPage = (reply: FastifyReply, who: Who, lines: string[], back: string) =>
  send(
    reply,
    'Client certification',
    html`${lines.map((l) => html`<p class="problem">${l}</p>`)}<p><a href="${back}">Back</a></p>`,
    who,
    400,
  );

/** The workspace page's live part, served as a file (the pages' Content-Security-Policy allows no inline script). */
export const WORKSPACE_SCRIPT_PATH = '/assets/workspace.js';

/**
 * Follows the run's events; reloads the page when its progress changes (the workspaces are up, a
 * scenario ended) and when the run is done, so the page shows addresses, endings and the report.
 */
const WORKSPACE_SCRIPT = `(() => {
  const id = document.currentScript && document.currentScript.dataset.runId;
  const shown = document.getElementById('progress');
  if (!id || !shown) return;
  const events = new EventSource('/runs/' + encodeURIComponent(id) + '/events');
  events.addEventListener('progress', (e) => {
    const p = JSON.parse(e.data);
    document.getElementById('state').textContent = p.state;
    if (p.text !== shown.dataset.progress) {
      events.close();
      location.reload();
    }
  });
  events.addEventListener('done', () => {
    events.close();
    location.reload();
  });
})();
`;

export const WORKSPACE_ROUTES: RouteSpec[] = [
  assetRoute(WORKSPACE_SCRIPT_PATH, 'text/javascript', WORKSPACE_SCRIPT),
  {
    method: 'POST',
    url: '/products/:productId/workspaces',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const productId = param(request, 'productId');
      const product = await productOf(ctx, request);
      const back = `/products/${productId}`;
      if (product.kind !== 'client')
        return problemPage(reply, who, [`Expected a client product, received a ${product.kind} product.`], back);
      const body = (request.body ?? {}) as Record<string, string | string[] | undefined>;
      const chosen = [body.scenarios ?? []].flat().filter((s) => s !== '');
      const { SCENARIOS } = await import('../../certify/scenarios.ts');
      const problems: string[] = [];
      const unknown = chosen.filter((id) => !SCENARIOS.some((s) => s.id === id));
      if (unknown.length > 0)
        problems.push(
          `Expected scenarios of ${SCENARIOS.map((s) => s.id).join(', ')}, received ${unknown.join(', ')}.`,
        );
      const rawTimeout = [body.timeoutSeconds ?? ''].flat()[0]?.trim() ?? '';
      const timeoutSeconds = rawTimeout === '' ? WORKSPACE_TIMEOUT.default : Number(rawTimeout);
      if (
        !Number.isInteger(timeoutSeconds) ||
        timeoutSeconds < WORKSPACE_TIMEOUT.min ||
        timeoutSeconds > WORKSPACE_TIMEOUT.max
      )
        problems.push(
          `Expected a time-out of ${WORKSPACE_TIMEOUT.min} to ${WORKSPACE_TIMEOUT.max} seconds, received ${JSON.stringify(rawTimeout)}.`,
        );
      if (problems.length > 0) return problemPage(reply, who, problems, back);
      const input: ClientRunInput = {
        ...(chosen.length > 0 ? { scenarios: [...new Set(chosen)] } : {}),
        timeoutSeconds,
      };
      const id = await queueRun(ctx, product, 'client', JSON.stringify(input), {
        ...byRequest(request, who),
        detail: `client workspace of ${product.name} ${product.version}${input.scenarios ? `: ${input.scenarios.join(', ')}` : ''}`,
      });
      return reply.redirect(`/runs/${id}/workspace`, 303);
    },
  },
  {
    method: 'GET',
    url: '/runs/:runId/workspace',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const id = param(request, 'runId');
      const run = await runOf(ctx, request);
      if (run.kind !== 'client') return notFound(reply, who);
      const live = run.state === 'queued' || run.state === 'running';
      const progress = live ? progressOf(run.progress) : undefined;
      const secrets = progress
        ? (JSON.parse(ctx.box.open(progress.sealed)) as Record<string, { clientSecret: string; password: string }>)
        : {};
      const { parseClientInput } = await import('../jobs/performClientRun.ts');
      const finishing = parseClientInput(run.input).finishRequestedAt !== undefined;
      const workspaces = progress
        ? html`<p>Configure your client with the addresses and credentials of each scenario's workspace, and run the scenario. Every request is recorded and judged when you press "Finish and judge", when every scenario has ended, or at the time-out (${progress.timeoutSeconds} s from ${progress.startedAt}). The same as JSON: <a id="workspace-json" href="/runs/${id}/workspace.json">workspace.json</a> (what <code>certify-client --config-out</code> writes).</p>
${progress.workspaces.map(
  (w) => html`<section class="workspace" data-scenario="${w.scenario}"><h2><code>${w.scenario}</code> ${w.title}</h2>
<p>Status: <strong class="ending">${w.ending ?? 'waiting for the client'}</strong> · ${w.requests} request(s) recorded</p>
${!w.ending && w.requests === 0 && Date.now() - Date.parse(progress.startedAt) >= NO_REQUEST_NOTICE_MS ? html`<p class="no-request">No request has reached this workspace yet: configure your client with the discovery address, token endpoint and credentials below, then run the scenario.</p>` : ''}
<ul>${w.instructions.map((line) => html`<li>${line}</li>`)}</ul>
<table>${Object.entries(w.discovery)
    .filter(([service]) => w.services.includes(service))
    .map(
      ([service, url]) => html`<tr><th>discovery (${service})</th><td><code>${url}</code></td></tr>`,
    )}<tr><th>token endpoint</th><td><code>${w.tokenUrl}</code></td></tr>
<tr><th>client id</th><td><code>${w.clientId}</code></td></tr>
<tr><th>client secret</th><td><code class="secret">${secrets[w.scenario]?.clientSecret ?? ''}</code></td></tr>
<tr><th>site id</th><td><code>${w.siteId}</code></td></tr>
<tr><th>user</th><td><code>${w.username}</code> / <code class="secret">${secrets[w.scenario]?.password ?? ''}</code></td></tr>
<tr><th>identity provider</th><td><code>${w.idp.name}</code>, redirect URI <code>${w.idp.redirectUri}</code></td></tr></table></section>`,
)}`
        : live
          ? html`<p id="waiting">The workspaces are being started: this page shows their addresses as soon as they listen.</p>`
          : '';
      return send(
        reply,
        `Client certification of ${run.name} ${run.version}`,
        html`<p><a href="/products/${run.product_id}">The product</a> · <a href="/runs/${id}">The run</a></p>
<p data-progress="${progressText(run.progress)}" id="progress">State: <strong id="state">${run.state}</strong> · Verdict: <strong id="verdict">${run.verdict ?? ''}</strong></p>
${run.problem ? html`<p class="problem" id="problem">${run.problem}</p>` : ''}
${run.state === 'finished' ? html`<p><a id="report" href="/runs/${id}/report">The report</a></p>` : ''}
${live ? (finishing ? html`<p id="finishing">Finishing: the requests are being judged.</p>` : html`<form method="post" action="/runs/${id}/finish" id="finish">${csrfField(who.csrf)}<button>Finish and judge</button></form>`) : ''}
${workspaces}
${live ? html`<script src="${WORKSPACE_SCRIPT_PATH}" data-run-id="${id}"></script>` : ''}`,
        who,
      );
    },
  },
  {
    method: 'GET',
    url: '/runs/:runId/workspace.json',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const run = await ctx.db
        .selectFrom('runs')
        .select(['kind', 'state', 'progress'])
        .where('id', '=', param(request, 'runId'))
        .executeTakeFirstOrThrow();
      const progress = run.state === 'running' ? progressOf(run.progress) : undefined;
      if (run.kind !== 'client') return notFound(reply, who);
      if (!progress)
        return reply
          .code(409)
          .type('application/json')
          .send({ problem: `Expected a running client certification, received one ${run.state}` });
      const secrets = JSON.parse(ctx.box.open(progress.sealed)) as Record<
        string,
        { clientSecret: string; password: string }
      >;
      return reply.type('application/json').send(
        progress.workspaces.map((w) => ({
          scenario: w.scenario,
          discovery: w.discovery,
          tokenUrl: w.tokenUrl,
          clientId: w.clientId,
          clientSecret: secrets[w.scenario]?.clientSecret,
          siteId: w.siteId,
          user: { username: w.username, password: secrets[w.scenario]?.password },
          idp: w.idp,
        })),
      );
    },
  },
  {
    method: 'POST',
    url: '/runs/:runId/finish',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const id = param(request, 'runId');
      const run = await ctx.db
        .selectFrom('runs')
        .select(['kind', 'state', 'input'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      if (run.kind !== 'client') return notFound(reply, who);
      if (run.state !== 'queued' && run.state !== 'running')
        return problemPage(
          reply,
          who,
          [`Expected a client certification still waiting, received one ${run.state}.`],
          `/runs/${id}/workspace`,
        );
      const { parseClientInput } = await import('../jobs/performClientRun.ts');
      const input = parseClientInput(run.input);
      if (!input.finishRequestedAt) {
        // The worker performing the run (in any process) reads this at its next look.
        await ctx.db
          .updateTable('runs')
          .set({ input: JSON.stringify({ ...input, finishRequestedAt: iso(ctx.now()) }) })
          .where('id', '=', id)
          .execute();
      }
      return reply.redirect(`/runs/${id}/workspace`, 303);
    },
  },
];
