/**
 * What the runner hands to the suites (through vitest's `provide`/`inject`): everything is
 * serialisable; the token is the only secret and is masked in every artefact.
 */
import type { FeatureName } from '../spec/types.ts';
import type { Credentials, Fixtures, HttpSettings } from './config.ts';
import type { EvidenceMode } from './redact.ts';

export interface RunContext {
  target: string;
  /** Operation id -> absolute address, for selected operations whose address was discovered. */
  addresses: Record<string, string>;
  /** Operation id -> why it has no address (discovery failed); its suite steps are skipped. */
  unaddressable: Record<string, string>;
  token: string;
  secrets: string[];
  /** Named credentials (config `credentials`); their tokens are obtained when a suite needs them. */
  credentials: Record<string, Credentials>;
  /** Named Basic credentials. */
  basic: Record<string, { clientId: string; clientSecret: string }>;
  siteId: string;
  features: FeatureName[];
  fixtures: Fixtures;
  /**
   * The config's `http` section; in a suite worker, `maxRequestsPerSecond` and `concurrency` are
   * that worker's share of the run's (app/vitestEngine.ts).
   */
  http: HttpSettings;
  /**
   * With pacing: the time (epoch ms) before which no worker starts a call, a second after the
   * runner's own last call, so that no second holds the runner's calls and the workers' together.
   */
  pacedFrom?: number;
  allowDestructive: boolean;
  /** Whether personal data is masked in evidence (`masked`, the default) or kept (`full`). */
  evidence: EvidenceMode;
  seed: number;
  runs: number;
  path?: string;
  /** Selected operation ids (after --only and reservedOperations). */
  selected: string[];
  runDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    conformance: RunContext;
  }
}
