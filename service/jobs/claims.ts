/**
 * The runs table is the truth of every run's state; queues only say when to look. A worker claims
 * a run in a transaction (queued -> running, attempt + 1, a lease), only when the product has no
 * run running and its organisation fewer than its limit; it renews the lease while it works, and
 * writes the verdict only while its claim still holds (same attempt, still running), so a run
 * taken back from a worker thought dead, or cancelled, is never written to a verdict. A running
 * run whose lease has passed belonged to a dead worker: it is queued again, or failed after
 * maxAttempts.
 *
 * Fair by organisation, whatever the queue's depth: every claim takes a slot number (one more than
 * the last given), kept on the run and on its organisation, and the next run taken is the oldest
 * queued run that may start of the organisation whose last slot is the lowest, the one that least
 * recently got a worker (round-robin). The runs that may start are chosen in the query, so a deep
 * queue of one organisation's blocked runs hides no other organisation's. An organisation has at
 * most organisationQueueLimit runs queued or running: a start beyond it is refused (RunRefused).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { type AuditEntry, audit, SYSTEM } from '../audit.ts';
import { supersedeEarlier } from '../certificates.ts';
import { pacingNow } from '../../core/http.ts';
import { iso, type ServiceContext } from '../context.ts';
import type { CertificatesTable, Database, RunKind, RunsTable } from '../db/schema.ts';

/** A run not started, with one line why; `status` is the HTTP status the pages answer with. */
export class RunRefused extends Error {
  constructor(
    message: string,
    readonly status: 409 | 429,
  ) {
    super(message);
  }
}

/**
 * Queues a run of a product (a server run, a client workspace or a pact check) and sends its job;
 * answers its id. Who started it goes to the audit trail in the same transaction, before any
 * worker can see the run (so the trail lists the start before anything the run does). Refused (RunRefused) when the organisation is disabled, or has as many runs
 * queued or running as it may.
 */
export async function queueRun(
  ctx: ServiceContext,
  product: { id: string; organisation_id: string },
  kind: RunKind,
  /** runs.input as the job reads it (a workspace's JSON, a pact file's text). */
  input: string | null = null,
  /** Who started it (actor, address, what), for the audit trail's `run-started` row. */
  startedBy?: Pick<AuditEntry, 'actor' | 'address' | 'detail'>,
): Promise<string> {
  const id = randomUUID();
  await ctx.db.transaction().execute(async (tx) => {
    await lockOrganisation(ctx, tx, product.organisation_id);
    const organisation = await tx
      .selectFrom('organisations')
      .select('disabled_at')
      .where('id', '=', product.organisation_id)
      .executeTakeFirst();
    if (organisation?.disabled_at != null)
      throw new RunRefused('Expected an organisation in service, received a disabled one: no run is started.', 409);
    const waiting = await tx
      .selectFrom('runs')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('organisation_id', '=', product.organisation_id)
      .where('state', 'in', ['queued', 'running'])
      .executeTakeFirstOrThrow();
    const limit = ctx.settings.organisationQueueLimit;
    if (Number(waiting.n) >= limit)
      throw new RunRefused(
        `Expected at most ${limit} runs queued or running for the organisation, received a start beyond them (${Number(waiting.n)} are): cancel one or wait for one to end, then start again.`,
        429,
      );
    await tx
      .insertInto('runs')
      .values({
        id,
        product_id: product.id,
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
        kind,
        input,
      })
      .execute();
    if (startedBy)
      await audit(
        ctx,
        {
          ...startedBy,
          organisationId: product.organisation_id,
          productId: product.id,
          runId: id,
          action: 'run-started',
        },
        tx,
      );
  });
  await ctx.queue.enqueue(id);
  return id;
}

/**
 * Cancels a queued or running run: written cancelled at once (its worker, on any machine, sees its
 * claim gone within settings.claimCheckMs and stops the run: performJob.ts). False when the run
 * had ended already.
 */
