/**
 * The audit trail (issue 33, item 3): who did what, when, to which organisation, product, run,
 * certificate or person, from which address, in one append-only table (migration 0006: a trigger
 * refuses every update and delete on both engines). Rows are written by the routes as they act
 * (in the same transaction where the action has one: a certificate issued, claims.ts finishRun),
 * read by the audit pages (routes/audit.ts) and never changed; retention prunes runs, never rows
 * of the trail. A detail is one short line and never holds a secret's value (a config change
 * names the secrets entered, not what they are).
 */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { iso, type ServiceContext, TEXT_MAX } from './context.ts';
import type { ActorKind, Database } from './db/schema.ts';
import type { Who } from './sessions.ts';

export const AUDIT_ACTIONS = [
  'sign-in',
  'sign-in-failed',
  'sign-in-locked',
  'sign-in-unlocked',
  'sign-in-refused',
  'sign-out',
  'password-changed',
  'organisation-created',
  'invite',
  'invite-accepted',
  'invite-withdrawn',
  'product-registered',
  'product-changed',
  'config-changed',
  'secrets-changed',
  'run-started',
  'run-cancelled',
  'certificate-issued',
  'certificate-revoked',
  'user-disabled',
  'user-enabled',
  'user-removed',
  'organisation-disabled',
  'organisation-enabled',
  'organisation-removed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acted, as a row records it. */
export interface Actor {
  kind: ActorKind;
  userId?: string | null;
  email?: string | null;
}

/** The service itself (a certificate issued by a worker). */
export const SYSTEM: Actor = { kind: 'system' };
/** The operator at the service's console (its start), no session of theirs. */
export const CONSOLE_OPERATOR: Actor = { kind: 'operator' };

export const actorOf = (who: Who): Actor => ({ kind: who.role, userId: who.userId, email: who.email });

export interface AuditEntry {
  action: AuditAction;
  actor: Actor;
  organisationId?: string | null;
  productId?: string | null;
  runId?: string | null;
  certificateId?: string | null;
  userId?: string | null;
  /** The client's address (request.ip: the connection's, or with --trust-proxy N the Nth proxy's view). */
  address?: string | null;
  detail?: string;
}

/** A detail's length at most: one line (a revocation's reason, bounded as every free text, is kept whole). */
export const DETAIL_MAX = TEXT_MAX;

/** Appends one row (in `db`, a transaction's, when the action has one). */
export async function audit(ctx: ServiceContext, entry: AuditEntry, db: Kysely<Database> = ctx.db): Promise<void> {
  const detail = (entry.detail ?? '').replace(/[\r\n\t]+/g, ' ');
  await db
    .insertInto('audit_events')
    .values({
      at: iso(ctx.now()),
      actor_kind: entry.actor.kind,
      actor_user_id: entry.actor.userId ?? null,
      actor_email: entry.actor.email ?? null,
      action: entry.action,
      organisation_id: entry.organisationId ?? null,
      product_id: entry.productId ?? null,
      run_id: entry.runId ?? null,
      certificate_id: entry.certificateId ?? null,
      user_id: entry.userId ?? null,
      address: entry.address ?? null,
      detail: detail.length > DETAIL_MAX ? `${detail.slice(0, DETAIL_MAX - 1)}…` : detail,
    })
    .execute();
}

/** A signed-in person's action from a request: actor, address and (for a partner) their organisation. */
export function byRequest(request: FastifyRequest, who: Who): Pick<AuditEntry, 'actor' | 'address' | 'organisationId'> {
  return { actor: actorOf(who), address: request.ip, organisationId: who.organisationId };
}

/** One row as the JSON lines export writes it. */
export interface AuditLine {
  seq: number;
  at: string;
  actor: { kind: ActorKind; userId?: string; email?: string };
  action: string;
  organisationId?: string;
  productId?: string;
  runId?: string;
  certificateId?: string;
  userId?: string;
  address?: string;
  detail?: string;
}

export function auditLine(row: {
  seq: number | string;
  at: string;
  actor_kind: ActorKind;
  actor_user_id: string | null;
  actor_email: string | null;
  action: string;
  organisation_id: string | null;
  product_id: string | null;
  run_id: string | null;
  certificate_id: string | null;
  user_id: string | null;
  address: string | null;
  detail: string;
}): AuditLine {
  const some = <T>(v: T | null): T | undefined => (v === null || v === '' ? undefined : v);
  const line: AuditLine = {
    seq: Number(row.seq),
    at: row.at,
    actor: { kind: row.actor_kind, userId: some(row.actor_user_id), email: some(row.actor_email) },
    action: row.action,
    organisationId: some(row.organisation_id),
    productId: some(row.product_id),
    runId: some(row.run_id),
    certificateId: some(row.certificate_id),
    userId: some(row.user_id),
    address: some(row.address),
    detail: some(row.detail),
  };
  return JSON.parse(JSON.stringify(line)) as AuditLine;
}

/**
 * The per-account sign-in limit (settings.accountSignIn): counted by the address typed, known or
 * not (so the answer says nothing of whether an account exists), from the audit trail, so that
 * every machine of the service counts the same failures. Failures count within the window and
 * after the account's last sign-in, its last lock and the operator's last unlock of it; `max` of
 * them lock the account's sign-in for `lockMs` (a `sign-in-locked` row), until it ends or the
 * operator unlocks the account (a `sign-in-unlocked` row, naming the person). Answers when the
 * lock ends, if one holds.
 */
export async function accountLockedUntil(ctx: ServiceContext, email: string): Promise<Date | undefined> {
  const { lockMs } = ctx.settings.accountSignIn;
  const lock = await ctx.db
    .selectFrom('audit_events')
    .select(['at', 'seq'])
    .where('actor_email', '=', email)
    .where('action', '=', 'sign-in-locked')
    .orderBy('seq', 'desc')
    .executeTakeFirst();
  if (!lock) return undefined;
  const until = new Date(Date.parse(lock.at) + lockMs);
  if (until <= ctx.now()) return undefined;
  return (await lastUnlock(ctx, email)) > Number(lock.seq) ? undefined : until;
}

/** The trail's number of the operator's last unlock of the account of `email` (0: none). */
async function lastUnlock(ctx: ServiceContext, email: string): Promise<number> {
  const row = await ctx.db
    .selectFrom('audit_events')
    .innerJoin('users', 'users.id', 'audit_events.user_id')
    .select((eb) => eb.fn.max('audit_events.seq').as('seq'))
    .where('users.email', '=', email)
    .where('audit_events.action', '=', 'sign-in-unlocked')
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/** Counts a failed sign-in of `email` (already recorded): true when it reaches the limit (the caller locks). */
export async function failuresReachLimit(ctx: ServiceContext, email: string): Promise<boolean> {
  const { max, windowMs } = ctx.settings.accountSignIn;
  // By the trail's order (times may tie): failures after the last sign-in or lock of the address.
  const since = await ctx.db
    .selectFrom('audit_events')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('actor_email', '=', email)
    .where('action', 'in', ['sign-in', 'sign-in-locked'])
    .executeTakeFirst();
  const failures = await ctx.db
    .selectFrom('audit_events')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('actor_email', '=', email)
    .where('action', '=', 'sign-in-failed')
    .where('seq', '>', Math.max(Number(since?.seq ?? 0), await lastUnlock(ctx, email)))
    .where('at', '>=', iso(new Date(ctx.now().getTime() - windowMs)))
    .executeTakeFirstOrThrow();
  return Number(failures.n) >= max;
}
