/**
 * Sessions: a random cookie (httpOnly, SameSite=Lax, Secure on https) whose SHA-256 names a
 * database row holding the user, the expiry and the session's CSRF secret. A forged cookie names
 * no row; a signed-out or expired session's row is gone, so a replayed cookie opens nothing.
 *
 * @fastify/csrf-protection reads its secret from `request.session._csrf` (its @fastify/session
 * mode): for a signed-in person that is the session row's secret; before sign-in (the sign-in and
 * invite forms) it is kept in a cookie of its own.
 *
 * Signing in always starts a new session (a new cookie, a new CSRF secret) and ends the one the
 * request came with, so a session id planted before sign-in is worth nothing after it. A session
 * of a disabled user, or of a user of a disabled organisation, opens nothing (and is deleted): the
 * operator's disabling deletes them at once too (endSessionsOf), as does a password change or reset
 * every other session of the user. Expired
 * sessions and spent invites are swept from the database (sweepSessions, on a timer the app starts).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { iso, type ServiceContext } from './context.ts';
import type { Role } from './db/schema.ts';
import { newToken, tokenHash } from './secrets.ts';

export const SESSION_COOKIE = 'conformance_session';
export const ANONYMOUS_CSRF_COOKIE = 'conformance_csrf';

export interface Who {
  userId: string;
  email: string;
  role: Role;
  organisationId: string | null;
  /** A CSRF token for the page's forms. */
  csrf: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    session: { _csrf?: string };
    who?: Who;
    sessionHash?: string;
  }
}

function secure(ctx: ServiceContext, request: FastifyRequest): boolean {
  return ctx.settings.secureCookies ?? (ctx.settings.publicUrl?.startsWith('https:') || request.protocol === 'https');
}

const cookieOptions = (ctx: ServiceContext, request: FastifyRequest) =>
  ({ path: '/', httpOnly: true, sameSite: 'lax', secure: secure(ctx, request) }) as const;

/** Reads the session of a request (onRequest): `request.who` is set when it is valid. */
export async function loadSession(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const cookie = request.cookies[SESSION_COOKIE];
  if (cookie) {
    const hash = tokenHash(cookie);
    const row = await ctx.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .leftJoin('organisations', 'organisations.id', 'users.organisation_id')
      .select([
        'users.disabled_at as user_disabled_at',
        'organisations.disabled_at as organisation_disabled_at',
        'sessions.expires_at',
        'sessions.csrf_secret',
        'users.id',
        'users.email',
        'users.role',
        'users.organisation_id',
      ])
      .where('sessions.id_hash', '=', hash)
      .executeTakeFirst();
    if (
      row &&
      row.expires_at > iso(ctx.now()) &&
      row.user_disabled_at == null &&
      row.organisation_disabled_at == null
    ) {
      request.session = { _csrf: row.csrf_secret };
      request.sessionHash = hash;
      request.who = {
        userId: row.id,
        email: row.email,
        role: row.role,
        organisationId: row.organisation_id,
        csrf: '',
      };
      request.who.csrf = reply.generateCsrf();
      return;
    }
    if (row) await ctx.db.deleteFrom('sessions').where('id_hash', '=', hash).execute();
  }
  // No session: the anonymous forms' CSRF secret lives in a cookie of its own.
  const session: { _csrf?: string } = {};
  Object.defineProperty(session, '_csrf', {
    get: () => request.cookies[ANONYMOUS_CSRF_COOKIE],
    set: (value: string) => {
      request.cookies[ANONYMOUS_CSRF_COOKIE] = value;
      reply.setCookie(ANONYMOUS_CSRF_COOKIE, value, cookieOptions(ctx, request));
    },
  });
  request.session = session;
}

/**
 * Starts a fresh session (a new cookie and CSRF secret: nothing of the anonymous one carries over);
 * a session the request came with ends (the id rotates on every sign-in).
 */
export async function startSession(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply, userId: string) {
  const token = newToken();
  const now = ctx.now();
  if (request.sessionHash) await ctx.db.deleteFrom('sessions').where('id_hash', '=', request.sessionHash).execute();
  await ctx.db
    .insertInto('sessions')
    .values({
      id_hash: tokenHash(token),
      user_id: userId,
      expires_at: iso(new Date(now.getTime() + ctx.settings.sessionHours * 3_600_000)),
      // @fastify/csrf's secrets are 18 random bytes, base64url.
      csrf_secret: randomBytes(18).toString('base64url'),
      created_at: iso(now),
    })
    .execute();
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(ctx, request), maxAge: ctx.settings.sessionHours * 3600 });
  reply.clearCookie(ANONYMOUS_CSRF_COOKIE, { path: '/' });
}

export async function endSession(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.sessionHash) await ctx.db.deleteFrom('sessions').where('id_hash', '=', request.sessionHash).execute();
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** Ends every session of a user at once, but the one named by `exceptHash` (the request's own, on a password change). */
export async function endSessionsOf(ctx: ServiceContext, userId: string, exceptHash?: string): Promise<void> {
  let query = ctx.db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptHash !== undefined) query = query.where('id_hash', '!=', exceptHash);
  await query.execute();
}

/** What one sweep deleted. */
export interface Swept {
  sessions: number;
  invites: number;
}

/**
 * Deletes expired sessions, and invites past their expiry, used or not (a used invite is kept
 * until then, so that its link still says it has been used rather than that it is unknown).
 */
export async function sweepSessions(ctx: ServiceContext): Promise<Swept> {
  const now = iso(ctx.now());
  const sessions = await ctx.db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
  const invites = await ctx.db.deleteFrom('invites').where('expires_at', '<=', now).executeTakeFirst();
  return { sessions: Number(sessions.numDeletedRows), invites: Number(invites.numDeletedRows) };
}

/** Sweeps now and every `everyMs` (the timer does not keep the process alive); the function returned stops it. */
export function startSessionSweep(ctx: ServiceContext, everyMs: number): () => void {
  const sweep = () => void sweepSessions(ctx).catch(() => {});
  sweep();
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
