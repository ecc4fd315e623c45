/**
 * The operator's hold on people and organisations (issue 33): disable (their sessions end at once,
 * they cannot sign in, an organisation's queued and running runs are cancelled and none starts),
 * enable again, and remove. Removing a person deletes their account, sessions and open invites.
 * Removing an organisation deletes its people, its products' configs and secrets, and its runs and
 * products that no certificate rests on; the organisation's row stays, marked removed, with the
 * certificates it holds and their evidence, so that what was certified still verifies.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AuditAction, audit, byRequest } from '../audit.ts';
import type { ServiceContext } from '../context.ts';
import { iso } from '../context.ts';
import { csrfField, html, type Raw } from '../html.ts';
import { cancelRun } from '../jobs/claims.ts';
import { pruneRuns } from '../retention.ts';
import { endSessionsOf, type Who } from '../sessions.ts';
import { bodyOf, notFound, param, type RouteSpec, send } from './shared.ts';

/** A button posting to `action` with the page's CSRF token (and a confirmation field when asked). */
function button(who: Who, action: string, label: string, confirm?: string): Raw {
  return html`<form method="post" action="${action}" class="inline">${csrfField(who.csrf)}${confirm ? html`<label>Type <code>${confirm}</code> to confirm <input type="text" name="confirm" required></label>` : ''}<button>${label}</button></form>`;
}

/**
 * The operator's controls of one person (the organisation page lists them); a person whose sign-in
 * is locked (too many failures: service/audit.ts accountLockedUntil) is shown so, with Unlock.
 */
export function personControls(
  who: Who,
  person: { id: string; disabled_at: string | null },
  lockedUntil?: Date,
): Raw | '' {
  if (person.id === who.userId) return '';
  const locked = lockedUntil
    ? html` <strong class="problem sign-in-locked">sign-in locked until ${iso(lockedUntil).slice(0, 16).replace('T', ' ')} UTC</strong> ${button(who, `/users/${person.id}/unlock`, 'Unlock')}`
    : '';
  return html`${locked}${person.disabled_at ? html` <strong class="problem">disabled</strong> ${button(who, `/users/${person.id}/enable`, 'Enable')}` : button(who, `/users/${person.id}/disable`, 'Disable')} ${button(who, `/users/${person.id}/remove`, 'Remove')}`;
}

/** The operator's controls of one organisation (its page shows them). */
export function organisationControls(
  who: Who,
  organisation: { id: string; name: string; disabled_at: string | null; removed_at: string | null },
): Raw {
  if (organisation.removed_at)
    return html`<p class="problem" id="organisation-state">Removed on ${organisation.removed_at}: its certificates and their evidence are kept.</p>`;
  return html`<p id="organisation-state">${organisation.disabled_at ? html`<strong class="problem">Disabled</strong> since ${organisation.disabled_at}: its people cannot sign in and its runs do not start. ${button(who, `/organisations/${organisation.id}/enable`, 'Enable')}` : html`In service. ${button(who, `/organisations/${organisation.id}/disable`, 'Disable the organisation')}`}</p>
<details><summary>Remove the organisation</summary><p>Its people, its products' configs and secrets, and every run and product no certificate rests on are deleted; its certificates and their evidence are kept.</p>
${button(who, `/organisations/${organisation.id}/remove`, 'Remove for good', organisation.name)}</details>`;
}

const back = (reply: FastifyReply, organisationId: string | null) =>
  reply.redirect(organisationId ? `/organisations/${organisationId}` : '/organisations', 303);

