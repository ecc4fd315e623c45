/**
 * Every route of the service, as data: method, URL, who may use it, and its handler. The app
 * (service/app.ts) installs them with one access check in front of each: a route's `:organisationId`,
 * `:productId` and `:runId` must name a row of the signed-in person's organisation (the operator
 * sees every organisation), else the answer is 404 (not 403: another organisation's ids are not
 * confirmed to exist). test/serviceAccess.test.ts walks this list with another organisation's ids.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { diffRuns } from '../core/baseline.ts';
import type { RunResults } from '../core/results.ts';
import { type ServiceContext, iso } from './context.ts';
import type { Role } from './db/schema.ts';
import { csrfField, html, page, type Raw } from './html.ts';
import { progressText, streamRunEvents } from './runEvents.ts';
import { hashPassword, newToken, tokenHash, verifyPassword } from './secrets.ts';
import { endSession, SESSION_COOKIE, startSession, type Who } from './sessions.ts';

export type Access = 'public' | 'signed-in' | 'operator';

interface RouteBase {
  method: 'GET' | 'POST';
  url: string;
  /** Sign-in: attempts per address are limited (settings.signIn). */
  rateLimited?: boolean;
}

/** A public route may be used signed in or not; the others only signed in (the operator's only by the operator). */
export type RouteSpec =
  | (RouteBase & {
      access: 'public';
      handler(
        request: FastifyRequest,
        reply: FastifyReply,
        ctx: ServiceContext,
        who: Who | undefined,
      ): Promise<unknown>;
    })
  | (RouteBase & {
      access: 'signed-in' | 'operator';
      handler(request: FastifyRequest, reply: FastifyReply, ctx: ServiceContext, who: Who): Promise<unknown>;
    });

/** The route parameters that name a row owned by an organisation. */
export const OWNED_PARAMS = ['organisationId', 'productId', 'runId'] as const;
export type OwnedParam = (typeof OWNED_PARAMS)[number];

/** The organisation owning the row a parameter names, or undefined when there is none. */
export async function ownerOf(ctx: ServiceContext, param: OwnedParam, id: string): Promise<string | undefined> {
  if (param === 'organisationId') {
    const row = await ctx.db.selectFrom('organisations').select('id').where('id', '=', id).executeTakeFirst();
    return row?.id;
  }
  const table = param === 'productId' ? 'products' : 'runs';
  const row = await ctx.db.selectFrom(table).select('organisation_id').where('id', '=', id).executeTakeFirst();
  return row?.organisation_id;
}

type Body = Record<string, string | undefined>;
const bodyOf = (request: FastifyRequest): Body => (request.body ?? {}) as Body;
const param = (request: FastifyRequest, name: string): string => (request.params as Record<string, string>)[name];

function send(reply: FastifyReply, title: string, body: Raw, who?: Who, status = 200): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(page(title, body, who ? { email: who.email, csrf: who.csrf, operator: who.role === 'operator' } : undefined));
}

export function notFound(reply: FastifyReply, who?: Who): FastifyReply {
  return send(reply, 'Not found', html`<p>There is nothing at this address.</p>`, who, 404);
}

const home = (who: Who): string => (who.role === 'operator' ? '/organisations' : '/products');

function signInPage(reply: FastifyReply, problem?: string, status = 200): FastifyReply {
  const csrf = reply.generateCsrf();
  return send(
    reply,
    'Sign in',
    html`${problem ? html`<p class="problem">${problem}</p>` : ''}
<form method="post" action="/sign-in">${csrfField(csrf)}
<label>Email <input type="email" name="email" required autocomplete="username"></label>
<label>Password <input type="password" name="password" required autocomplete="current-password"></label>
<button>Sign in</button></form>`,
    undefined,
    status,
  );
}

