/**
 * The service's public keys and its certificates (issue 25): /.well-known/jwks.json (the key set
 * verify-report --key reads), each certificate's public page and its status as JSON (what
 * core/signing.ts fetchCertificateStatus reads: `{"status": "valid" | "revoked" | "superseded" |
 * "expired"}`, a superseded one naming the certificate that took its place), and the operator's
 * revocation. The page and the status need no sign-in: whoever is shown a certificate checks it;
 * only revoking is the operator's: the form asks for a reason and a confirmation, and the reason
 * is kept beside the certificate (its page shows it) and in the audit trail. The page says what the signed statement says: the certified
 * operations, and those of the run's selection left out with why (issue 32).
 */
import { jwksOf } from '../../core/signing.ts';
import { certificateStatus, scopeOf } from '../certificates.ts';
import { audit, byRequest } from '../audit.ts';
import { iso, type ServiceContext, TEXT_MAX } from '../context.ts';
import { csrfField, html, type Raw } from '../html.ts';
import { JWKS_PATH } from '../signingKey.ts';
import { bodyOf, notFound, origin, param, type RouteSpec, send, tooLong } from './shared.ts';

async function certificateRow(ctx: ServiceContext, id: string) {
  return ctx.db
    .selectFrom('certificates')
    .innerJoin('organisations', 'organisations.id', 'certificates.organisation_id')
    .selectAll('certificates')
    .select('organisations.name as organisation_name')
    .where('certificates.id', '=', id)
    .executeTakeFirst();
}

/** The product page's table of its certificates, newest first, each with its status now. */
export async function certificatesTable(ctx: ServiceContext, productId: string): Promise<Raw> {
  const rows = await ctx.db
    .selectFrom('certificates')
    .selectAll()
    .where('product_id', '=', productId)
    .orderBy('issued_at', 'desc')
    .execute();
  const now = ctx.now();
  return html`<h2>Certificates</h2>
${rows.length === 0 ? html`<p id="no-certificates">None yet: a conformant run that judged enough earns one.</p>` : ''}
<table id="certificates"><tr><th>Certificate</th><th>Version</th><th>Issued</th><th>Expires</th><th>Status</th><th>Run</th></tr>${rows.map(
    (c) =>
      html`<tr><td><a href="/certificates/${c.id}">${c.id}</a></td><td>${c.product_version ?? ''}</td><td>${c.issued_at}</td><td>${c.expires_at}</td><td class="certificate-${certificateStatus(c, now)}">${certificateStatus(c, now)}</td><td><a href="/runs/${c.run_id}">${c.run_id}</a></td></tr>`,
  )}</table>`;
}