async function userOf(ctx: ServiceContext, id: string) {
  return ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The operator acting on themself is refused: they would lock themself out. */
function notYourself(reply: FastifyReply, who: Who): FastifyReply {
  return send(
    reply,
    'Refused',
    html`<p class="problem">Expected another person than yourself, received your own account: another operator can do it.</p>`,
    who,
    409,
  );
}

async function cancelRunsOf(
  ctx: ServiceContext,
  request: FastifyRequest,
  who: Who,
  organisationId: string,
  why: string,
): Promise<void> {
  const live = await ctx.db
    .selectFrom('runs')
    .select(['id', 'product_id'])
    .where('organisation_id', '=', organisationId)
    .where('state', 'in', ['queued', 'running'])
    .execute();
  for (const { id, product_id } of live)
    if (await cancelRun(ctx, id, why))
      await audit(ctx, {
        ...byRequest(request, who),
        organisationId,
        productId: product_id,
        runId: id,
        action: 'run-cancelled',
        detail: why,
      });
}

/** The operator's action on a person, to the audit trail. */
function auditPerson(
  ctx: ServiceContext,
  request: FastifyRequest,
  who: Who,
  action: AuditAction,
  user: { id: string; email: string; organisation_id: string | null },
): Promise<void> {
  return audit(ctx, {
    ...byRequest(request, who),
    organisationId: user.organisation_id,
    userId: user.id,
    action,
    detail: user.email,
  });
}

/** The operator's action on an organisation, to the audit trail. */
function auditOrganisation(
  ctx: ServiceContext,
  request: FastifyRequest,
  who: Who,
  action: AuditAction,
  organisationId: string,
): Promise<void> {
  return audit(ctx, { ...byRequest(request, who), organisationId, action });
}

export const LIFECYCLE_ROUTES: RouteSpec[] = [
  {
    method: 'POST',
    url: '/users/:userId/disable',
    access: 'operator',
    async handler(request, reply, ctx, who) {
      const user = await userOf(ctx, param(request, 'userId'));
      if (!user) return notFound(reply, who);
      if (user.id === who.userId) return notYourself(reply, who);
      await ctx.db
        .updateTable('users')
        .set({ disabled_at: iso(ctx.now()) })
        .where('id', '=', user.id)
        .execute();
      await endSessionsOf(ctx, user.id);
      await auditPerson(ctx, request, who, 'user-disabled', user);
      return back(reply, user.organisation_id);
    },
  },
  {
    method: 'POST',
    url: '/users/:userId/unlock',
    access: 'operator',
    async handler(request, reply, ctx, who) {
      const user = await userOf(ctx, param(request, 'userId'));
      if (!user) return notFound(reply, who);
      // The trail holds the unlock: the failures before it count no more (service/audit.ts).
      await auditPerson(ctx, request, who, 'sign-in-unlocked', user);
      return back(reply, user.organisation_id);
    },
  },
  {
    method: 'POST',
    url: '/users/:userId/enable',
    access: 'operator',
    async handler(request, reply, ctx, who) {
      const user = await userOf(ctx, param(request, 'userId'));
      if (!user) return notFound(reply, who);
      await ctx.db.updateTable('users').set({ disabled_at: null }).where('id', '=', user.id).execute();
      await auditPerson(ctx, request, who, 'user-enabled', user);
      return back(reply, user.organisation_id);
    },
  },
  {
    method: 'POST',
    url: '/users/:userId/remove',
    access: 'operator',
    async handler(request, reply, ctx, who) {
      const user = await userOf(ctx, param(request, 'userId'));
      if (!user) return notFound(reply, who);
      if (user.id === who.userId) return notYourself(reply, who);
      await ctx.db.transaction().execute(async (tx) => {
        await tx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
        await tx.deleteFrom('invites').where('email', '=', user.email).where('used_at', 'is', null).execute();
        await tx.deleteFrom('users').where('id', '=', user.id).execute();
      });
      await auditPerson(ctx, request, who, 'user-removed', user);
      return back(reply, user.organisation_id);
    },
  },
  {
    method: 'POST',
    url: '/organisations/:organisationId/disable',
    access: 'operator',
    async handler(request, reply, ctx, who) {
      const id = param(request, 'organisationId');
      await ctx.db
        .updateTable('organisations')
        .set({ disabled_at: iso(ctx.now()) })
        .where('id', '=', id)
        .where('disabled_at', 'is', null)
        .execute();
      const people = await ctx.db.selectFrom('users').select('id').where('organisation_id', '=', id).execute();
      for (const person of people) await endSessionsOf(ctx, person.id);
      await auditOrganisation(ctx, request, who, 'organisation-disabled', id);
      await cancelRunsOf(ctx, request, who, id, `Cancelled: the organisation was disabled by ${who.email}.`);
      return back(reply, id);
    },
  },
  {
    method: 'POST',
    url: '/organisations/:organisationId/enable',
    access: 'operator',
    async handler(request, reply, ctx, who) {
      const id = param(request, 'organisationId');
      await ctx.db
        .updateTable('organisations')
        .set({ disabled_at: null })
        .where('id', '=', id)
        .where('removed_at', 'is', null)
        .execute();
      await auditOrganisation(ctx, request, who, 'organisation-enabled', id);
      return back(reply, id);
    },
  },
  {
    method: 'POST',
    url: '/organisations/:organisationId/remove',
    access: 'operator',
    async handler(request, reply, ctx, who) {
      const id = param(request, 'organisationId');
      const organisation = await ctx.db
        .selectFrom('organisations')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const confirm = (bodyOf(request).confirm ?? '').trim();
      if (confirm !== organisation.name)
        return send(
          reply,
          'Remove the organisation',
          html`<p class="problem">Expected the organisation's name ${organisation.name} to confirm, received ${JSON.stringify(confirm)}: nothing was removed.</p><p><a href="/organisations/${id}">Back</a></p>`,
          who,
          400,
        );
      const now = iso(ctx.now());
      await ctx.db
        .updateTable('organisations')
        .set({ disabled_at: organisation.disabled_at ?? now })
        .where('id', '=', id)
        .execute();
      const people = await ctx.db.selectFrom('users').select('id').where('organisation_id', '=', id).execute();
      for (const person of people) await endSessionsOf(ctx, person.id);
      await cancelRunsOf(ctx, request, who, id, `Cancelled: the organisation was removed by ${who.email}.`);
      await ctx.db.transaction().execute(async (tx) => {
        const uncertified = await tx
          .selectFrom('runs as r')
          .select('r.id')
          .where('r.organisation_id', '=', id)
          .where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom('certificates as c').select('c.id').whereRef('c.run_id', '=', 'r.id'))),
          )
          .execute();
        const runIds = uncertified.map((r) => r.id);
        for (let i = 0; i < runIds.length; i += 200) {
          const some = runIds.slice(i, i + 200);
          await tx.deleteFrom('run_files').where('run_id', 'in', some).execute();
          await tx.deleteFrom('runs').where('id', 'in', some).execute();
        }
        const products = await tx.selectFrom('products').select('id').where('organisation_id', '=', id).execute();
        const productIds = products.map((p) => p.id);
        if (productIds.length > 0) {
          await tx.deleteFrom('product_configs').where('product_id', 'in', productIds).execute();
          await tx
            .deleteFrom('products')
            .where('id', 'in', productIds)
            .where(({ not, exists, selectFrom }) =>
              not(exists(selectFrom('runs').select('runs.id').whereRef('runs.product_id', '=', 'products.id'))),
            )
            .execute();
        }
        await tx.deleteFrom('invites').where('organisation_id', '=', id).execute();
        const userIds = people.map((p) => p.id);
        if (userIds.length > 0) {
          await tx.deleteFrom('sessions').where('user_id', 'in', userIds).execute();
          await tx.deleteFrom('users').where('id', 'in', userIds).execute();
        }
        await tx.updateTable('organisations').set({ removed_at: now }).where('id', '=', id).execute();
        await audit(
          ctx,
          {
            ...byRequest(request, who),
            organisationId: id,
            action: 'organisation-removed',
            detail: `${organisation.name}: ${people.length} people, ${runIds.length} uncertified runs removed`,
          },
          tx,
        );
      });
      // The folders of the deleted runs on this machine's disk (other machines' at their next prune).
      void pruneRuns(ctx).catch(() => {});
      return back(reply, id);
    },
  },
];
