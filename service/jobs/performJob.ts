/**
 * One claimed job, performed by its kind: a server run (performRun.ts), a client-certification
 * workspace (performClientRun.ts) or a pact check (performPactCheck.ts). Both queues (embedded,
 * pg-boss) call this and nothing else.
 */
import type { ServiceContext } from '../context.ts';
import type { Claim } from './claims.ts';
import { performRun } from './performRun.ts';

export async function performJob(ctx: ServiceContext, claim: Claim, stopping: AbortSignal): Promise<void> {
  const run = await ctx.db.selectFrom('runs').select('kind').where('id', '=', claim.runId).executeTakeFirst();
  if (run?.kind === 'client') {
    const { performClientRun } = await import('./performClientRun.ts');
    return performClientRun(ctx, claim, stopping);
  }
  if (run?.kind === 'pact') {
    const { performPactCheck } = await import('./performPactCheck.ts');
    return performPactCheck(ctx, claim, stopping);
  }
  return performRun(ctx, claim, stopping);
}
