/**
 * The runs table is the truth of every run's state; queues only say when to look. A worker claims
 * a run in a transaction (queued -> running, attempt + 1, a lease), only when the product has no
 * run running and its organisation fewer than its limit; it renews the lease while it works, and
 * writes the verdict only while its claim still holds (same attempt, still running), so a run
 * taken back from a worker thought dead is never written twice to a verdict. A running run whose
 * lease has passed belonged to a dead worker: it is queued again, or failed after maxAttempts.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { supersedeEarlier } from '../certificates.ts';
import { iso, type ServiceContext } from '../context.ts';
import type { CertificatesTable, Database, RunKind, RunsTable } from '../db/schema.ts';

/** Queues a run of a product (a server run, a client workspace or a pact check) and sends its job; answers its id. */
export async function queueRun(
  ctx: ServiceContext,
  product: { id: string; organisation_id: string },
  kind: RunKind,
  /** runs.input as the job reads it (a workspace's JSON, a pact file's text). */
  input: string | null = null,
): Promise<string> {
  const id = randomUUID();
  await ctx.db
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
  await ctx.queue.enqueue(id);
  return id;
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
  const updated = await tx
    .updateTable('runs')
    .set({
      state: 'running',
      attempt,
      worker,
      started_at: iso(now),
      lease_until: iso(new Date(now.getTime() + ctx.settings.leaseMs)),
      progress: null,
    })
    .where('id', '=', runId)
    .where('state', '=', 'queued')
    .where('attempt', '=', run.attempt)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1 ? { claimed: { runId, attempt, kind: run.kind } } : { gone: true };
}

/** Claims one run by id (a pg-boss job names it). */
export function claimRun(ctx: ServiceContext, runId: string, worker: string): Promise<ClaimAnswer> {
  return ctx.db.transaction().execute((tx) => tryClaim(ctx, tx, runId, worker));
}

/**
 * Claims the oldest queued run that may start now (the embedded engine's worker), of the kinds
 * given: the worker has room for workspaces and for other runs apart (ServiceSettings).
 */
export async function claimNextRun(
  ctx: ServiceContext,
  worker: string,
  kinds: readonly RunKind[] = ['server', 'client', 'pact'],
): Promise<Claim | undefined> {
  if (kinds.length === 0) return undefined;
  const queued = await ctx.db
    .selectFrom('runs')
    .select('id')
    .where('state', '=', 'queued')
    .where('kind', 'in', [...kinds])
    .orderBy('created_at')
    .limit(100)
    .execute();
  for (const { id } of queued) {
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
      await supersedeEarlier(tx, certificate);
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

/** Renews the claim's lease every third of its length until the answered function is called. */
export function keepLease(ctx: ServiceContext, claim: Claim): () => void {
  const timer = setInterval(
    () => {
      renewLease(ctx, claim).catch(() => {});
    },
    Math.max(1000, Math.floor(ctx.settings.leaseMs / 3)),
  );
  return () => clearInterval(timer);
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
