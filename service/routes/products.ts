/**
 * A partner's products: registering one, its page (history, config), its config, and whether its
 * target may be changed (a test environment: runs then run the steps that change data).
 */
import { randomUUID } from 'node:crypto';
import { diffRuns } from '../../core/baseline.ts';
import { audit, byRequest } from '../audit.ts';
import { iso, NAME_MAX, type ServiceContext, TEXT_MAX } from '../context.ts';
import { csrfField, html, Raw } from '../html.ts';
import { certificatesTable } from './certificates.ts';
import { coverageText, historyChart, readResults } from './runs.ts';
import { bodyOf, notFound, param, type RouteSpec, send, assetRoute, tooLong } from './shared.ts';
import type { Attestation } from '../../core/results.ts';
import type { FastifyReply } from 'fastify';
import type { ConfigProblem } from '../configCheck.ts';
import {
  CONFIG_FORM_STYLE,
  CONFIG_FORM_STYLE_PATH,
  fieldsOf,
  formToConfig,
  formValuesOf,
  renderConfigForm,
} from '../configForm.ts';
import { variablesOf } from '../jobs/performRun.ts';
import { hostsOf, newHosts, openSecrets, sealSecrets } from '../secretHosts.ts';
import type { Who } from '../sessions.ts';

/** A client's attestation fields (core/config.schema.json attestation), with the schema's help. */
const ATTESTATION_FIELDS: [keyof Attestation, string][] = fieldsOf()
  .filter((f) => f.pointer.startsWith('/attestation/'))
  .map((f) => [f.label as keyof Attestation, f.help]);

/** The attestation of a registration form (`attestation.organisation` ...), each value checked as the schema does. */
function attestationOf(body: Record<string, string | undefined>, problems: string[]): Attestation {
  const attestation: Attestation = {};
  for (const [key] of ATTESTATION_FIELDS) {
    const value = (body[`attestation.${key}`] ?? '').trim();
    if (value === '') continue;
    if (key === 'environment') {
      if (value === 'staging' || value === 'production') attestation.environment = value;
      else problems.push(`Expected the environment staging or production, received ${JSON.stringify(value)}.`);
    } else if (value.length > 200)
      problems.push(`Expected the ${key} in 200 characters or fewer, received ${value.length}.`);
    else attestation[key] = value;
  }
  return attestation;
}

/** A client product's head: its attestation, and a form starting a workspace of chosen scenarios. */
async function clientHead(
  ctx: ServiceContext,
  product: { id: string; attestation: string | null },
  csrf: string,
): Promise<Raw> {
  const { SCENARIOS, isOperatorOnly } = await import('../../certify/scenarios.ts');
  const waiting = await ctx.db
    .selectFrom('runs')
    .select(['id', 'created_at', 'state'])
    .where('product_id', '=', product.id)
    .where('kind', '=', 'client')
    .where('state', 'in', ['queued', 'running'])
    .orderBy('created_at', 'desc')
    .execute();
  const attestation = (product.attestation ? JSON.parse(product.attestation) : {}) as Attestation;
  const stated = ATTESTATION_FIELDS.filter(([key]) => attestation[key] !== undefined);
  return html`<p>A client. Attestation: ${stated.length > 0 ? stated.map(([key], i) => html`${i > 0 ? ' · ' : ''}${key}: <strong>${attestation[key] ?? ''}</strong>`) : 'none stated'}.</p>
<h2>Certify the client</h2>
${waiting.length > 0 ? html`<p id="open-workspaces">Open workspaces: ${waiting.map((w, i) => html`${i > 0 ? ', ' : ''}<a href="/runs/${w.id}/workspace">${w.created_at}</a> (${w.state})`)}</p>` : ''}
<p>A workspace per scenario: a sandbox of its own (addresses, client credentials, a fresh copy of the data) that records every request your client makes; the run page shows what to configure, and judges when you press "Finish and judge" or at the time-out.</p>
<form method="post" action="/products/${product.id}/workspaces">${csrfField(csrf)}
<fieldset><legend>Scenarios (none ticked: every scenario a partner's client may run)</legend>${SCENARIOS.map(
    (s) =>
      html`<label><input type="checkbox" name="scenarios" value="${s.id}"> <code>${s.id}</code> ${s.title}${isOperatorOnly(s) ? html` <small class="reserved">(operator products only: it calls operations reserved for the operator's own products, and a partner's client is refused for them)</small>` : ''}</label>`,
  )}</fieldset>
<label>Time-out in seconds (30 to 3600) <input type="number" name="timeoutSeconds" min="30" max="3600" value="600"></label>
<button>Start a client workspace</button></form>`;
}

