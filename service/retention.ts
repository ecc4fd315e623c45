/**
 * Retention: a run that ended more than settings.retainDays ago is pruned, its row, its stored
 * files (report.html, results.json, the signed folder's) and its folders on this machine's disk
 * (the report, the run's config); a run a certificate rests on is kept whole, however old, so the
 * certificate's evidence stays. Queued and running runs are never pruned. Every process that works
 * on runs prunes (start, then hourly): the rows once, by whichever process comes first, and each
 * machine its own folders whose run is gone.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { iso, type ServiceContext } from './context.ts';

/** How many runs one statement deletes at most (a bound on the statement's size and length). */
const BATCH = 200;
/** How often a process prunes. */
export const PRUNE_EVERY_MS = 3_600_000;
const RUN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface Pruned {
  /** Rows of runs deleted (with their files). */
  runs: number;
  /** Folders of this machine's disk removed. */
  folders: number;
}

export async function pruneRuns(ctx: ServiceContext): Promise<Pruned> {
  const pruned: Pruned = { runs: 0, folders: 0 };
  if (ctx.settings.retainDays > 0) {
    const before = iso(new Date(ctx.now().getTime() - ctx.settings.retainDays * 86_400_000));
    for (;;) {
      const old = await ctx.db
        .selectFrom('runs as r')
        .select('r.id')
        .where('r.state', 'in', ['finished', 'failed', 'cancelled'])
        .where((eb) => eb.fn.coalesce('r.finished_at', 'r.created_at'), '<', before)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('certificates as c').select('c.id').whereRef('c.run_id', '=', 'r.id'))),
        )
        .limit(BATCH)
        .execute();
      if (old.length === 0) break;
      const ids = old.map((r) => r.id);
      await ctx.db.transaction().execute(async (tx) => {
        await tx.deleteFrom('run_files').where('run_id', 'in', ids).execute();
        await tx.deleteFrom('runs').where('id', 'in', ids).execute();
      });
      pruned.runs += ids.length;
      if (ids.length < BATCH) break;
    }
  }
  // This machine's folders whose run is gone (pruned here or by another machine).
  for (const folder of ['reports', 'runs']) {
    const dir = join(ctx.settings.dataDir, folder);
    if (!existsSync(dir)) continue;
    const names = readdirSync(dir).filter((n) => RUN_ID.test(n));
    for (let i = 0; i < names.length; i += BATCH) {
      const some = names.slice(i, i + BATCH);
      const kept = new Set(
        (await ctx.db.selectFrom('runs').select('id').where('id', 'in', some).execute()).map((r) => r.id),
      );
      for (const name of some)
        if (!kept.has(name)) {
          rmSync(join(dir, name), { recursive: true, force: true });
          pruned.folders++;
        }
    }
  }
  return pruned;
}

/**
 * Prunes now and every `everyMs` (the timer does not keep the process alive); the function answered
 * stops it, once a prune under way has ended.
 */
export function startRetention(ctx: ServiceContext, everyMs = PRUNE_EVERY_MS): () => Promise<void> {
  let pruning: Promise<unknown> = Promise.resolve();
  const prune = () => {
    pruning = pruning.then(() => pruneRuns(ctx)).catch(() => {});
  };
  prune();
  const timer = setInterval(prune, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await pruning;
  };
}
