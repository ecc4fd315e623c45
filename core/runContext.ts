/**
 * What the runner hands to the suites (through vitest's `provide`/`inject`): everything is
 * serialisable (the pacing state is shared memory, which threads share); the token is the only
 * secret and is masked in every artefact.
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
  /** The config's `http` section (its `maxRequestsPerSecond` and `concurrency` are the whole run's). */
  http: HttpSettings;
  /**
   * The run's pacing state in shared memory (core/http.ts, sharedPacing): every worker's calls and
   * the runner's take their places in flight and their starts from it, so that the run's
   * `concurrency` and `maxRequestsPerSecond` hold for all of them together. Shared, not copied:
   * the workers are threads (app/suitesConfig.ts).
   */
  pacing: SharedArrayBuffer;
  /** Worker threads running the suites (set by app/vitestEngine.ts): a call sent ahead leaves a place in flight for each other one. */
  workers?: number;
  allowDestructive: boolean;
  /** Whether personal data is masked in evidence (`masked`, the default) or kept (`full`). */
  evidence: EvidenceMode;
  seed: number;
  runs: number;
  path?: string;
  /** Selected operation ids (after --only and reservedOperations). */
  selected: string[];
  runDir: string;
  /**
   * A folder into which every worker logs each call it sends (core/exchangeLog.ts), for a
   * differential run (`conformance compare`); no log without it.
   */
  exchangeLog?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    conformance: RunContext;
  }
}