/** A server product's config: what is stored, and where to edit it. */
function configSummary(id: string, configJson: string | null, secretNames: string[]): Raw {
  let missing: string[] = [];
  if (configJson) {
    const named = variablesOf(JSON.parse(configJson));
    missing = [...named].filter((n) => !secretNames.includes(n));
  }
  return html`<h2>Config</h2>
<p id="config-summary">${configJson ? 'A config of its own is stored.' : 'No config stored: runs use the sandbox demo config (the fixtures of a server holding the sandbox seed data).'}
Secrets stored (never shown back): ${secretNames.length > 0 ? secretNames.join(', ') : 'none'}.</p>
${missing.length > 0 ? html`<p class="problem" id="missing-secrets">Expected a stored secret for ${missing.join(', ')}, received none: enter it on the config page.</p>` : ''}
<p><a id="edit-config" href="/products/${id}/config">Edit the config</a> (a form of every setting, with its help; or the config file as JSON).</p>`;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The checkbox that says a server's target may be changed, as the forms show it. */
const ALLOW_CHANGES_TEXT =
  'The target is a test environment: runs may change its data (acknowledge batches, create and delete records)';

function allowChangesBox(checked: boolean): Raw {
  const tick = checked ? new Raw(' checked') : '';
  return html`<label><input type="checkbox" name="allowChanges" value="on"${tick}> ${ALLOW_CHANGES_TEXT}</label>`;
}

/** A form's allowChanges checkbox: 1 ticked, 0 not; anything else is a problem. */
function allowChangesOf(body: Record<string, unknown>, problems: string[]): number {
  const value = body.allowChanges;
  if (value === undefined || value === '') return 0;
  if (value === 'on') return 1;
  problems.push(`Expected allowChanges "on" or absent, received ${JSON.stringify(value)}.`);
  return 0;
}

/** What the product page says of a server's changes, and the form that edits it. */
function changesSection(id: string, allowChanges: boolean, csrf: string): Raw {
  const said = allowChanges
    ? 'Changes allowed: the target is a test environment, and runs also run the steps that change its data.'
    : 'Changes not allowed: runs omit the steps that change data, ' +
      'and the operations they judge are left out of certificates.';
  return html`<p id="allow-changes" data-allow-changes="${allowChanges ? 'yes' : 'no'}">${said}</p>
<form method="post" action="/products/${id}/changes" id="changes-form">${csrfField(csrf)}
${allowChangesBox(allowChanges)}
<button>Save whether runs may change data</button></form>`;
}

/** The form's own fields of a submitted body (the values it is shown again with). */
function formValuesFromBody(body: Record<string, string | string[] | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(body).flatMap(([k, v]) =>
      k.startsWith('cfg:') ? [[k, Array.isArray(v) ? (v.find((x) => x !== '') ?? '') : (v ?? '')]] : [],
    ),
  );
}

/**
 * The config page: the form generated from the schema (problems at their fields, one line each),
 * a password field per variable the config names (stored values are never shown back), and the
 * config file as JSON as the advanced alternative.
 */