export async function cancelRun(ctx: ServiceContext, runId: string, why: string): Promise<boolean> {
  const r = await ctx.db
    .updateTable('runs')
    .set({ state: 'cancelled', finished_at: iso(ctx.now()), lease_until: null, problem: why })
    .where('id', '=', runId)
    .where('state', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export interface Claim {
  runId: string;
  attempt: number;
  /** What the claimed run is (a workspace has room of its own in a worker). */
  kind?: RunKind;
}

export type ClaimAnswer = { claimed: Claim } | { blocked: string } | { gone: true };

async function lockOrganisation(ctx: ServiceContext, tx: Transaction<Database>, organisationId: string): Promise<void> {
  // PostgreSQL: claims of one organisation are serialised on its row (SQLite serialises every write).
  if (ctx.engine === 'postgres')
    await tx.selectFrom('organisations').select('id').where('id', '=', organisationId).forUpdate().execute();
}

async function tryClaim(
  ctx: ServiceContext,
  tx: Transaction<Database>,
  runId: string,
  worker: string,
): Promise<ClaimAnswer> {
  const run = await tx.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirst();
  if (run?.state !== 'queued') return { gone: true };
  await lockOrganisation(ctx, tx, run.organisation_id);
  const organisation = await tx
    .selectFrom('organisations')
    .select('disabled_at')
    .where('id', '=', run.organisation_id)
    .executeTakeFirst();
  if (organisation?.disabled_at != null) return { blocked: 'the organisation is disabled' };
  const sameProduct = await tx
    .selectFrom('runs')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('product_id', '=', run.product_id)
    .where('state', '=', 'running')
    .executeTakeFirstOrThrow();
  if (Number(sameProduct.n) > 0) return { blocked: 'another run of the product is running' };
  const sameOrganisation = await tx
    .selectFrom('runs')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('organisation_id', '=', run.organisation_id)
    .where('state', '=', 'running')
    .executeTakeFirstOrThrow();
  if (Number(sameOrganisation.n) >= ctx.settings.organisationConcurrency)
    return { blocked: 'the organisation has as many runs running as it may' };
  const now = ctx.now();
  const attempt = run.attempt + 1;
  const last = await tx
    .selectFrom('organisations')
    .select((eb) => eb.fn.max('last_slot').as('n'))
    .executeTakeFirst();
  const slot = Number(last?.n ?? 0) + 1;
  const updated = await tx
    .updateTable('runs')
    .set({
      state: 'running',
      attempt,
      worker,
      started_at: iso(now),
      lease_until: iso(new Date(now.getTime() + ctx.settings.leaseMs)),
      progress: null,
      slot,
    })
    .where('id', '=', runId)
    .where('state', '=', 'queued')
    .where('attempt', '=', run.attempt)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return { gone: true };
  await tx.updateTable('organisations').set({ last_slot: slot }).where('id', '=', run.organisation_id).execute();
  return { claimed: { runId, attempt, kind: run.kind } };
}

/** Claims one run by id (a pg-boss job names it). */
export function claimRun(ctx: ServiceContext, runId: string, worker: string): Promise<ClaimAnswer> {
  return ctx.db.transaction().execute((tx) => tryClaim(ctx, tx, runId, worker));
}

/** How many of the fairest runs that may start one look tries to claim (others may take them first). */
const CANDIDATES = 10;

/**
 * Claims the next run that may start now, fairly (the oldest of the organisation that least
 * recently got a slot), of the kinds given: the embedded engine's worker, and a pg-boss job of
 * either queue (service/jobs/pgBossQueue.ts). The worker has room for workspaces and for other
 * runs apart (ServiceSettings).
 */
export async function claimNextRun(
  ctx: ServiceContext,
  worker: string,
  kinds: readonly RunKind[] = ['server', 'client', 'pact'],
): Promise<Claim | undefined> {
  if (kinds.length === 0) return undefined;
  const candidates = await ctx.db
    .selectFrom('runs as r')
    .innerJoin('organisations as o', 'o.id', 'r.organisation_id')
    .select('r.id')
    .where('r.state', '=', 'queued')
    .where('r.kind', 'in', [...kinds])
    .where('o.disabled_at', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('runs as p')
            .select('p.id')
            .whereRef('p.product_id', '=', 'r.product_id')
            .where('p.state', '=', 'running'),
        ),
      ),
    )
    .where(
      (eb) =>
        eb
          .selectFrom('runs as c')
          .select((c) => c.fn.countAll<number>().as('n'))
          .whereRef('c.organisation_id', '=', 'r.organisation_id')
          .where('c.state', '=', 'running'),
      '<',
      ctx.settings.organisationConcurrency,
    )
    .orderBy('o.last_slot')
    .orderBy('r.created_at')
    .orderBy('r.id')
    .limit(CANDIDATES)
    .execute();
  for (const { id } of candidates) {
    const answer = await claimRun(ctx, id, worker);
    if ('claimed' in answer) return answer.claimed;
  }
  return undefined;
}

