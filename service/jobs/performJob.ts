/**
 * One claimed job, performed by its kind: a server run (performRun.ts), a client-certification
 * workspace or a pact check. Both queues (embedded, pg-boss) call this and nothing else.
 */
import type { ServiceContext } from '../context.ts';
import { type Claim, finishRun } from './claims.ts';
import { performRun } from './performRun.ts';

export async function performJob(ctx: ServiceContext, claim: Claim, stopping: AbortSignal): Promise<void> {
  const run = await ctx.db.selectFrom('runs').select('kind').where('id', '=', claim.runId).executeTakeFirst();
  if (run === undefined || run.kind === 'server') return performRun(ctx, claim, stopping);
  await finishRun(ctx, claim, {
    state: 'failed',
    verdict: null,
    coverage_judged: null,
    coverage_in_scope: null,
    report_dir: null,
    problem: `This service performs no ${run.kind} runs`,
  });
}