async function configPage(
  ctx: ServiceContext,
  reply: FastifyReply,
  who: Who,
  id: string,
  view: {
    values: Record<string, string>;
    jsonText: string;
    problems: readonly ConfigProblem[];
    named: Set<string>;
    fromForm?: boolean;
  },
  status = 200,
): Promise<FastifyReply> {
  const product = await ctx.db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const stored = await ctx.db
    .selectFrom('product_configs')
    .select(['config_json', 'secrets_encrypted'])
    .where('product_id', '=', id)
    .executeTakeFirst();
  const secretNames = Object.keys(openSecrets(ctx.box, stored?.secrets_encrypted).values);
  const named = new Set([...view.named, ...(stored?.config_json ? variablesOf(JSON.parse(stored.config_json)) : [])]);
  const { REFUSED_POINTERS } = await import('../configCheck.ts');
  const general = view.problems.filter((p) => !view.fromForm || p.pointer === '');
  const formProblems = view.fromForm ? view.problems.filter((p) => p.pointer !== '') : [];
  return send(
    reply,
    `Config of ${product.name} ${product.version}`,
    html`<p><a href="/products/${id}">Back to the product</a></p>
${general.map((p) => html`<p class="problem">${p.line}</p>`)}
${view.fromForm && formProblems.length > 0 ? html`<p class="problem">The form has ${formProblems.length} problem${formProblems.length === 1 ? '' : 's'}: each is shown at its field.</p>` : ''}
<p>Empty: runs use the sandbox demo config. Secrets are never written in the config: each <code>...Env</code> setting names an environment variable, and its value is entered below (stored encrypted, never shown back).</p>
<form method="post" action="/products/${id}/config" id="config-form">${csrfField(who.csrf)}<input type="hidden" name="mode" value="form">
${renderConfigForm(view.values, formProblems, REFUSED_POINTERS)}
<h2>Secrets</h2>
${named.size > 0 ? [...named].sort().map((n) => html`<label><code>${n}</code> <input type="password" name="secret:${n}" autocomplete="new-password" placeholder="${secretNames.includes(n) ? 'stored: leave empty to keep it' : 'not stored'}"></label>`) : html`<p>The config names no variable yet: save it first, or give them as lines below.</p>`}
<label>Further secrets, one NAME=value a line <textarea name="secrets" autocomplete="off"></textarea></label>
<button>Save</button></form>
<details id="advanced"${!view.fromForm && view.problems.length > 0 ? new Raw(' open') : ''}><summary>Advanced: the config file as JSON</summary>
<form method="post" action="/products/${id}/config">${csrfField(who.csrf)}<input type="hidden" name="mode" value="json">
<label>Config file (JSON, core/config.schema.json; empty: the demo config) <textarea name="config">${view.jsonText}</textarea></label>
<label>Secrets, one NAME=value a line (the environment variables the config names; empty keeps those stored) <textarea name="secrets" autocomplete="off"></textarea></label>
<button>Save</button></form></details>`,
    who,
    status,
  );
}

