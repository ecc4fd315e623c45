/**
 * PostgreSQL's jobs: pg-boss carries one job per queued run, so that every `conformance service`
 * process on the database (the web one and `--workers-only` ones on other machines) shares the
 * work. A job is a turn at a worker slot, not a promise to one run: the worker that takes it claims
 * the fairest run that may start (claims.ts claimNextRun: by organisation in turn), whatever the
 * order pg-boss holds the jobs in. When that is another run than the job's own, the job's run,
 * still queued, is sent a job again (the claimed run's own job, when its turn comes, takes the
 * next fairest run or ends). When no run may start (products or organisations busy), a job whose
 * run is still queued is sent again a little later, and a job whose run is no longer queued is
 * done. Dead workers' runs are taken back by lease by whichever process notices first, and sent again.
 *
 * A queued run may also have lost its job: the web process died between writing the run and
 * sending it, or pg-boss failed or expired the job. On start and with every look for dead
 * workers, a queued run older than ORPHAN_AFTER_MS with no job waiting or active is sent again,
 * by one process at a time (an advisory lock), so that it gets one job; a second job would find
 * the run claimed anyway (the claim is fenced), and be done.
 */
import { hostname } from 'node:os';
import { sql } from 'kysely';
import PgBoss from 'pg-boss';
import { iso, type ServiceContext } from '../context.ts';
import { claimNextRun, recoverRuns } from './claims.ts';
import type { WorkerPool } from './embeddedQueue.ts';
import { performJob } from './performJob.ts';

export const RUN_QUEUE = 'conformance-run';
/** Client workspaces have a queue of their own, worked by settings.workspaceConcurrency workers apart. */
export const WORKSPACE_QUEUE = 'conformance-workspace';
const RETRY_BLOCKED_SECONDS = 2;
/** A queued run this old with no live job lost it: a run is sent within its own request. */
export const ORPHAN_AFTER_MS = 60_000;
/** The advisory lock the look for orphaned runs holds, so that one process at a time sends them. */
const ORPHAN_LOCK = 0x636f6e66; // 'conf'

/**
 * Sends again every queued run older than ORPHAN_AFTER_MS that has no job created, waiting for a
 * retry or active in pg-boss; answers the runs sent. Another process looking at the same time
 * finds the lock held and sends nothing.
 */
export async function resendOrphanedRuns(
  ctx: ServiceContext,
  send: (runId: string) => Promise<unknown>,
): Promise<string[]> {
  return ctx.db.transaction().execute(async (tx) => {
    const lock = await sql<{ held: boolean }>`select pg_try_advisory_xact_lock(${ORPHAN_LOCK}) as held`.execute(tx);
    if (!lock.rows[0]?.held) return [];
    const before = iso(new Date(ctx.now().getTime() - ORPHAN_AFTER_MS));
    const orphans = await sql<{ id: string }>`
      select r.id from runs r
      where r.state = 'queued' and r.created_at < ${before}
        and not exists (
          select 1 from pgboss.job j
          where j.name in (${RUN_QUEUE}, ${WORKSPACE_QUEUE}) and j.data->>'runId' = r.id
            and j.state in ('created', 'retry', 'active')
        )
      order by r.created_at`.execute(tx);
    const sent: string[] = [];
    // Sent while the lock is held: the jobs are in pg-boss (its own connection) before another process looks.
    for (const { id } of orphans.rows) {
      await send(id);
      sent.push(id);
    }
    return sent;
  });
}

export async function startPgBossQueue(
  ctx: ServiceContext,
  databaseUrl: string,
  options: { work: boolean },
): Promise<WorkerPool> {
  const boss = new PgBoss({ connectionString: databaseUrl, schema: 'pgboss', max: 4 });
  boss.on('error', () => {});
  await boss.start();
  for (const name of [RUN_QUEUE, WORKSPACE_QUEUE]) await boss.createQueue(name, { name, retryLimit: 0 });
  const worker = `${hostname()}:${process.pid}`;
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const send = async (runId: string, startAfter?: number) => {
    const run = await ctx.db.selectFrom('runs').select('kind').where('id', '=', runId).executeTakeFirst();
    // The runs table holds the truth: pg-boss neither retries (a dead worker's run is taken back by
    // its lease) nor expires a long run's job while it works.
    return boss.send(
      run?.kind === 'client' ? WORKSPACE_QUEUE : RUN_QUEUE,
      { runId },
      { retryLimit: 0, expireInHours: 12, ...(startAfter ? { startAfter } : {}) },
    );
  };

  let recovery: NodeJS.Timeout | undefined;
  if (options.work) {
    const recover = async () => {
      for (const id of await recoverRuns(ctx, { everyRunning: false }).catch(() => [])) await send(id).catch(() => {});
      await resendOrphanedRuns(ctx, send).catch(() => []);
    };
    await recover();
    recovery = setInterval(() => void recover(), Math.max(1000, Math.floor(ctx.settings.leaseMs / 2)));
    // A workspace waits minutes for a client: its queue is polled less often.
    const workers: [string, number, number][] = [
      [RUN_QUEUE, ctx.settings.workerConcurrency, 0.5],
      [WORKSPACE_QUEUE, ctx.settings.workspaceConcurrency, 2],
    ];
    for (const [queue, count, pollingIntervalSeconds] of workers)
      for (let i = 0; i < count; i++) {
        await boss.work<{ runId: string }>(queue, { batchSize: 1, pollingIntervalSeconds }, async ([job]) => {
          if (stopping.signal.aborted) return;
          const stillQueued = async () =>
            (await ctx.db.selectFrom('runs').select('state').where('id', '=', job.data.runId).executeTakeFirst())
              ?.state === 'queued';
          const claim = await claimNextRun(ctx, worker, queue === WORKSPACE_QUEUE ? ['client'] : ['server', 'pact']);
          if (!claim) {
            if (await stillQueued()) await send(job.data.runId, RETRY_BLOCKED_SECONDS);
            return;
          }
          if (claim.runId !== job.data.runId && (await stillQueued())) await send(job.data.runId);
          const run = performJob(ctx, claim, stopping.signal);
          inFlight.add(run);
          await run.finally(() => inFlight.delete(run));
          // Stopped before it ended: the run went back to the queue, and needs a job again.
          if (stopping.signal.aborted) {
            const row = await ctx.db
              .selectFrom('runs')
              .select('state')
              .where('id', '=', claim.runId)
              .executeTakeFirst();
            if (row?.state === 'queued') await send(claim.runId);
          }
        });
      }
  }
  return {
    async enqueue(runId) {
      await send(runId);
    },
    get active() {
      return inFlight.size;
    },
    async stop() {
      if (recovery) clearInterval(recovery);
      stopping.abort();
      await Promise.allSettled([...inFlight]);
      await boss.stop({ graceful: false, wait: true, close: true });
    },
  };
}
