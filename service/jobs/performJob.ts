/**
 * One claimed job, performed by its kind: a server run (performRun.ts), a client-certification
 * workspace (performClientRun.ts) or a pact check (performPactCheck.ts). Both queues (embedded,
 * pg-boss) call this and nothing else.
 *
 * While it works, the claim is watched (claims.ts watchClaim): when the run is cancelled (on any
 * machine: the row says so) or taken back from this worker, the job's signal is aborted, so the
 * run engine stops its suites and requests; nothing it would write afterwards is written (every
 * write is fenced by the claim), and what it left on this machine's disk is removed.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceContext } from '../context.ts';
import { type Claim, watchClaim } from './claims.ts';
import { performRun } from './performRun.ts';

export async function performJob(ctx: ServiceContext, claim: Claim, stopping: AbortSignal): Promise<void> {
  const lost = new AbortController();
  const stopWatching = watchClaim(ctx, claim, () => lost.abort());
  const signal = AbortSignal.any([stopping, lost.signal]);
  try {
    const run = await ctx.db.selectFrom('runs').select('kind').where('id', '=', claim.runId).executeTakeFirst();
    if (run?.kind === 'client') {
      const { performClientRun } = await import('./performClientRun.ts');
      return await performClientRun(ctx, claim, signal);
    }
    if (run?.kind === 'pact') {
      const { performPactCheck } = await import('./performPactCheck.ts');
      return await performPactCheck(ctx, claim, signal);
    }
    return await performRun(ctx, claim, signal);
  } finally {
    stopWatching();
    if (lost.signal.aborted) {
      const row = await ctx.db
        .selectFrom('runs')
        .select('state')
        .where('id', '=', claim.runId)
        .executeTakeFirst()
        .catch(() => undefined);
      // A cancelled run keeps nothing on disk; a run taken back may be performed here again.
      if (row?.state === 'cancelled')
        for (const folder of ['reports', 'runs'])
          rmSync(join(ctx.settings.dataDir, folder, claim.runId), { recursive: true, force: true });
    }
  }
}