export const CERTIFICATE_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    url: JWKS_PATH,
    access: 'public',
    async handler(_request, reply, ctx) {
      // Briefly cacheable: a key set changes only when the operator replaces the key. The keys it
      // signed with before stay published, so that what they signed still verifies.
      const current = jwksOf([ctx.signingKey]).keys;
      const retired = (ctx.retiredKeys ?? []).filter((k) => !current.some((c) => c.kid === k.kid));
      return reply
        .type('application/jwk-set+json')
        .header('cache-control', 'public, max-age=300')
        .send(JSON.stringify({ keys: [...current, ...retired] }));
    },
  },
  {
    method: 'GET',
    url: '/certificates/:certificateId.json',
    access: 'public',
    async handler(request, reply, ctx) {
      const row = await certificateRow(ctx, param(request, 'certificateId'));
      if (row === undefined)
        return reply
          .code(404)
          .type('application/json')
          .send(JSON.stringify({ problem: 'no such certificate' }));
      return reply.type('application/json').send(
        JSON.stringify({
          status: certificateStatus(row, ctx.now()),
          id: row.id,
          issuedAt: row.issued_at,
          expiresAt: row.expires_at,
          ...(row.revoked_at ? { revokedAt: row.revoked_at } : {}),
          ...(row.superseded_at ? { supersededAt: row.superseded_at, supersededBy: row.superseded_by } : {}),
        }),
      );
    },
  },
  {
    method: 'GET',
    url: '/certificates/:certificateId',
    access: 'public',
    async handler(request, reply, ctx, who) {
      const row = await certificateRow(ctx, param(request, 'certificateId'));
      if (row === undefined) return notFound(reply, who);
      const status = certificateStatus(row, ctx.now());
      const scope = scopeOf(row.scope);
      const supersedes = await ctx.db
        .selectFrom('certificates')
        .select('id')
        .where('superseded_by', '=', row.id)
        .orderBy('issued_at')
        .execute();
      const superseded =
        status === 'superseded' && row.superseded_by
          ? html`<p id="certificate-superseded">Superseded at ${row.superseded_at ?? ''} by
<a id="superseded-by" href="/certificates/${row.superseded_by}">${row.superseded_by}</a>, a later certificate
of the same product version and scope. This one still states what its run showed.</p>`
          : '';
      const leftOut =
        scope.leftOut.length === 0
          ? 'none'
          : html`<ul>${scope.leftOut.map(
              (l) => html`<li data-operation="${l.operation}"><code>${l.operation}</code>: ${l.reason}</li>`,
            )}</ul>`;
      const supersedesRow =
        supersedes.length === 0
          ? ''
          : html`<tr><th>Supersedes</th><td id="certificate-supersedes">${supersedes.map(
              (c, i) => html`${i > 0 ? ', ' : ''}<a href="/certificates/${c.id}">${c.id}</a>`,
            )}</td></tr>`;
      const service = origin(request, ctx);
      const mine = who !== undefined && (who.role === 'operator' || who.organisationId === row.organisation_id);
      return send(
        reply,
        `Certificate ${row.id}`,
        html`<p>Status: <strong id="certificate-status">${status}</strong>${row.revoked_at ? html` (revoked at ${row.revoked_at}${row.revocation_reason ? html`: <span id="revocation-reason">${row.revocation_reason}</span>` : ''})` : ''}</p>
${superseded}
<table id="certificate-fields">
<tr><th>Organisation</th><td id="certificate-organisation">${row.organisation_name}</td></tr>
<tr><th>Product</th><td id="certificate-product">${row.product_name ?? ''}</td></tr>
<tr><th>Version</th><td id="certificate-version">${row.product_version ?? ''}</td></tr>
<tr><th>Kind</th><td>${scope.kind}</td></tr>
<tr><th>Documents</th><td>${scope.documents.join(', ')}</td></tr>
<tr><th>Certified operations</th><td id="certificate-operations">${scope.operations.join(', ')}</td></tr>
<tr><th>Left out</th><td id="certificate-left-out">${leftOut}</td></tr>
${supersedesRow}
<tr><th>Suite version</th><td id="certificate-suite">${row.suite_version ?? ''}</td></tr>
<tr><th>Issued</th><td id="certificate-issued">${row.issued_at}</td></tr>
<tr><th>Expires</th><td id="certificate-expires">${row.expires_at}</td></tr>
<tr><th>Run</th><td>${mine ? html`<a href="/runs/${row.run_id}">${row.run_id}</a>` : row.run_id}</td></tr>
<tr><th>Results digest (SHA-256)</th><td><code id="certificate-digest">${row.results_digest ?? ''}</code></td></tr>
</table>
<p>An operation is certified when its testable MUST requirements were judged and it conformed; the
operations of the run's selection left out are named with why. Operations outside the product's
selection are not named.</p>
<h2>How to verify</h2>
<p>The run's signed report folder (the partner downloads it from the run's page) names this certificate in <code>signature.jws</code>. Unpack it and check who signed it and this certificate's status:</p>
<pre><code id="verify-command">npx conformance verify-report DIR --key ${service}${JWKS_PATH}</code></pre>
<p>The status is also at <a href="/certificates/${row.id}.json">/certificates/${row.id}.json</a>; the certificate itself is a JWS (EdDSA) signed with a key of <a href="${JWKS_PATH}">${JWKS_PATH}</a>:</p>
<textarea id="certificate-jws" readonly aria-label="The certificate as a JWS">${row.jws ?? ''}</textarea>
${
  who?.role === 'operator' && row.revoked_at === null
    ? html`<h2>Revoke</h2><form method="post" action="/certificates/${row.id}/revoke" id="revoke-form">${csrfField(who.csrf)}
<label>Why (shown on this page, kept in the audit trail; ${TEXT_MAX} characters at most) <textarea name="reason" required maxlength="${TEXT_MAX}"></textarea></label>
<label><input type="checkbox" name="confirm" value="revoke" required> I confirm: this certificate is revoked for good, and its status says so to everyone who checks it</label>
<button id="revoke">Revoke this certificate</button></form>`
    : ''
}`,
        who,
      );
    },
  },
  {
    method: 'POST',
    url: '/certificates/:certificateId/revoke',
    access: 'operator',
    async handler(request, reply, ctx, who) {
      const id = param(request, 'certificateId');
      const row = await certificateRow(ctx, id);
      if (row === undefined) return notFound(reply, who);
      const { reason: typed = '', confirm = '' } = bodyOf(request);
      const reason = typed.trim();
      const problem =
        reason === ''
          ? 'Expected a reason for the revocation, received none: nothing was revoked.'
          : (tooLong('reason', reason, TEXT_MAX) ??
            (confirm !== 'revoke'
              ? 'Expected the box confirming the revocation ticked, received it unticked: nothing was revoked.'
              : undefined));
      if (problem)
        return send(
          reply,
          'Revoke the certificate',
          html`<p class="problem" id="refused">${problem}</p><p><a href="/certificates/${id}">Back</a></p>`,
          who,
          400,
        );
      // Revoked once: a second revocation keeps the first time and reason.
      const revoked = await ctx.db
        .updateTable('certificates')
        .set({ revoked_at: iso(ctx.now()), revocation_reason: reason })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(revoked.numUpdatedRows) === 1)
        await audit(ctx, {
          ...byRequest(request, who),
          organisationId: row.organisation_id,
          productId: row.product_id,
          runId: row.run_id,
          certificateId: id,
          action: 'certificate-revoked',
          detail: reason,
        });
      return reply.redirect(`/certificates/${id}`, 303);
    },
  },
];
