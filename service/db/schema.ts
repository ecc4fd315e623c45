/**
 * The service's one schema, as Kysely sees it. Both engines (SQLite embedded, PostgreSQL) hold the
 * same tables with portable column types: ids are random UUIDs as text, times are ISO 8601 UTC
 * strings (they sort as text, in either engine), JSON is text.
 */
import type { Generated } from 'kysely';

export type Role = 'operator' | 'partner';
/** `cancelled`: stopped by a member of its organisation or the operator before it ended (no verdict). */
export type RunState = 'queued' | 'running' | 'finished' | 'failed' | 'cancelled';
/** A server judged over HTTP, or a client judged in the workspaces it calls. */
export type ProductKind = 'server' | 'client';
/** A run of a server's suites, a client-certification workspace, or a check of a pact file. */
export type RunKind = 'server' | 'client' | 'pact';

export interface OrganisationsTable {
  id: string;
  name: string;
  created_at: string;
  /**
   * The number of the last worker slot a run of the organisation got (0: none yet): the queue
   * takes the oldest queued run of the organisation that least recently got one (claims.ts).
   */
  last_slot: Generated<number>;
  /** Set by the operator: its people cannot sign in, its runs are not started. */
  disabled_at: Generated<string | null>;
  /** Set by the operator: its people, secrets and uncertified runs are gone; its certificates stay. */
  removed_at: Generated<string | null>;
}

export interface UsersTable {
  id: string;
  email: string;
  /** scrypt (service/passwords.ts); null until the invite is accepted. */
  password_hash: string | null;
  role: Role;
  /** Null for the operator. */
  organisation_id: string | null;
  created_at: string;
  /** Set by the operator: the user cannot sign in, and every session of theirs has ended. */
  disabled_at: Generated<string | null>;
}

export interface InvitesTable {
  id: string;
  /** SHA-256 of the one-time token: the link itself is never stored. */
  token_hash: string;
  email: string;
  role: Role;
  organisation_id: string | null;
  expires_at: string;
  used_at: string | null;
  created_at: string;
  /** A newer invite of the same address withdrew it (or the address took another one). */
  withdrawn_at: Generated<string | null>;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's value: a stolen database opens no session. */
  id_hash: string;
  user_id: string;
  expires_at: string;
  /** The session's CSRF secret (@fastify/csrf-protection). */
  csrf_secret: string;
  created_at: string;
}

export interface ProductsTable {
  id: string;
  organisation_id: string;
  name: string;
  version: string;
  base_url: string;
  /** `--only` of its runs (operation ids or documents); null: every operation. */
  only: string | null;
  created_at: string;
  kind: Generated<ProductKind>;
  /** A client product's attestation (core/results.ts Attestation), JSON; null: none given. */
  attestation: string | null;
  /**
   * 1: the target is a test environment, runs may change its data (`--allow-destructive`); 0: steps
   * that change data are omitted, and the operations they judge are not certified.
   */
  allow_changes: Generated<number>;
}

export interface ProductConfigsTable {
  product_id: string;
  /** The config file's text (core/config.schema.json); null: the sandbox's demo config. */
  config_json: string | null;
  /** The secrets (environment variable name -> value), AES-256-GCM (service/secretBox.ts). */
  secrets_encrypted: string | null;
  updated_at: string;
}

export interface RunsTable {
  id: string;
  product_id: string;
  organisation_id: string;
  state: RunState;
  verdict: string | null;
  coverage_judged: number | null;
  coverage_in_scope: number | null;
  report_dir: string | null;
  /** Progress while running, JSON ({ done, total, suites }). */
  progress: string | null;
  /** One line: why the run failed, or what happened to it (retried after a stop). */
  problem: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** How many times a worker claimed the run; the claim's number fences the verdict's write. */
  attempt: Generated<number>;
  /** A running run whose lease has passed belongs to a dead worker. */
  lease_until: string | null;
  worker: string | null;
  kind: Generated<RunKind>;
  /** What the run was started with beyond its product (a pact file's text, a workspace's scenarios), JSON. */
  input: string | null;
  /** The sealed results' SHA-256 (hex), once finished. */
  results_digest: string | null;
  /** The compact JWS the service signed the report folder with (core/signing.ts); null: unsigned. */
  signature: string | null;
  /** The worker slot's number its last claim got (the order in which runs were taken); null: never claimed. */
  slot: Generated<number | null>;
}

export interface CertificatesTable {
  id: string;
  organisation_id: string;
  product_id: string;
  run_id: string;
  issued_at: string;
  expires_at: string;
  revoked_at: string | null;
  jws: string | null;
  /** The product as certified (names may change after). */
  product_name: string | null;
  product_version: string | null;
  suite_version: string | null;
  /** JSON (service/certificates.ts CertificateScope): { kind, documents, operations, leftOut }. */
  scope: string | null;
  results_digest: string | null;
  /** The later certificate of the same product, version and scope that took its place; null: none. */
  superseded_by: string | null;
  superseded_at: string | null;
}

/**
 * The certificates' columns a certificate is made without (migration 0006): the operator's reason
 * for revoking it, asked for at revocation; null: not revoked, or revoked before reasons were kept.
 */
export interface CertificateRevocationColumns {
  revocation_reason: Generated<string | null>;
}

export interface RunFilesTable {
  run_id: string;
  /** `report.html` or `results.json`. */
  name: string;
  content: string;
}

/**
 * Who acted: a signed-in partner or operator (their id and email), the operator at the service's
 * console (its start), the service itself (a certificate issued), or someone not signed in (a
 * failed sign-in: the address typed, when it has the shape of one).
 */
export type ActorKind = 'partner' | 'operator' | 'system' | 'anonymous';

/** One row of the append-only audit trail (service/audit.ts): never updated, never deleted. */
export interface AuditEventsTable {
  seq: Generated<number>;
  at: string;
  actor_kind: ActorKind;
  actor_user_id: string | null;
  actor_email: string | null;
  /** service/audit.ts AuditAction. */
  action: string;
  organisation_id: string | null;
  product_id: string | null;
  run_id: string | null;
  certificate_id: string | null;
  /** The person acted on (invited, disabled, removed). */
  user_id: string | null;
  /** The client's address (with --trust-proxy N, the one the Nth proxy saw). */
  address: string | null;
  /** One short line; never a secret's value. */
  detail: Generated<string>;
}

export interface Database {
  organisations: OrganisationsTable;
  users: UsersTable;
  invites: InvitesTable;
  sessions: SessionsTable;
  products: ProductsTable;
  product_configs: ProductConfigsTable;
  runs: RunsTable;
  certificates: CertificatesTable & CertificateRevocationColumns;
  run_files: RunFilesTable;
  audit_events: AuditEventsTable;
}
