/**
 * The audit trail's pages (service/audit.ts): `/audit`, newest first, a page at a time (`before`
 * the oldest row shown), filtered by organisation; `/audit.jsonl`, the same rows as JSON lines,
 * oldest first (`after` a row's seq, to fetch only what is new). The operator sees every row and
 * may filter by organisation; a member of an organisation sees its rows alone (whatever it asks
 * for), without the addresses they came from (personal data, the operator's to see); someone not signed in is sent to the sign-in page, or 401 for the export.
 */
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { auditLine } from '../audit.ts';
import type { ServiceContext } from '../context.ts';
import { html } from '../html.ts';
import type { Who } from '../sessions.ts';
import { type RouteSpec, send } from './shared.ts';

/** Rows a page shows. */
export const AUDIT_PAGE = 50;
/** Rows one read of the export fetches (the export streams them, batch by batch). */
const EXPORT_BATCH = 500;

const ID = /^[\w-]{1,64}$/;
const SEQ = /^\d{1,15}$/;

/** The query's filter: the operator's choice of organisation, a member's own organisation always. */
function scopeOf(request: FastifyRequest, who: Who): { organisationId?: string; before?: number; after?: number } {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : '');
  const organisation = text('organisation');
  const before = text('before');
  const after = text('after');
  return {
    ...(who.role !== 'operator'
      ? { organisationId: who.organisationId ?? '' }
      : ID.test(organisation)
        ? { organisationId: organisation }
        : {}),
    ...(SEQ.test(before) ? { before: Number(before) } : {}),
    ...(SEQ.test(after) ? { after: Number(after) } : {}),
  };
}

function rowsOf(ctx: ServiceContext, scope: { organisationId?: string; before?: number; after?: number }) {
  let query = ctx.db
    .selectFrom('audit_events')
    .leftJoin('organisations', 'organisations.id', 'audit_events.organisation_id')
    .selectAll('audit_events')
    .select('organisations.name as organisation_name');
  if (scope.organisationId !== undefined)
    query = query.where('audit_events.organisation_id', '=', scope.organisationId);
  if (scope.before !== undefined) query = query.where('audit_events.seq', '<', scope.before);
  if (scope.after !== undefined) query = query.where('audit_events.seq', '>', scope.after);
  return query;
}

export const AUDIT_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    url: '/audit',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const scope = scopeOf(request, who);
      const rows = await rowsOf(ctx, scope)
        .orderBy('audit_events.seq', 'desc')
        .limit(AUDIT_PAGE + 1)
        .execute();
      const shown = rows.slice(0, AUDIT_PAGE);
      const filter =
        scope.organisationId !== undefined ? `organisation=${encodeURIComponent(scope.organisationId)}` : '';
      const older =
        rows.length > AUDIT_PAGE
          ? `/audit?${[filter, `before=${shown[shown.length - 1].seq}`].filter(Boolean).join('&')}`
          : undefined;
      const organisations =
        who.role === 'operator'
          ? await ctx.db.selectFrom('organisations').select(['id', 'name']).orderBy('name').execute()
          : [];
      const choose =
        who.role === 'operator'
          ? html`<form method="get" action="/audit" id="audit-filter"><label>Organisation <select name="organisation"><option value="">(every one, and the service's own)</option>${organisations.map(
              (o) =>
                html`<option value="${o.id}"${o.id === scope.organisationId ? html` selected` : ''}>${o.name}</option>`,
            )}</select></label><button>Show</button></form>`
          : html`<p>The actions of your organisation, and the operator's on it.</p>`;
      const link = (kind: string, id: string | null) =>
        id === null ? '' : html`<a href="/${kind}/${id}">${id.slice(0, 8)}</a>`;
      return send(
        reply,
        'Audit trail',
        html`${choose}
<p>Newest first. Every row is kept: the trail is never changed or pruned. <a id="audit-export" href="/audit.jsonl${filter ? `?${filter}` : ''}">Export as JSON lines</a> (oldest first).</p>
${shown.length === 0 ? html`<p id="audit-empty">No action recorded yet.</p>` : ''}
<table id="audit"><tr><th>When (UTC)</th><th>Who</th><th>Action</th><th>Organisation</th><th>Product</th><th>Run</th><th>Certificate</th><th>Person</th><th>Address</th><th>Detail</th></tr>${shown.map(
          (r) =>
            html`<tr data-seq="${String(r.seq)}" data-action="${r.action}"><td>${r.at}</td><td>${r.actor_email ?? r.actor_kind}${r.actor_email ? html` <small>(${r.actor_kind})</small>` : ''}</td><td class="audit-action">${r.action}</td><td>${r.organisation_name ?? ''}</td><td>${link('products', r.product_id)}</td><td>${link('runs', r.run_id)}</td><td>${link('certificates', r.certificate_id)}</td><td>${r.user_id ? r.user_id.slice(0, 8) : ''}</td><td>${who.role === 'operator' ? (r.address ?? '') : ''}</td><td>${r.detail}</td></tr>`,
        )}</table>
${older ? html`<p><a id="audit-older" href="${older}">Older</a></p>` : ''}`,
        who,
      );
    },
  },
  {
    method: 'GET',
    url: '/audit.jsonl',
    access: 'signed-in',
    forPrograms: true,
    async handler(request, reply, ctx, who) {
      const scope = scopeOf(request, who);
      async function* lines(): AsyncGenerator<string> {
        let after = scope.after ?? 0;
        for (;;) {
          const rows = await rowsOf(ctx, { ...scope, after })
            .orderBy('audit_events.seq', 'asc')
            .limit(EXPORT_BATCH)
            .execute();
          // Addresses are the operator's to see (personal data): a member's export leaves them out.
          for (const row of rows)
            yield `${JSON.stringify(auditLine(who.role === 'operator' ? row : { ...row, address: null }))}\n`;
          if (rows.length < EXPORT_BATCH) return;
          after = Number(rows[rows.length - 1].seq);
        }
      }
      return reply
        .type('application/jsonl; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit.jsonl"')
        .send(Readable.from(lines()));
    },
  },
];