export const PRODUCT_ROUTES: RouteSpec[] = [
  assetRoute(CONFIG_FORM_STYLE_PATH, 'text/css', CONFIG_FORM_STYLE),
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
          'products.kind',
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
<label>Kind <select name="kind"><option value="server">server: the suites judge it over HTTP</option><option value="client">client: it calls certification workspaces, or its pact is checked</option></select></label>
<fieldset><legend>A server</legend>
<label>Server base URL <input type="url" name="baseUrl" placeholder="https://staging.example.com"></label>
<label>Operations (optional, as --only: ids with * or documents D1, D2, D3) <input type="text" name="only"></label>
${allowChangesBox(false)}</fieldset>
<fieldset><legend>A client: its attestation, as its report states it (all optional)</legend>${ATTESTATION_FIELDS.map(
              ([key, help]) =>
                key === 'environment'
                  ? html`<label>${key} <select name="attestation.environment"><option value="">(not stated)</option><option>staging</option><option>production</option></select> <small>${help}</small></label>`
                  : html`<label>${key} <input type="text" name="attestation.${key}" maxlength="200"> <small>${help}</small></label>`,
            )}</fieldset>
<button>Register</button></form>`
          : '';
      return send(
        reply,
        'Products',
        html`<table><tr><th>Product</th><th>Version</th><th>Server</th><th>Organisation</th></tr>${products.map(
          (p) =>
            html`<tr><td><a href="/products/${p.id}">${p.name}</a></td><td>${p.version}</td><td>${p.kind === 'client' ? '(a client)' : p.base_url}</td><td>${p.organisation}</td></tr>`,
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
      const body = bodyOf(request);
      const { name = '', version = '', baseUrl = '', only = '', kind = 'server' } = body;
      const problems: string[] = [];
      if (name.trim() === '') problems.push('Expected a name, received none.');
      if (version.trim() === '') problems.push('Expected a version, received none.');
      for (const problem of [
        tooLong('name', name.trim(), NAME_MAX),
        tooLong('version', version.trim(), NAME_MAX),
        tooLong('base URL', baseUrl.trim(), TEXT_MAX),
        tooLong('operations', only.trim(), TEXT_MAX),
      ])
        if (problem) problems.push(problem);
      // What the kind needs: a client its attestation, a server its base URL and operations.
      let fields: {
        base_url: string;
        only: string | null;
        kind: 'server' | 'client';
        attestation: string | null;
        allow_changes: number;
      };
      if (kind === 'client') {
        const attestation = attestationOf(body, problems);
        fields = {
          base_url: '',
          only: null,
          kind: 'client',
          attestation: Object.keys(attestation).length > 0 ? JSON.stringify(attestation) : null,
          allow_changes: 0,
        };
      } else {
        if (kind !== 'server') problems.push(`Expected the kind server or client, received ${JSON.stringify(kind)}.`);
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
        fields = {
          base_url: url?.toString().replace(/\/+$/, '') ?? '',
          only: only.trim() === '' ? null : only.trim(),
          kind: 'server',
          attestation: null,
          allow_changes: allowChangesOf(body, problems),
        };
      }
      if (problems.length > 0)
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
          created_at: now,
          ...fields,
        })
        .execute();
      await ctx.db
        .insertInto('product_configs')
        .values({ product_id: id, config_json: null, secrets_encrypted: null, updated_at: now })
        .execute();
      await audit(ctx, {
        ...byRequest(request, who),
        productId: id,
        action: 'product-registered',
        detail: `${fields.kind} ${name.trim()} ${version.trim()}${fields.kind === 'server' ? ` at ${fields.base_url}` : ''}`,
      });
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
      const secretNames = Object.keys(openSecrets(ctx.box, config?.secrets_encrypted).values);
      return send(
        reply,
        `${product.name} ${product.version}`,
        html`${
          product.kind === 'client'
            ? await clientHead(ctx, product, who.csrf)
            : html`<p>Server: <code>${product.base_url}</code>${product.only ? html` · operations: <code>${product.only}</code>` : ''}</p>
${changesSection(id, Boolean(product.allow_changes), who.csrf)}
<form method="post" action="/products/${id}/runs">${csrfField(who.csrf)}<button>Start a run</button></form>`
        }
<p><a id="pacts" href="/products/${id}/pacts">Check a pact file</a> of a consumer of the API family.</p>
<h2>History</h2>
${historyChart(finished)}
<table id="history"><tr><th>Run</th><th>State</th><th>Verdict</th><th>Coverage</th><th>Since the previous run</th></tr>${runs.map(
          (r) =>
            html`<tr><td><a href="/runs/${r.id}">${r.created_at}</a></td><td>${r.state}${r.attempt > 1 ? ` (attempt ${r.attempt})` : ''}</td><td class="verdict-${r.verdict ?? ''}">${r.verdict ?? ''}${r.problem ? html` <span class="problem">${r.problem}</span>` : ''}</td><td>${coverageText(r.coverage_judged, r.coverage_in_scope)}</td><td>${changes.get(r.id) ?? ''}</td></tr>`,
        )}</table>
${await certificatesTable(ctx, id)}
${product.kind === 'client' ? '' : configSummary(id, config?.config_json ?? null, secretNames)}`,
        who,
      );
    },
  },
  {
    method: 'POST',
    url: '/products/:productId/changes',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const id = param(request, 'productId');
      const product = await ctx.db
        .selectFrom('products')
        .select(['kind', 'organisation_id', 'allow_changes'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const problems: string[] = [];
      if (product.kind === 'client')
        problems.push('Expected a server product, received a client product: its workspaces change no target.');
      const allowChanges = allowChangesOf((request.body ?? {}) as Record<string, unknown>, problems);
      if (problems.length > 0)
        return send(
          reply,
          'Changes',
          html`${problems.map((p) => html`<p class="problem">${p}</p>`)}<p><a href="/products/${id}">Back</a></p>`,
          who,
          400,
        );
      await ctx.db.updateTable('products').set({ allow_changes: allowChanges }).where('id', '=', id).execute();
      if (allowChanges !== product.allow_changes)
        await audit(ctx, {
          ...byRequest(request, who),
          organisationId: product.organisation_id,
          productId: id,
          action: 'product-changed',
          detail: allowChanges ? 'runs may change the target’s data' : 'runs may not change the target’s data',
        });
      return reply.redirect(`/products/${id}`, 303);
    },
  },
  {
    method: 'GET',
    url: '/products/:productId/config',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const id = param(request, 'productId');
      const stored = await ctx.db
        .selectFrom('product_configs')
        .selectAll()
        .where('product_id', '=', id)
        .executeTakeFirst();
      const config = stored?.config_json ? JSON.parse(stored.config_json) : undefined;
      return configPage(ctx, reply, who, id, {
        values: config ? formValuesOf(config) : {},
        jsonText: stored?.config_json ?? '',
        problems: [],
        named: config ? variablesOf(config) : new Set(),
      });
    },
  },
  {
    method: 'POST',
    url: '/products/:productId/config',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const id = param(request, 'productId');
      const body = (request.body ?? {}) as Record<string, string | string[] | undefined>;
      const one = (name: string): string => {
        const v = body[name];
        return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
      };
      const fromForm = one('mode') === 'form';
      const problems: ConfigProblem[] = [];
      let config = one('config');
      let rebuilt: Record<string, unknown> | undefined;
      if (fromForm) {
        const read = formToConfig(body);
        problems.push(...read.problems);
        rebuilt = read.config;
        config = Object.keys(read.config).length === 0 ? '' : `${JSON.stringify(read.config, null, 2)}\n`;
      }
      if (config.trim() !== '' && problems.length === 0) {
        const { checkConfigProblems } = await import('../configCheck.ts');
        problems.push(...checkConfigProblems(config));
      }
      // Secrets: a password field per variable the config names, and NAME=value lines.
      const pairs: [string, string][] = [];
      for (const [name, value] of Object.entries(body)) {
        const variable = /^secret:(.+)$/.exec(name)?.[1];
        const text = Array.isArray(value) ? (value.find((v) => v !== '') ?? '') : (value ?? '');
        if (variable === undefined || text === '') continue;
        if (!ENV_NAME.test(variable))
          problems.push({
            pointer: '',
            line: `Expected a variable name of letters, digits and _, received ${JSON.stringify(variable)}.`,
          });
        else pairs.push([variable, text]);
      }
      for (const line of one('secrets').split(/\r?\n/)) {
        if (line.trim() === '') continue;
        const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
        if (!m)
          problems.push({ pointer: '', line: 'Expected secrets as NAME=value lines, received a line without NAME=.' });
        else pairs.push([m[1], m[2]]);
      }
      // A stored secret stays with the hosts it was given for: a config naming another host needs
      // every stored secret entered again (service/secretHosts.ts).
      const product = await ctx.db
        .selectFrom('products')
        .select(['base_url', 'organisation_id'])
        .where('id', '=', id)
        .executeTakeFirst();
      const before = await ctx.db
        .selectFrom('product_configs')
        .select(['config_json', 'secrets_encrypted'])
        .where('product_id', '=', id)
        .executeTakeFirst();
      const storedSecrets = openSecrets(ctx.box, before?.secrets_encrypted);
      let wantedHosts: string[] = [];
      if (problems.length === 0) {
        const baseUrl = product?.base_url ?? '';
        wantedHosts = hostsOf(config.trim() === '' ? null : config, baseUrl);
        const storedHosts = storedSecrets.hosts ?? hostsOf(before?.config_json, baseUrl);
        const given = new Set(pairs.map(([name]) => name));
        const carried = Object.keys(storedSecrets.values).filter((name) => !given.has(name));
        const elsewhere = newHosts(storedHosts, wantedHosts);
        if (carried.length > 0 && elsewhere.length > 0)
          problems.push({
            pointer: '',
            line: `The config now names ${elsewhere.join(', ')}, which the stored secrets ${carried.join(', ')} were not given for: enter them again to send them there.`,
          });
      }
      if (problems.length > 0) {
        let named = new Set<string>();
        try {
          named = variablesOf(rebuilt ?? JSON.parse(config));
        } catch {
          // a config that does not parse names nothing
        }
        return configPage(
          ctx,
          reply,
          who,
          id,
          {
            values: fromForm ? formValuesFromBody(body) : {},
            jsonText: fromForm ? '' : config,
            problems,
            named,
            fromForm,
          },
          400,
        );
      }
      const update: { config_json: string | null; updated_at: string; secrets_encrypted?: string } = {
        config_json: config.trim() === '' ? null : config,
        updated_at: iso(ctx.now()),
      };
      if (pairs.length > 0 || Object.keys(storedSecrets.values).length > 0) {
        // New values replace those of the same name; the others stay stored, bound to the hosts
        // of the config they now go with (none new to them, or every one entered again).
        update.secrets_encrypted = sealSecrets(
          ctx.box,
          { ...storedSecrets.values, ...Object.fromEntries(pairs) },
          wantedHosts,
        );
      }
      await ctx.db.updateTable('product_configs').set(update).where('product_id', '=', id).execute();
      // Names only: a secret's value never goes to the trail.
      const row = { ...byRequest(request, who), organisationId: product?.organisation_id ?? null, productId: id };
      if ((before?.config_json ?? null) !== update.config_json)
        await audit(ctx, {
          ...row,
          action: 'config-changed',
          detail:
            update.config_json === null
              ? 'the demo config'
              : `a config of its own${wantedHosts.length > 0 ? ` naming ${wantedHosts.join(', ')}` : ''}`,
        });
      if (pairs.length > 0)
        await audit(ctx, {
          ...row,
          action: 'secrets-changed',
          detail: `entered: ${[...new Set(pairs.map(([name]) => name))].sort().join(', ')}`,
        });
      return reply.redirect(`/products/${id}`, 303);
    },
  },
];
