/**
 * Signing in and out, invites, a person's password, and the operator's organisations.
 *
 * An invite is for one address and one organisation: a newer invite of the address withdraws the
 * older ones (their links answer 410), and an invite is refused for an account of another
 * organisation (or another role). Accepting an invite for an existing account resets its password
 * and ends every session of it; a password change ends every other session.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  accountLockedUntil,
  type Actor,
  actorOf,
  audit,
  byRequest,
  CONSOLE_OPERATOR,
  failuresReachLimit,
} from '../audit.ts';
import { EMAIL_MAX, iso, NAME_MAX, type ServiceContext } from '../context.ts';
import type { Role } from '../db/schema.ts';
import { csrfField, html } from '../html.ts';
import { hashPassword, newToken, tokenHash, verifyPassword } from '../secrets.ts';
import { endSession, endSessionsOf, startSession, type Who } from '../sessions.ts';
import { organisationControls, personControls } from './lifecycle.ts';
import { bodyOf, origin, param, type RouteSpec, send, tooLong } from './shared.ts';

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

/** Who made an invite, for the audit trail: the signed-in operator and their address, else the console's operator. */
export interface InvitedBy {
  actor: Actor;
  address?: string;
}

/**
 * Creates a one-time invite and answers its link (the token is shown once and stored only hashed);
 * the address's earlier invites still open are withdrawn. Both go to the audit trail.
 */
export async function createInvite(
  ctx: ServiceContext,
  invite: { email: string; role: Role; organisationId: string | null },
  by: InvitedBy = { actor: CONSOLE_OPERATOR },
): Promise<string> {
  const token = newToken();
  const now = ctx.now();
  const existing = await ctx.db.selectFrom('users').select('id').where('email', '=', invite.email).executeTakeFirst();
  const who = {
    actor: by.actor,
    address: by.address ?? null,
    organisationId: invite.organisationId,
    userId: existing?.id ?? null,
  };
  const withdrawn = await withdrawInvites(ctx, invite.email);
  if (withdrawn > 0)
    await audit(ctx, {
      ...who,
      action: 'invite-withdrawn',
      detail: `${withdrawn} open invite${withdrawn === 1 ? '' : 's'} of ${invite.email} withdrawn by a newer one`,
    });
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
  await audit(ctx, {
    ...who,
    action: 'invite',
    detail: `${invite.email} invited as ${invite.role}${existing ? ' (an existing account: a password reset once accepted)' : ''}`,
  });
  return `/invite/${token}`;
}

