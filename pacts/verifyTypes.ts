/**
 * The options and outcome of a pact verification (pacts/verify.ts), apart so that the child
 * process runner (verifyInChild.ts) and the verifier share them without an import cycle.
 */
import type { WorkerResult } from '../core/events.ts';
import type { ResolvedConfig } from '../core/config.ts';
import type { ExchangeRecord } from '../core/results.ts';

export interface VerifyOptions {
  target: string;
  /** Pact files to verify; without them the reference pacts are generated into a temporary folder. */
  pactFiles?: string[];
  config: string;
  environmentFallbacks?: Record<string, string>;
  reportDir: string;
  /** `endpoint` (default): the target's state endpoint; `fixtures`: the config's fixtures. */
  stateSource?: 'endpoint' | 'fixtures';
  /**
   * Run interactions of destructive operations with fixture states (they act on the target's own
   * data). With the state endpoint they always run: the target arranges their data first.
   */
  allowDestructive?: boolean;
  /** Minimum judged share of the testable MUST requirements in scope (default 0: see docs/pact.md). */
  minCoverage?: number;
  /**
   * Leave out interactions at no address of the operation table instead of refusing the file
   * (`pact check`, whose OpenAPI comparison reports them).
   */
  ignoreUnaddressed?: boolean;
}

/** What verifying gave, before it is aggregated into a report: plain data (it crosses a process boundary). */
export interface VerifiedInteractions {
  results: WorkerResult[];
  exchanges: [string, ExchangeRecord][];
  /** The operations the interactions address, in table order. */
  operations: string[];
  target: string;
  configDigest: string;
  attestation: ResolvedConfig['attestation'];
  allowDestructive: boolean;
}

export type Verified = VerifiedInteractions | { problem: string };