function origin(request: FastifyRequest, ctx: ServiceContext): string {
  return (ctx.settings.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
}

/** Creates a one-time invite and answers its link (the token is shown once and stored only hashed). */
export async function createInvite(
  ctx: ServiceContext,
  invite: { email: string; role: Role; organisationId: string | null },
): Promise<string> {
  const token = newToken();
  const now = ctx.now();
  await ctx.db
    .insertInto('invites')
    .values({
      id: randomUUID(),
      token_hash: tokenHash(token),
      email: invite.email,
      role: invite.role,
      organisation_id: invite.organisationId,
      expires_at: iso(new Date(now.getTime() + ctx.settings.inviteHours * 3_600_000)),
      used_at: null,
      created_at: iso(now),
    })
    .execute();
  return `/invite/${token}`;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

async function validInvite(ctx: ServiceContext, token: string) {
  const row = await ctx.db
    .selectFrom('invites')
    .selectAll()
    .where('token_hash', '=', tokenHash(token))
    .executeTakeFirst();
  if (!row) return { problem: 'This invite link is not valid.' } as const;
  if (row.used_at !== null) return { problem: 'This invite link has been used already.' } as const;
  if (row.expires_at <= iso(ctx.now())) return { problem: 'This invite link has expired: ask for a new one.' } as const;
  return { invite: row } as const;
}

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

function coverageText(judged: number | null, inScope: number | null): string {
  if (judged === null || inScope === null) return '';
  return `${Math.round((100 * judged) / Math.max(1, inScope))}% (${judged}/${inScope})`;
}

/** A file of a finished run, as the worker that performed it stored it (on any machine). */
async function runFile(
  ctx: ServiceContext,
  runId: string,
  name: 'report.html' | 'results.json',
): Promise<string | undefined> {
  const row = await ctx.db
    .selectFrom('run_files')
    .select('content')
    .where('run_id', '=', runId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.content;
}

async function readResults(ctx: ServiceContext, runId: string): Promise<RunResults | undefined> {
  const text = await runFile(ctx, runId, 'results.json');
  try {
    return text === undefined ? undefined : (JSON.parse(text) as RunResults);
  } catch {
    return undefined;
  }
}

export const ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    url: '/',
    access: 'public',
    async handler(_request, reply, _ctx, who) {
      return who ? reply.redirect(home(who)) : signInPage(reply);
    },
  },
  {
    method: 'POST',
    url: '/sign-in',
    access: 'public',
    rateLimited: true,
    async handler(request, reply, ctx) {
      const { email = '', password = '' } = bodyOf(request);
      const user = await ctx.db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', email.trim().toLowerCase())
        .executeTakeFirst();
      // The same work and the same answer whether the address is known or the password wrong.
      const ok = await verifyPassword(password, user?.password_hash ?? null);
      if (!user || !ok) return signInPage(reply, 'Wrong email or password.', 401);
      await startSession(ctx, request, reply, user.id);
      return reply.redirect(user.role === 'operator' ? '/organisations' : '/products', 303);
    },
  },
  {
    method: 'POST',
    url: '/sign-out',
    access: 'signed-in',
    async handler(request, reply, ctx) {
      await endSession(ctx, request, reply);
      return reply.redirect('/', 303);
    },
  },
  {
    method: 'GET',
    url: '/invite/:token',
    access: 'public',
    async handler(request, reply, ctx) {
      const found = await validInvite(ctx, param(request, 'token'));
      if (!found.invite) return send(reply, 'Invite', html`<p class="problem">${found.problem}</p>`, undefined, 410);
      const csrf = reply.generateCsrf();
      return send(
        reply,
        'Set your password',
        html`<p>Invited as ${found.invite.email}.</p>
<form method="post" action="/invite/${param(request, 'token')}">${csrfField(csrf)}
<label>Password (12 characters or more) <input type="password" name="password" minlength="12" required autocomplete="new-password"></label>
<button>Set password</button></form>`,
      );
    },
  },
  {
    method: 'POST',
    url: '/invite/:token',
    access: 'public',
    rateLimited: true,
    async handler(request, reply, ctx) {
      const token = param(request, 'token');
      const found = await validInvite(ctx, token);
      if (!found.invite) return send(reply, 'Invite', html`<p class="problem">${found.problem}</p>`, undefined, 410);
      const { password = '' } = bodyOf(request);
      if (password.length < 12) {
        return send(
          reply,
          'Set your password',
          html`<p class="problem">Expected a password of 12 characters or more, received ${password.length}.</p>
<p><a href="/invite/${token}">Try again</a></p>`,
          undefined,
          400,
        );
      }
      const invite = found.invite;
      const hash = await hashPassword(password);
      const now = iso(ctx.now());
      // The invite is used once: the update that marks it used is the one that wins.
      const userId = await ctx.db.transaction().execute(async (tx) => {
        const used = await tx
          .updateTable('invites')
          .set({ used_at: now })
          .where('id', '=', invite.id)
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) !== 1) return undefined;
        const existing = await tx.selectFrom('users').select('id').where('email', '=', invite.email).executeTakeFirst();
        if (existing) {
          await tx.updateTable('users').set({ password_hash: hash }).where('id', '=', existing.id).execute();
          return existing.id;
        }
        const id = randomUUID();
        await tx
          .insertInto('users')
          .values({
            id,
            email: invite.email,
            password_hash: hash,
            role: invite.role,
            organisation_id: invite.organisation_id,
            created_at: now,
          })
          .execute();
        return id;
      });
      if (!userId)
        return send(
          reply,
          'Invite',
          html`<p class="problem">This invite link has been used already.</p>`,
          undefined,
          410,
        );
      await startSession(ctx, request, reply, userId);
      return reply.redirect(invite.role === 'operator' ? '/organisations' : '/products', 303);
    },
  },
  {
    method: 'GET',
    url: '/organisations',
    access: 'operator',
    async handler(_request, reply, ctx, who) {
      const orgs = await ctx.db.selectFrom('organisations').selectAll().orderBy('name').execute();
      return send(
        reply,
        'Organisations',
        html`<table><tr><th>Name</th><th>Created</th></tr>${orgs.map(
          (o) => html`<tr><td><a href="/organisations/${o.id}">${o.name}</a></td><td>${o.created_at}</td></tr>`,
        )}</table>
<h2>New organisation</h2>
<form method="post" action="/organisations">${csrfField(who.csrf)}
<label>Name <input type="text" name="name" required></label><button>Create</button></form>`,
        who,
      );
    },
  },
  {
    method: 'POST',
    url: '/organisations',
    access: 'operator',
    async handler(request, reply, ctx, who) {
      const name = (bodyOf(request).name ?? '').trim();
      if (name === '')
        return send(reply, 'Organisations', html`<p class="problem">Expected a name, received none.</p>`, who, 400);
      const taken = await ctx.db.selectFrom('organisations').select('id').where('name', '=', name).executeTakeFirst();
      if (taken)
        return send(
          reply,
          'Organisations',
          html`<p class="problem">An organisation named ${name} exists already.</p>`,
          who,
          409,
        );
      const id = randomUUID();
      await ctx.db
        .insertInto('organisations')
        .values({ id, name, created_at: iso(ctx.now()) })
        .execute();
      return reply.redirect(`/organisations/${id}`, 303);
    },
  },
  {
    method: 'GET',
    url: '/organisations/:organisationId',
    access: 'operator',
    async handler(request, reply, ctx, who) {
      const id = param(request, 'organisationId');
      const org = await ctx.db.selectFrom('organisations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const people = await ctx.db
        .selectFrom('users')
        .selectAll()
        .where('organisation_id', '=', id)
        .orderBy('email')
        .execute();
      const products = await ctx.db
        .selectFrom('products')
        .selectAll()
        .where('organisation_id', '=', id)
        .orderBy('name')
        .execute();
      return send(
        reply,
        org.name,
        html`<h2>People</h2><ul>${people.map((p) => html`<li>${p.email}${p.password_hash ? '' : ' (invited)'}</li>`)}</ul>
<h2>Invite someone</h2>
<form method="post" action="/organisations/${id}/invites">${csrfField(who.csrf)}
<label>Email <input type="email" name="email" required></label><button>Create a one-time invite link</button></form>
<h2>Products</h2><ul>${products.map((p) => html`<li><a href="/products/${p.id}">${p.name} ${p.version}</a></li>`)}</ul>`,
        who,
      );
    },
  },
  {
    method: 'POST',
    url: '/organisations/:organisationId/invites',
    access: 'operator',
    async handler(request, reply, ctx, who) {
      const id = param(request, 'organisationId');
      const email = (bodyOf(request).email ?? '').trim().toLowerCase();
      if (!EMAIL.test(email))
        return send(
          reply,
          'Invite',
          html`<p class="problem">Expected an email address, received ${JSON.stringify(email)}.</p>`,
          who,
          400,
        );
      const existing = await ctx.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
      if (existing && existing.organisation_id !== id)
        return send(reply, 'Invite', html`<p class="problem">${email} belongs to another organisation.</p>`, who, 409);
      const link = origin(request, ctx) + (await createInvite(ctx, { email, role: 'partner', organisationId: id }));
      return send(
        reply,
        'Invite created',
        html`<p class="notice">Send this link to ${email}. It works once, for ${ctx.settings.inviteHours} hours, and is not shown again:</p>
<p><code id="invite-link">${link}</code></p><p><a href="/organisations/${id}">Back</a></p>`,
        who,
      );
    },
  },
  {
    method: 'GET',
    url: '/products',
    access: 'signed-in',
    async handler(_request, reply, ctx, who) {
      let query = ctx.db
        .selectFrom('products')
        .innerJoin('organisations', 'organisations.id', 'products.organisation_id')
        .select([
          'products.id',
          'products.name',
          'products.version',
          'products.base_url',
          'organisations.name as organisation',
        ])
        .orderBy('products.name');
      if (who.role !== 'operator') query = query.where('products.organisation_id', '=', who.organisationId ?? '');
      const products = await query.execute();
      const form =
        who.role === 'partner'
          ? html`<h2>Register a product</h2>
<form method="post" action="/products">${csrfField(who.csrf)}
<label>Name <input type="text" name="name" required></label>
<label>Version <input type="text" name="version" required></label>
<label>Server base URL <input type="url" name="baseUrl" required placeholder="https://staging.example.com"></label>
<label>Operations (optional, as --only: ids with * or documents D1, D2, D3) <input type="text" name="only"></label>
<button>Register</button></form>`
          : '';
      return send(
        reply,
        'Products',
        html`<table><tr><th>Product</th><th>Version</th><th>Server</th><th>Organisation</th></tr>${products.map(
          (p) =>
            html`<tr><td><a href="/products/${p.id}">${p.name}</a></td><td>${p.version}</td><td>${p.base_url}</td><td>${p.organisation}</td></tr>`,
        )}</table>${form}`,
        who,
      );
    },
  },
  {
    method: 'POST',
    url: '/products',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      // The operator registers nothing of their own: products belong to an organisation.
      if (who.role !== 'partner' || !who.organisationId) return notFound(reply, who);
      const { name = '', version = '', baseUrl = '', only = '' } = bodyOf(request);
      const problems: string[] = [];
      if (name.trim() === '') problems.push('Expected a name, received none.');
      if (version.trim() === '') problems.push('Expected a version, received none.');
      let url: URL | undefined;
      try {
        url = new URL(baseUrl.trim());
      } catch {
        // reported below
      }
      if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
        problems.push(`Expected an http or https base URL, received ${JSON.stringify(baseUrl)}.`);
      if (url && (url.username || url.password))
        problems.push('Expected a base URL without credentials: secrets go in the config.');
      if (only.trim() !== '') {
        const { selectOperations } = await import('../app/selectOperations.ts');
        try {
          selectOperations(only.trim());
        } catch (e) {
          problems.push((e as Error).message);
        }
      }
      if (problems.length > 0 || url === undefined)
        return send(
          reply,
          'Products',
          html`${problems.map((p) => html`<p class="problem">${p}</p>`)}<p><a href="/products">Back</a></p>`,
          who,
          400,
        );
      const id = randomUUID();
      const now = iso(ctx.now());
      await ctx.db
        .insertInto('products')
        .values({
          id,
          organisation_id: who.organisationId,
          name: name.trim(),
          version: version.trim(),
          base_url: url.toString().replace(/\/+$/, ''),
          only: only.trim() === '' ? null : only.trim(),
          created_at: now,
        })
        .execute();
      await ctx.db
        .insertInto('product_configs')
        .values({ product_id: id, config_json: null, secrets_encrypted: null, updated_at: now })
        .execute();
      return reply.redirect(`/products/${id}`, 303);
    },
  },
  {
    method: 'GET',
    url: '/products/:productId',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const id = param(request, 'productId');
      const product = await ctx.db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const config = await ctx.db
        .selectFrom('product_configs')
        .selectAll()
        .where('product_id', '=', id)
        .executeTakeFirst();
      const runs = await ctx.db
        .selectFrom('runs')
        .selectAll()
        .where('product_id', '=', id)
        .orderBy('created_at', 'desc')
        .execute();
      // What changed since the previous finished run (core/baseline.ts diffRuns), newest first.
      const finished = runs.filter((r) => r.state === 'finished');
      const changes = new Map<string, Raw>();
      for (let i = 0; i < finished.length - 1; i++) {
        const [b, a] = [await readResults(ctx, finished[i].id), await readResults(ctx, finished[i + 1].id)];
        if (!a || !b) continue;
        const d = diffRuns(a, finished[i + 1].id, b, finished[i].id);
        changes.set(
          finished[i].id,
          html`${d.findings.new.length} new, ${d.findings.fixed.length} fixed${d.findings.new.length > 0 ? html`<ul class="new-findings">${d.findings.new.map((f) => html`<li>${f.level} ${f.check} on ${f.operations.join(', ')}</li>`)}</ul>` : ''}${d.findings.fixed.length > 0 ? html`<ul class="fixed-findings">${d.findings.fixed.map((f) => html`<li>fixed: ${f.check} on ${f.operations.join(', ')}</li>`)}</ul>` : ''}`,
        );
      }
      const secretNames = config?.secrets_encrypted
        ? Object.keys(JSON.parse(ctx.box.open(config.secrets_encrypted)))
        : [];
      return send(
        reply,
        `${product.name} ${product.version}`,
        html`<p>Server: <code>${product.base_url}</code>${product.only ? html` · operations: <code>${product.only}</code>` : ''}</p>
<form method="post" action="/products/${id}/runs">${csrfField(who.csrf)}<button>Start a run</button></form>
<h2>History</h2>
${historyChart(finished)}
<table id="history"><tr><th>Run</th><th>State</th><th>Verdict</th><th>Coverage</th><th>Since the previous run</th></tr>${runs.map(
          (r) =>
            html`<tr><td><a href="/runs/${r.id}">${r.created_at}</a></td><td>${r.state}${r.attempt > 1 ? ` (attempt ${r.attempt})` : ''}</td><td class="verdict-${r.verdict ?? ''}">${r.verdict ?? ''}${r.problem ? html` <span class="problem">${r.problem}</span>` : ''}</td><td>${coverageText(r.coverage_judged, r.coverage_in_scope)}</td><td>${changes.get(r.id) ?? ''}</td></tr>`,
        )}</table>
<h2>Config</h2>
<p>${config?.config_json ? 'A config of its own is stored.' : 'No config stored: runs use the sandbox demo config (the fixtures of a server holding the sandbox seed data).'}
Secrets stored (never shown back): ${secretNames.length > 0 ? secretNames.join(', ') : 'none'}.</p>
<form method="post" action="/products/${id}/config">${csrfField(who.csrf)}
<label>Config file (JSON, core/config.schema.json; empty: the demo config) <textarea name="config">${config?.config_json ?? ''}</textarea></label>
<label>Secrets, one NAME=value a line (the environment variables the config names; empty keeps those stored) <textarea name="secrets" autocomplete="off"></textarea></label>
<button>Save</button></form>`,
        who,
      );
    },
  },
  {
    method: 'POST',
    url: '/products/:productId/config',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const id = param(request, 'productId');
      const { config = '', secrets = '' } = bodyOf(request);
      const problems: string[] = [];
      if (config.trim() !== '') {
        const { checkConfigText } = await import('./configCheck.ts');
        problems.push(...checkConfigText(config));
      }
      const pairs: [string, string][] = [];
      for (const line of secrets.split(/\r?\n/)) {
        if (line.trim() === '') continue;
        const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
        if (!m) problems.push('Expected secrets as NAME=value lines, received a line without NAME=.');
        else pairs.push([m[1], m[2]]);
      }
      if (problems.length > 0)
        return send(
          reply,
          'Config',
          html`${problems.map((p) => html`<p class="problem">${p}</p>`)}<p><a href="/products/${id}">Back</a></p>`,
          who,
          400,
        );
      const update: { config_json: string | null; updated_at: string; secrets_encrypted?: string } = {
        config_json: config.trim() === '' ? null : config,
        updated_at: iso(ctx.now()),
      };
      if (pairs.length > 0) update.secrets_encrypted = ctx.box.seal(JSON.stringify(Object.fromEntries(pairs)));
      await ctx.db.updateTable('product_configs').set(update).where('product_id', '=', id).execute();
      return reply.redirect(`/products/${id}`, 303);
    },
  },
  {
    method: 'POST',
    url: '/products/:productId/runs',
    access: 'signed-in',
    async handler(request, reply, ctx) {
      const productId = param(request, 'productId');
      const product = await ctx.db
        .selectFrom('products')
        .selectAll()
        .where('id', '=', productId)
        .executeTakeFirstOrThrow();
      const id = randomUUID();
      await ctx.db
        .insertInto('runs')
        .values({
          id,
          product_id: productId,
          organisation_id: product.organisation_id,
          state: 'queued',
          verdict: null,
          coverage_judged: null,
          coverage_in_scope: null,
          report_dir: null,
          progress: null,
          problem: null,
          created_at: iso(ctx.now()),
          started_at: null,
          finished_at: null,
          lease_until: null,
          worker: null,
        })
        .execute();
      await ctx.queue.enqueue(id);
      return reply.redirect(`/runs/${id}`, 303);
    },
  },
  {
    method: 'GET',
    url: '/runs/:runId',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const id = param(request, 'runId');
      const run = await ctx.db
        .selectFrom('runs')
        .innerJoin('products', 'products.id', 'runs.product_id')
        .selectAll('runs')
        .select(['products.name', 'products.version'])
        .where('runs.id', '=', id)
        .executeTakeFirstOrThrow();
      const live = run.state === 'queued' || run.state === 'running';
      return send(
        reply,
        `Run of ${run.name} ${run.version}`,
        html`<p><a href="/products/${run.product_id}">History of the product</a></p>
<p>State: <strong id="state">${run.state}</strong> · Verdict: <strong id="verdict">${run.verdict ?? ''}</strong>
${run.coverage_in_scope !== null ? html` · Coverage: ${coverageText(run.coverage_judged, run.coverage_in_scope)}` : ''}</p>
${run.problem ? html`<p class="problem" id="problem">${run.problem}</p>` : ''}
<p>Progress: <span id="progress">${progressText(run.progress)}</span></p>
${run.state === 'finished' && run.report_dir ? html`<p><a id="report" href="/runs/${id}/report">The report</a></p>` : ''}
${live ? html`<script>const s=new EventSource('/runs/${id}/events');s.addEventListener('progress',(e)=>{const p=JSON.parse(e.data);document.getElementById('state').textContent=p.state;document.getElementById('progress').textContent=p.text;});s.addEventListener('done',()=>{s.close();location.reload();});</script>` : ''}`,
        who,
      );
    },
  },
  {
    method: 'GET',
    url: '/runs/:runId/events',
    access: 'signed-in',
    async handler(request, reply, ctx) {
      const id = param(request, 'runId');
      return streamRunEvents(ctx, id, request, reply);
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

export { SESSION_COOKIE };
