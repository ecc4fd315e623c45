/** A partner's products: registering one, its page (history, config) and its config. */
import { randomUUID } from 'node:crypto';
import { diffRuns } from '../../core/baseline.ts';
import { iso } from '../context.ts';
import { csrfField, html, type Raw } from '../html.ts';
import { coverageText, historyChart, readResults } from './runs.ts';
import { bodyOf, notFound, param, type RouteSpec, send } from './shared.ts';

export const PRODUCT_ROUTES: RouteSpec[] = [
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
        const { selectOperations } = await import('../../app/selectOperations.ts');
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
        const { checkConfigText } = await import('../configCheck.ts');
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
];