/** Withdraws the open invites of an address; answers how many. */
async function withdrawInvites(ctx: ServiceContext, email: string): Promise<number> {
  const r = await ctx.db
    .updateTable('invites')
    .set({ withdrawn_at: iso(ctx.now()) })
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .where('withdrawn_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** A password's length at most (a bound on the work of hashing it). */
const PASSWORD_MAX = 1024;

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** A new password's problem, if any: 12 characters or more, not all whitespace. */
function passwordProblem(password: string): string | undefined {
  if (password.length < 12) return `Expected a password of 12 characters or more, received ${password.length}.`;
  if (password.trim() === '') return 'Expected a password with other characters than spaces, received only spaces.';
  if (password.length > PASSWORD_MAX)
    return `Expected a password of ${PASSWORD_MAX} characters or fewer, received ${password.length}.`;
  return undefined;
}

async function validInvite(ctx: ServiceContext, token: string) {
  const row = await ctx.db
    .selectFrom('invites')
    .selectAll()
    .where('token_hash', '=', tokenHash(token))
    .executeTakeFirst();
  if (!row) return { problem: 'This invite link is not valid.' } as const;
  if (row.used_at !== null) return { problem: 'This invite link has been used already.' } as const;
  if (row.withdrawn_at !== null)
    return {
      problem: 'This invite link was withdrawn: a newer invite was made for the address. Use the newest link.',
    } as const;
  if (row.expires_at <= iso(ctx.now())) return { problem: 'This invite link has expired: ask for a new one.' } as const;
  return { invite: row } as const;
}

async function organisationDisabled(ctx: ServiceContext, organisationId: string | null): Promise<boolean> {
  if (organisationId === null) return false;
  const row = await ctx.db
    .selectFrom('organisations')
    .select('disabled_at')
    .where('id', '=', organisationId)
    .executeTakeFirst();
  return row?.disabled_at != null;
}

/**
 * Why an invite may not be accepted although its link is valid: the address has an account of
 * another organisation or role (an invite is no password reset for it), or the account or the
 * organisation is disabled.
 */
async function inviteRefusal(
  ctx: ServiceContext,
  invite: { email: string; role: Role; organisation_id: string | null },
): Promise<string | undefined> {
  const existing = await ctx.db.selectFrom('users').selectAll().where('email', '=', invite.email).executeTakeFirst();
  if (existing && (existing.organisation_id !== invite.organisation_id || existing.role !== invite.role))
    return `Expected an invite of the organisation ${invite.email} belongs to, received one of another: this invite cannot be used. Ask the operator.`;
  if (existing?.disabled_at != null || (await organisationDisabled(ctx, invite.organisation_id)))
    return 'This account is disabled: ask the operator of the service.';
  return undefined;
}

const minutes = (ms: number): string => `${Math.round(ms / 60_000)} minutes`;

/** The one line a locked account's sign-in answers (the same whether the account exists or not). */
function lockedLine(ctx: ServiceContext, until: Date): string {
  const { max, windowMs } = ctx.settings.accountSignIn;
  return `Too many failed sign-ins for this account (${max} within ${minutes(windowMs)}): its sign-in is locked until ${iso(until).slice(0, 16).replace('T', ' ')} UTC. Try again then, or ask the operator of the service.`;
}

/**
 * A sign-in's audit row: the account's person when the address typed names one; else someone not
 * signed in, with the address typed when it has the shape of one (never another text: a password
 * typed in the wrong field stays out of the trail).
 */
function signInRow(
  request: FastifyRequest,
  typed: string,
  user: { id: string; email: string; role: Role; organisation_id: string | null } | undefined,
) {
  const actor: Actor = user
    ? { kind: user.role, userId: user.id, email: user.email }
    : { kind: 'anonymous', email: EMAIL.test(typed) && typed.length <= EMAIL_MAX ? typed : null };
  return { actor, address: request.ip, organisationId: user?.organisation_id ?? null, userId: user?.id ?? null };
}

export const ACCOUNT_ROUTES: RouteSpec[] = [
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
      const typed = email.trim().toLowerCase();
      const user =
        typed.length <= EMAIL_MAX
          ? await ctx.db.selectFrom('users').selectAll().where('email', '=', typed).executeTakeFirst()
          : undefined;
      const row = signInRow(request, typed, user);
      // Locked by failures of this account (the address typed, known or not), whatever the client's address.
      const lockedUntil = row.actor.email ? await accountLockedUntil(ctx, row.actor.email) : undefined;
      if (lockedUntil) {
        await audit(ctx, { ...row, action: 'sign-in-refused', detail: 'the account’s sign-in is locked' });
        return signInPage(reply, lockedLine(ctx, lockedUntil), 429);
      }
      // The same work and the same answer whether the address is known or the password wrong.
      const ok = password.length <= PASSWORD_MAX && (await verifyPassword(password, user?.password_hash ?? null));
      if (!user || !ok) {
        await audit(ctx, { ...row, action: 'sign-in-failed', detail: user ? 'wrong password' : 'unknown address' });
        if (row.actor.email && (await failuresReachLimit(ctx, row.actor.email))) {
          const { max, windowMs, lockMs } = ctx.settings.accountSignIn;
          await audit(ctx, {
            ...row,
            action: 'sign-in-locked',
            detail: `${max} failed sign-ins within ${minutes(windowMs)}: sign-in locked for ${minutes(lockMs)}`,
          });
          return signInPage(reply, lockedLine(ctx, new Date(ctx.now().getTime() + lockMs)), 429);
        }
        return signInPage(reply, 'Wrong email or password.', 401);
      }
      if (user.disabled_at !== null || (await organisationDisabled(ctx, user.organisation_id))) {
        await audit(ctx, { ...row, action: 'sign-in-refused', detail: 'the account or its organisation is disabled' });
        return signInPage(reply, 'This account is disabled: ask the operator of the service.', 403);
      }
      await audit(ctx, { ...row, action: 'sign-in' });
      await startSession(ctx, request, reply, user.id);
      return reply.redirect(user.role === 'operator' ? '/organisations' : '/products', 303);
    },
  },
  {
    method: 'POST',
    url: '/sign-out',
    access: 'signed-in',
    async handler(request, reply, ctx, who) {
      await audit(ctx, { ...byRequest(request, who), action: 'sign-out' });
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
      const problem = passwordProblem(password);
      if (problem) {
        return send(
          reply,
          'Set your password',
          html`<p class="problem">${problem}</p>
<p><a href="/invite/${token}">Try again</a></p>`,
          undefined,
          400,
        );
      }
      const refused = await inviteRefusal(ctx, found.invite);
      if (refused) return send(reply, 'Invite', html`<p class="problem">${refused}</p>`, undefined, 409);
      const invite = found.invite;
      const hash = await hashPassword(password);
      const now = iso(ctx.now());
      let reset = false;
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
          // A reset: the new password ends every session the account had.
          await tx.updateTable('users').set({ password_hash: hash }).where('id', '=', existing.id).execute();
          await tx.deleteFrom('sessions').where('user_id', '=', existing.id).execute();
          reset = true;
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
      const actor: Actor = { kind: invite.role, userId, email: invite.email };
      const row = { actor, address: request.ip, organisationId: invite.organisation_id, userId };
      await audit(ctx, {
        ...row,
        action: 'invite-accepted',
        detail: reset ? 'password reset: every session of the account ended' : 'account created',
      });
      const withdrawn = await withdrawInvites(ctx, invite.email);
      if (withdrawn > 0)
        await audit(ctx, { ...row, action: 'invite-withdrawn', detail: `${withdrawn} other open invite(s) withdrawn` });
      await startSession(ctx, request, reply, userId);
      return reply.redirect(invite.role === 'operator' ? '/organisations' : '/products', 303);
    },
  },
  {
    method: 'GET',
    url: '/account',
    access: 'signed-in',
    async handler(_request, reply, _ctx, who) {
      return send(
        reply,
        'Your account',
        html`<p>Signed in as ${who.email}.</p>
<h2>Change your password</h2><p>Every other session of yours ends: sign in again elsewhere.</p>
<form method="post" action="/account/password">${csrfField(who.csrf)}
<label>Current password <input type="password" name="current" required autocomplete="current-password"></label>
<label>New password (12 characters or more) <input type="password" name="password" minlength="12" required autocomplete="new-password"></label>
<button>Change the password</button></form>`,
        who,
      );
    },
  },
  {
    method: 'POST',
    url: '/account/password',
    access: 'signed-in',
    rateLimited: true,
    async handler(request, reply, ctx, who) {
      const { current = '', password = '' } = bodyOf(request);
      const user = await ctx.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', who.userId)
        .executeTakeFirstOrThrow();
      const problem = (await verifyPassword(current, user.password_hash))
        ? passwordProblem(password)
        : 'Expected your current password, received another.';
      if (problem)
        return send(
          reply,
          'Your account',
          html`<p class="problem">${problem}</p><p><a href="/account">Try again</a></p>`,
          who,
          400,
        );
      await ctx.db
        .updateTable('users')
        .set({ password_hash: await hashPassword(password) })
        .where('id', '=', who.userId)
        .execute();
      // Every session of the account ends; this one starts afresh (a new cookie).
      await endSessionsOf(ctx, who.userId);
      await audit(ctx, {
        ...byRequest(request, who),
        action: 'password-changed',
        userId: who.userId,
        detail: 'every other session ended',
      });
      await startSession(ctx, request, reply, who.userId);
      return send(
        reply,
        'Your account',
        html`<p class="notice" id="password-changed">Your password is changed; every other session of yours has ended.</p>`,
        who,
      );
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
        html`<table><tr><th>Name</th><th>Created</th><th>State</th></tr>${orgs.map(
          (o) =>
            html`<tr><td><a href="/organisations/${o.id}">${o.name}</a></td><td>${o.created_at}</td><td>${o.removed_at ? 'removed' : o.disabled_at ? 'disabled' : 'in service'}</td></tr>`,
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
      const long = tooLong('name', name, NAME_MAX);
      if (long) return send(reply, 'Organisations', html`<p class="problem">${long}</p>`, who, 400);
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
      await audit(ctx, {
        ...byRequest(request, who),
        organisationId: id,
        action: 'organisation-created',
        detail: name,
      });
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
      const invited = await ctx.db
        .selectFrom('invites')
        .select('email')
        .where('organisation_id', '=', id)
        .where('used_at', 'is', null)
        .where('withdrawn_at', 'is', null)
        .where('expires_at', '>', iso(ctx.now()))
        .execute();
      const waiting = invited.filter((i) => !people.some((p) => p.email === i.email));
      const locks = new Map<string, Date | undefined>();
      for (const p of people) locks.set(p.id, await accountLockedUntil(ctx, p.email));
      return send(
        reply,
        org.name,
        html`${organisationControls(who, org)}
<h2>People</h2><ul id="people">${people.map((p) => html`<li>${p.email}${personControls(who, p, locks.get(p.id))}</li>`)}${waiting.map((i) => html`<li>${i.email} (invited)</li>`)}</ul>
${
  org.removed_at
    ? ''
    : html`<h2>Invite someone</h2><p>A new invite of an address withdraws its earlier ones; for a person of the organisation it resets the password and ends their sessions.</p>
<form method="post" action="/organisations/${id}/invites">${csrfField(who.csrf)}
<label>Email <input type="email" name="email" required></label><button>Create a one-time invite link</button></form>`
}
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
      if (!EMAIL.test(email) || email.length > EMAIL_MAX)
        return send(
          reply,
          'Invite',
          html`<p class="problem">Expected an email address, received ${JSON.stringify(email)}.</p>`,
          who,
          400,
        );
      const org = await ctx.db.selectFrom('organisations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      if (org.removed_at !== null || org.disabled_at !== null)
        return send(
          reply,
          'Invite',
          html`<p class="problem">Expected an organisation in service, received a ${org.removed_at ? 'removed' : 'disabled'} one: no invite was made.</p>`,
          who,
          409,
        );
      const existing = await ctx.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
      if (existing && existing.organisation_id !== id)
        return send(reply, 'Invite', html`<p class="problem">${email} belongs to another organisation.</p>`, who, 409);
      const link =
        origin(request, ctx) +
        (await createInvite(
          ctx,
          { email, role: 'partner', organisationId: id },
          { actor: actorOf(who), address: request.ip },
        ));
      return send(
        reply,
        'Invite created',
        html`<p class="notice">Send this link to ${email}. It works once, for ${ctx.settings.inviteHours} hours, and is not shown again:</p>
<p><code id="invite-link">${link}</code></p><p><a href="/organisations/${id}">Back</a></p>`,
        who,
      );
    },
  },
];
