/**
 * Pact checks: a partner uploads the pact its consumer tests wrote (a file read into the form, or
 * pasted), and a run of kind pact judges it as `conformance pact check` does
 * (service/jobs/performPactCheck.ts); the page lists the product's pact checks.
 */
import { csrfField, html } from '../html.ts';
import { coverageText } from './runs.ts';
import { queueRun } from '../jobs/claims.ts';
import { byRequest } from '../audit.ts';
import { bodyOf, param, type RouteSpec, send, assetRoute, productOf } from './shared.ts';

/** The largest pact file taken, in bytes. */
export const MAX_PACT_BYTES = 1_048_576;

/** Reads the chosen file into the form's text (served as a file: the pages allow no inline script). */
export const PACT_FILE_SCRIPT_PATH = '/assets/pact-file.js';

const PACT_FILE_SCRIPT = `(() => {
  const file = document.getElementById('pact-file');
  const text = document.getElementById('pact-text');
  if (!file || !text) return;
  file.addEventListener('change', () => {
    const chosen = file.files && file.files[0];
    if (chosen) chosen.text().then((t) => { text.value = t; });
  });
})();
`;

export const PACT_ROUTES: RouteSpec[] = [
  assetRoute(PACT_FILE_SCRIPT_PATH, 'text/javascript', PACT_FILE_SCRIPT),
  {
    method: 'GET',
    url: '/products/:productId/pacts',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const productId = param(request, 'productId');
      const product = await productOf(ctx, request);
      const checks = await ctx.db
        .selectFrom('runs')
        .selectAll()
        .where('product_id', '=', productId)
        .where('kind', '=', 'pact')
        .orderBy('created_at', 'desc')
        .execute();
      return send(
        reply,
        `Pact checks of ${product.name} ${product.version}`,
        html`<p><a href="/products/${productId}">The product</a></p>
<p>Upload the pact file your consumer tests wrote (Pact specification 2, 3 or 4, up to 1 MB). It is judged against the OpenAPI document, against the documents' requirements for clients (headers, reserved and deprecated operations), and verified with Pact's Verifier against a fresh sandbox with provider states, as <code>conformance pact check</code> does.</p>
<form method="post" action="/products/${productId}/pacts" id="pact-form">${csrfField(who.csrf)}
<label>Pact file <input type="file" id="pact-file" accept=".json,application/json"></label>
<label>or its text <textarea name="pact" id="pact-text" required></textarea></label>
<button>Check the pact</button></form>
<script src="${PACT_FILE_SCRIPT_PATH}"></script>
<h2>Pact checks</h2>
<table id="pact-checks"><tr><th>Check</th><th>State</th><th>Verdict</th><th>Coverage</th></tr>${checks.map(
          (r) =>
            html`<tr><td><a href="/runs/${r.id}">${r.created_at}</a></td><td>${r.state}</td><td class="verdict-${r.verdict ?? ''}">${r.verdict ?? ''}${r.problem ? html` <span class="problem">${r.problem}</span>` : ''}</td><td>${coverageText(r.coverage_judged, r.coverage_in_scope)}</td></tr>`,
        )}</table>`,
        who,
      );
    },
  },
  {
    method: 'POST',
    // A form-encoded 1 MB file can take three times its size (every byte outside the unreserved set is %XX).
    bodyLimit: 3 * MAX_PACT_BYTES + 65_536,
    url: '/products/:productId/pacts',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      const productId = param(request, 'productId');
      const { pact = '' } = bodyOf(request);
      const problems: string[] = [];
      const bytes = Buffer.byteLength(pact, 'utf8');
      if (pact.trim() === '') problems.push('Expected a pact file, received none.');
      else if (bytes > MAX_PACT_BYTES)
        problems.push(`Expected a pact file of at most ${MAX_PACT_BYTES} bytes, received ${bytes}.`);
      if (problems.length > 0)
        return send(
          reply,
          'Pact check',
          html`${problems.map((p) => html`<p class="problem">${p}</p>`)}<p><a href="/products/${productId}/pacts">Back</a></p>`,
          who,
          400,
        );
      const product = await ctx.db
        .selectFrom('products')
        .select('organisation_id')
        .where('id', '=', productId)
        .executeTakeFirstOrThrow();
      const id = await queueRun(
        ctx,
        { id: productId, organisation_id: product.organisation_id },
        'pact',
        // The file as uploaded (a broken one too: the check says what is wrong with it).
        pact,
        { ...byRequest(request, who), detail: `pact check (${bytes} bytes)` },
      );
      return reply.redirect(`/runs/${id}`, 303);
    },
  },
];