const fenced = (db: Kysely<Database>, claim: Claim) =>
  db
    .updateTable('runs')
    .where('id', '=', claim.runId)
    .where('attempt', '=', claim.attempt)
    .where('state', '=', 'running');

/** Extends the claim's lease; false when the claim was lost (the run was taken back). */
export async function renewLease(ctx: ServiceContext, claim: Claim): Promise<boolean> {
  const r = await fenced(ctx.db, claim)
    .set({ lease_until: iso(new Date(ctx.now().getTime() + ctx.settings.leaseMs)) })
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function recordProgress(ctx: ServiceContext, claim: Claim, progress: string): Promise<void> {
  await fenced(ctx.db, claim).set({ progress }).execute();
}

/**
 * Ends the run with its outcome (a signed run's digest and signature too), its files (the signed
 * report folder's) and the certificate it earned, superseding the earlier still-valid ones of the
 * same product version and scope (service/certificates.ts supersedeEarlier), in one transaction;
 * false when the claim no longer holds (nothing written: a certificate exists only with the
 * verdict it rests on).
 */
export async function finishRun(
  ctx: ServiceContext,
  claim: Claim,
  outcome: Pick<RunsTable, 'state' | 'verdict' | 'coverage_judged' | 'coverage_in_scope' | 'report_dir' | 'problem'> &
    Partial<Pick<RunsTable, 'results_digest' | 'signature'>>,
  files: Record<string, string> = {},
  certificate?: CertificatesTable,
): Promise<boolean> {
  return ctx.db.transaction().execute(async (tx) => {
    const r = await fenced(tx, claim)
      .set({ ...outcome, finished_at: iso(ctx.now()), lease_until: null })
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await tx.deleteFrom('run_files').where('run_id', '=', claim.runId).execute();
    for (const [name, content] of Object.entries(files))
      await tx.insertInto('run_files').values({ run_id: claim.runId, name, content }).execute();
    if (certificate) {
      await tx.insertInto('certificates').values(certificate).execute();
      const superseded = await supersedeEarlier(tx, certificate);
      await audit(
        ctx,
        {
          actor: SYSTEM,
          organisationId: certificate.organisation_id,
          productId: certificate.product_id,
          runId: certificate.run_id,
          certificateId: certificate.id,
          action: 'certificate-issued',
          detail: `${certificate.product_name ?? ''} ${certificate.product_version ?? ''}, expires ${certificate.expires_at}${superseded.length > 0 ? `; supersedes ${superseded.join(', ')}` : ''}`,
        },
        tx,
      );
    }
    return true;
  });
}

/** Gives a claimed run back to the queue (the worker stops before it ends), as if never claimed this time. */
export async function releaseRun(ctx: ServiceContext, claim: Claim): Promise<void> {
  await fenced(ctx.db, claim)
    .set({ state: 'queued', attempt: claim.attempt - 1, lease_until: null, worker: null, progress: null })
    .execute();
}

/**
 * Takes back the runs of dead workers: every running run whose lease has passed (or, with
 * `everyRunning`, every running run: the embedded engine at start, when no other process can hold
 * one). Each is queued again while it has attempts left, else failed. Answers the ids queued again.
 */
export async function recoverRuns(ctx: ServiceContext, options: { everyRunning: boolean }): Promise<string[]> {
  let query = ctx.db.selectFrom('runs').select(['id', 'attempt', 'lease_until']).where('state', '=', 'running');
  if (!options.everyRunning) query = query.where('lease_until', '<', iso(ctx.now()));
  const stale = await query.execute();
  const requeued: string[] = [];
  for (const run of stale) {
    const claim = { runId: run.id, attempt: run.attempt };
    if (run.attempt < ctx.settings.maxAttempts) {
      const r = await fenced(ctx.db, claim)
        .set({
          state: 'queued',
          lease_until: null,
          worker: null,
          progress: null,
          problem: `The worker running attempt ${run.attempt} stopped before it ended: queued again.`,
        })
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) requeued.push(run.id);
    } else {
      await finishRun(ctx, claim, {
        state: 'failed',
        verdict: null,
        coverage_judged: null,
        coverage_in_scope: null,
        report_dir: null,
        problem: `The worker running it stopped before it ended, ${run.attempt} times: no verdict.`,
      });
    }
  }
  return requeued;
}

