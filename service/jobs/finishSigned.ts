/**
 * The end every job shares: its sealed results signed with the service's key and its certificate
 * made when earned (service/certificates.ts signRun), then the outcome written under the claim
 * (claims.ts finishRun), the verdict's reason kept beside a retried run's note of its earlier attempt.
 */
import type { RunResults } from '../../core/results.ts';
import { signRun } from '../certificates.ts';
import type { ServiceContext } from '../context.ts';
import { privateTree } from '../dataFolder.ts';
import { type Claim, finishRun } from './claims.ts';

export async function finishSigned(
  ctx: ServiceContext,
  claim: Claim,
  run: { id: string; organisation_id: string; product_id: string; problem: string | null },
  reportDir: string,
  results: RunResults,
  options: { certify?: boolean } = {},
): Promise<void> {
  const signed = await signRun(ctx, run, reportDir, results, options);
  // The report folder as written by the run engine and signed: readable by the service alone.
  privateTree(reportDir);
  const coverage = signed.results.coverage?.overall;
  await finishRun(
    ctx,
    claim,
    {
      state: 'finished',
      verdict: signed.results.verdict,
      coverage_judged: coverage?.judged ?? null,
      coverage_in_scope: coverage?.inScope ?? null,
      report_dir: reportDir,
      problem: [run.problem, signed.results.verdictReason].filter(Boolean).join(' ') || null,
      results_digest: signed.resultsDigest,
      signature: signed.signature,
    },
    signed.files,
    signed.certificate,
  );
}
