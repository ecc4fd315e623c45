/**
 * One claimed pact check: the pact file a partner uploaded (the run's input) judged as
 * `conformance pact check` judges it (pacts/check/againstSandbox.ts: against the OpenAPI
 * document, against the requirement table as client obligations, and verified with Pact's
 * Verifier against a fresh sandbox), into the sealed report, signed and stored like a server
 * run's (but earning no certificate). A file
 * that is no pact fails the run with one line. The partner is never taken for one of the
 * operator's own products: reserved operations are judged as a partner's.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceContext } from '../context.ts';
import { finishSigned } from './finishSigned.ts';
import { type Claim, failRun, keepLease, recordProgress, releaseRun } from './claims.ts';

export async function performPactCheck(ctx: ServiceContext, claim: Claim, stopping: AbortSignal): Promise<void> {
  // Pact's libraries report usage unless told not to; the verifier's child inherits this too.
  process.env.PACT_DO_NOT_TRACK = 'true';
  let earlier: string | null = null;
  const fail = (problem: string) => failRun(ctx, claim, problem, earlier);
  const stopLease = keepLease(ctx, claim);
  try {
    const run = await ctx.db.selectFrom('runs').selectAll().where('id', '=', claim.runId).executeTakeFirstOrThrow();
    earlier = run.problem;
    const runFolder = join(ctx.settings.dataDir, 'runs', run.id);
    const reportDir = join(ctx.settings.dataDir, 'reports', run.id);
    mkdirSync(runFolder, { recursive: true, mode: 0o700 });
    const pactFile = join(runFolder, 'pact.json');
    writeFileSync(pactFile, run.input ?? '', { mode: 0o600 });
    const { PactFileError, readPact } = await import('../../pacts/readPact.ts');
    try {
      readPact(pactFile);
    } catch (e) {
      if (e instanceof PactFileError) {
        await fail(e.message.replace(pactFile, 'the uploaded file'));
        return;
      }
      throw e;
    }
    // The shape of a server run's progress (service/runEvents.ts): one step, running.
    await recordProgress(ctx, claim, JSON.stringify({ done: 0, total: 1, running: ['pact check'] }));
    const { checkPartnerPactAgainstSandbox } = await import('../../pacts/check/againstSandbox.ts');
    // The report names the upload, never the service's own folders.
    const outcome = await checkPartnerPactAgainstSandbox({
      pactFile,
      pactName: 'the uploaded pact file',
      reportDir,
      operatorProduct: false,
    });
    if (stopping.aborted) {
      await releaseRun(ctx, claim);
      return;
    }
    if (outcome.problem || !outcome.results) {
      await fail(
        (outcome.problem ?? `The pact check ended with exit code ${outcome.exitCode} and no results`).replace(
          pactFile,
          'the uploaded file',
        ),
      );
      return;
    }
    // Signed as a server run is; a pact check earns no certificate (a pact is not the client's behaviour).
    await finishSigned(ctx, claim, run, reportDir, outcome.results, { certify: false });
  } catch (e) {
    if (stopping.aborted) await releaseRun(ctx, claim).catch(() => {});
    else await fail(`The service could not check the pact: ${(e as Error).message.split('\n')[0]}`).catch(() => {});
  } finally {
    stopLease();
  }
}
