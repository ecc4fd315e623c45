/** What the service's routes, pages and jobs share. */
import type { JWK } from 'jose';
import type { Kysely } from 'kysely';
import { DEFAULT_MIN_COVERAGE } from '../core/coverage.ts';
import type { SigningKey } from '../core/signing.ts';
import type { Engine } from './db/openDatabase.ts';
import type { Database } from './db/schema.ts';
import type { SecretBox } from './secrets.ts';
import type { AllowedRange } from './ssrf.ts';

export interface ServiceSettings {
  /** Where reports (and the embedded database, unless --database-url) live. */
  dataDir: string;
  /** The address people reach the service at (invite links); default: the request's own. */
  publicUrl?: string;
  /**
   * Behind reverse proxies: how many (`--trust-proxy N`; `true` is 1). The client's address (the
   * sign-in limit, the audit trail) is the Nth from the right of X-Forwarded-For, the one the
   * outermost trusted proxy saw, never the left-most the client writes; the protocol comes from
   * X-Forwarded-Proto. Off by default: anyone could claim any address.
   */
  trustProxy?: boolean | number;
  /** Secure cookies: default when publicUrl or the request is https. */
  secureCookies?: boolean;
  sessionHours: number;
  inviteHours: number;
  /** Sign-in attempts per address and window. */
  signIn: { max: number; windowMs: number };
  /**
   * Failed sign-ins per account (the address typed) and window: `max` of them lock the account's
   * sign-in for `lockMs`, whatever the client's address (service/audit.ts accountLockedUntil).
   */
  accountSignIn: { max: number; windowMs: number; lockMs: number };
  /** Event streams (a run page's live progress) one person may hold open at once; the next is answered 429. */
  eventStreamsPerUser: number;
  /** Address ranges a product's URL may resolve to although not public (tests allow loopback). */
  allowRanges: AllowedRange[];
  /** Runs of one organisation running at once, at most. */
  organisationConcurrency: number;
  /**
   * Runs of one organisation queued or running at once, at most: a start beyond it is refused
   * with a message (429), so that no organisation fills the queue (`--queue-limit`).
   */
  organisationQueueLimit: number;
  /**
   * Days a run's report and row are kept after it ended; older ones are pruned (service/retention.ts),
   * except a run a certificate rests on, whose evidence stays. 0: kept for ever (`--retain-days`).
   */
  retainDays: number;
  /** How often a worker looks whether its run was cancelled or taken back (it then stops the run). */
  claimCheckMs: number;
  /** Server runs and pact checks one process works on at once, at most. */
  workerConcurrency: number;
  /**
   * Client workspaces one process keeps open at once, at most: apart from workerConcurrency, as an
   * open workspace mostly waits for the partner's client (for up to an hour) and must not hold the
   * slot of a server run.
   */
  workspaceConcurrency: number;
  /** The address client workspaces listen on and are reached at (default 127.0.0.1). */
  workspaceHost?: string;
  /** Claims of one run at most: a run whose worker died is retried until then, then failed. */
  maxAttempts: number;
  /** How long a claim lasts without renewal (a dead worker's run is taken back after it). */
  leaseMs: number;
  /** When a finished run earns a certificate (service/certificates.ts). */
  certificate: CertificateSettings;
}

export interface CertificateSettings {
  /**
   * The least share (0 to 1) of the testable MUST requirements in scope a conformant run must have
   * judged. 0.9, the run's own minimum for a conclusive verdict (core/coverage.ts
   * DEFAULT_MIN_COVERAGE): the demo run against the sandbox judges 99.5% or more. A run judged
   * under a lower minimum (a pact check's) is conformant without earning a certificate.
   */
  minimumCoverage: number;
  /** How long a certificate is valid from its issue. */
  validityDays: number;
}

export const DEFAULT_SETTINGS: Omit<ServiceSettings, 'dataDir'> = {
  sessionHours: 12,
  inviteHours: 72,
  signIn: { max: 10, windowMs: 60_000 },
  accountSignIn: { max: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
  eventStreamsPerUser: 10,
  allowRanges: [],
  organisationConcurrency: 2,
  organisationQueueLimit: 20,
  retainDays: 365,
  claimCheckMs: 1000,
  workerConcurrency: 2,
  workspaceConcurrency: 8,
  maxAttempts: 2,
  leaseMs: 60_000,
  certificate: { minimumCoverage: DEFAULT_MIN_COVERAGE, validityDays: 365 },
};

/** Queues a run (service/jobs): the embedded engine wakes its in-process worker, PostgreSQL sends a pg-boss job. */
export interface RunQueue {
  enqueue(runId: string): Promise<void>;
}

export interface ServiceContext {
  db: Kysely<Database>;
  engine: Engine;
  box: SecretBox;
  settings: ServiceSettings;
  queue: RunQueue;
  now: () => Date;
  /** The service's own environment: a partner's config may name none of its variables. */
  environment: NodeJS.ProcessEnv;
  /** The key the service signs run reports and certificates with (service/signingKey.ts). */
  signingKey: SigningKey;
  /** Public keys it signed with before (published, never used to sign; service/signingKey.ts retiredKeys). */
  retiredKeys?: readonly JWK[];
  /** The address the web application listens on, once it does (the service's address without publicUrl). */
  listeningUrl?: string;
}

/** The service's own address as its signatures name it: publicUrl, else where it listens; none for a worker alone. */
export function serviceUrlOf(ctx: ServiceContext): string | undefined {
  return (ctx.settings.publicUrl ?? ctx.listeningUrl)?.replace(/\/+$/, '');
}

export const iso = (d: Date): string => d.toISOString();

/** How many proxy hops the service trusts (settings.trustProxy): `true` is one, as `--trust-proxy` alone. */
export function proxyHops(trustProxy: boolean | number | undefined): number {
  if (trustProxy === true) return 1;
  return typeof trustProxy === 'number' && trustProxy > 0 ? Math.floor(trustProxy) : 0;
}

/** Bounds of what people type: a name (an organisation's, a product's, its version), a free text. */
export const NAME_MAX = 200;
export const TEXT_MAX = 2000;
export const EMAIL_MAX = 254;