/**
 * Whether the claim still holds, every settings.claimCheckMs until the answered function is called:
 * `lost` is called once when it does not (the run was cancelled, or taken back from this worker).
 */
export function watchClaim(ctx: ServiceContext, claim: Claim, lost: () => void): () => void {
  let looking = false;
  const timer = setInterval(() => {
    if (looking) return;
    looking = true;
    ctx.db
      .selectFrom('runs')
      .select(['state', 'attempt'])
      .where('id', '=', claim.runId)
      .executeTakeFirst()
      .then((row) => {
        if (row?.state !== 'running' || row.attempt !== claim.attempt) {
          clearInterval(timer);
          lost();
        }
      })
      .catch(() => {})
      .finally(() => {
        looking = false;
      });
  }, ctx.settings.claimCheckMs);
  return () => clearInterval(timer);
}

/**
 * Renews the claim's lease every third of its length until the answered function is called.
 * `sendUntil` (core/http.ts sendNoLaterThan on the run's pacing state) is told, at the claim and
 * at each renewal, the last moment the run's calls may start: two thirds of a lease after the
 * renewal was asked for, so that it passes before any other worker may take the run back (a third
 * of a lease is left for clocks that differ between machines). A renewal that finds the claim
 * gone, or that comes after that moment (the process was paused past it), calls `lost` once.
 */
export function keepLease(
  ctx: ServiceContext,
  claim: Claim,
  sendUntil: (epochMs: number) => void = () => {},
  lost: () => void = () => {},
): () => void {
  const span = (ctx.settings.leaseMs * 2) / 3;
  let until = pacingNow() + span;
  sendUntil(until);
  let renewing = false;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(timer);
    lost();
  };
  const timer = setInterval(
    () => {
      if (renewing || ended) return;
      const asked = pacingNow();
      if (asked > until) {
        end();
        return;
      }
      renewing = true;
      renewLease(ctx, claim)
        .then((held) => {
          if (!held || pacingNow() > until) end();
          else if (!ended) {
            until = asked + span;
            sendUntil(until);
          }
        })
        .catch(() => {})
        .finally(() => {
          renewing = false;
        });
    },
    Math.max(200, Math.floor(ctx.settings.leaseMs / 3)),
  );
  return () => {
    ended = true;
    clearInterval(timer);
  };
}

/** Writes the claimed run failed, with one line after the note of its earlier attempt, if any. */
export function failRun(ctx: ServiceContext, claim: Claim, problem: string, earlier: string | null): Promise<boolean> {
  return finishRun(ctx, claim, {
    state: 'failed',
    verdict: null,
    coverage_judged: null,
    coverage_in_scope: null,
    report_dir: null,
    problem: [earlier, problem].filter(Boolean).join(' '),
  });
}
