/**
 * `conformance pact check`: the partner's pact judged (a) and (b), and (c) verified with Pact's
 * Verifier against a fresh sandbox of this process (real HTTP on 127.0.0.1, a free port), its
 * provider states arranged through the sandbox's state endpoint. Interactions at no address of
 * the documents are left to (a), which reports them; (c) says they were not verified.
 *
 * The sandbox is the documents' reference, made to take what the documents leave to a partner:
 * - the states the pact names with its own params (a patient `PAT-4242`) are in its seed
 *   (pacts/providerStates.ts `arrangeStates`); a state or params it cannot arrange leave their
 *   interaction not verified (skip, with the reason), never failed;
 * - the patients' version is read from a header of another name whose words include `version`
 *   when `SVC-API-Version` is absent, as a certification workspace reads it (DEC-C-03,
 *   certify/versionHeader.ts: D3 4.4, "The name of the version-id header: not shown.").
 */
import type { RunOutcome } from '../../app/runConformance.ts';
import { withVersionHeaderNames } from '../../certify/versionHeader.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../../server/demoConfig.ts';
import { SEED } from '../../server/fixtures/seed.ts';
import { startSandbox } from '../../server/http.ts';
import { arrangeStates } from '../providerStates.ts';
import { PactFileError, readPact } from '../readPact.ts';
import { verifyInChild } from '../verifyInChild.ts';
import { checkPartnerPact, type PactCheckOptions } from './checkPartnerPact.ts';

export interface SandboxCheckOptions extends Omit<PactCheckOptions, 'verify'> {
  /** Sandbox faults (tests): a provider that breaks a rule must fail the verification part. */
  faults?: readonly string[];
}

/** The states the pact's interactions name, with their params (none for a file that is no pact: part (a) says so). */
function statesOf(pactFile: string): { name: string; params?: Record<string, unknown> }[] {
  try {
    return readPact(pactFile).interactions.flatMap((i) => i.providerStates);
  } catch (e) {
    if (e instanceof PactFileError) return [];
    throw e;
  }
}

export async function checkPartnerPactAgainstSandbox(options: SandboxCheckOptions): Promise<RunOutcome> {
  const states = arrangeStates(SEED, statesOf(options.pactFile));
  const sandbox = await startSandbox({
    faults: options.faults ?? [],
    seed: states.seed,
    modifiers: withVersionHeaderNames(),
  });
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
          unarrangedStates: states.unarranged,
          paramsArranged: true,
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
