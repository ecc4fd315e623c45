/**
 * `conformance pact check`: the partner's pact judged (a) and (b), and (c) verified with Pact's
 * Verifier against a fresh sandbox of this process (real HTTP on 127.0.0.1, a free port), its
 * provider states arranged through the sandbox's state endpoint. Interactions at no address of
 * the documents are left to (a), which reports them.
 */
import type { RunOutcome } from '../../app/runConformance.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../../server/demoConfig.ts';
import { startSandbox } from '../../server/http.ts';
import { verifyInChild } from '../verifyInChild.ts';
import { checkPartnerPact, type PactCheckOptions } from './checkPartnerPact.ts';

export interface SandboxCheckOptions extends Omit<PactCheckOptions, 'verify'> {
  /** Sandbox faults (tests): a provider that breaks a rule must fail the verification part. */
  faults?: readonly string[];
}

export async function checkPartnerPactAgainstSandbox(options: SandboxCheckOptions): Promise<RunOutcome> {
  const sandbox = await startSandbox({ faults: options.faults ?? [] });
  try {
    return await checkPartnerPact({
      ...options,
      verify: async (pactFile) => {
        const v = await verifyInChild({
          target: sandbox.url,
          pactFiles: [pactFile],
          config: DEMO_CONFIG_FILE,
          environmentFallbacks: DEMO_ENVIRONMENT,
          stateSource: 'endpoint',
          ignoreUnaddressed: true,
        });
        if ('problem' in v) throw new VerificationProblem(v.problem);
        return { results: v.results, exchanges: new Map(v.exchanges) };
      },
    });
  } catch (e) {
    if (e instanceof VerificationProblem) return { exitCode: 2, problem: e.message };
    throw e;
  } finally {
    await sandbox.close();
  }
}

class VerificationProblem extends Error {}
