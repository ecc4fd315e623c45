/**
 * The schema's migrations, in code (no files to find at run time, so the compiled package holds
 * them too), run by Kysely's Migrator on every start. Column types are the portable subset of
 * SQLite and PostgreSQL (text, integer); a migration never changes once released: a new one follows.
 */
import { type Kysely, type Migration, type MigrationProvider, SqliteAdapter, sql } from 'kysely';

const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('organisations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text')
      .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('operator', 'partner')`))
      .addColumn('organisation_id', 'text', (c) => c.references('organisations.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('invites')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('organisation_id', 'text', (c) => c.references('organisations.id'))
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('csrf_secret', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('products')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('version', 'text', (c) => c.notNull())
      .addColumn('base_url', 'text', (c) => c.notNull())
      .addColumn('only', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('product_configs')
      .addColumn('product_id', 'text', (c) => c.primaryKey().references('products.id'))
      .addColumn('config_json', 'text')
      .addColumn('secrets_encrypted', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('runs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('product_id', 'text', (c) => c.notNull().references('products.id'))
      .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('queued', 'running', 'finished', 'failed')`))
      .addColumn('verdict', 'text')
      .addColumn('coverage_judged', 'integer')
      .addColumn('coverage_in_scope', 'integer')
      .addColumn('report_dir', 'text')
      .addColumn('progress', 'text')
      .addColumn('problem', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('finished_at', 'text')
      .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lease_until', 'text')
      .addColumn('worker', 'text')
      .execute();
    await db.schema.createIndex('runs_by_state').on('runs').columns(['state', 'created_at']).execute();
    await db.schema.createIndex('runs_by_product').on('runs').columns(['product_id', 'created_at']).execute();
    await db.schema
      .createTable('certificates')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
      .addColumn('product_id', 'text', (c) => c.notNull().references('products.id'))
      .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id'))
      .addColumn('issued_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('jws', 'text')
      .execute();
  },
};

/**
 * A run's report and results kept in the database, so that the web process serves what a worker
 * on another machine wrote (the whole report folder stays on the worker's disk).
 */
const runFiles: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('run_files')
      .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('run_files_pk', ['run_id', 'name'])
      .execute();
  },
};

/**
 * Kinds of product and run (a server, a client judged in workspaces, a pact checked), the signature
 * of a run the service performed, and what a certificate states about its product and scope, kept
 * as issued (the product may be renamed or re-versioned after).
 */
const kindsAndCertificates: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('products')
      .addColumn('kind', 'text', (c) => c.notNull().defaultTo('server'))
      .execute();
    await db.schema.alterTable('products').addColumn('attestation', 'text').execute();
    await db.schema
      .alterTable('runs')
      .addColumn('kind', 'text', (c) => c.notNull().defaultTo('server'))
      .execute();
    await db.schema.alterTable('runs').addColumn('input', 'text').execute();
    await db.schema.alterTable('runs').addColumn('results_digest', 'text').execute();
    await db.schema.alterTable('runs').addColumn('signature', 'text').execute();
    for (const column of ['product_name', 'product_version', 'suite_version', 'scope', 'results_digest'])
      await db.schema.alterTable('certificates').addColumn(column, 'text').execute();
    await db.schema
      .createIndex('certificates_by_product')
      .on('certificates')
      .columns(['product_id', 'issued_at'])
      .execute();
  },
};

/**
 * Scope is part of the certificate (issue 32): whether a product's target may be changed (its runs
 * then run the steps that change data; 0 or 1, portable where a boolean is not), and which later
 * certificate of the same product version and scope superseded a certificate, and when.
 */
const scopeAndSuperseding: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('products')
      .addColumn('allow_changes', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('certificates')
      .addColumn('superseded_by', 'text', (c) => c.references('certificates.id'))
      .execute();
    await db.schema.alterTable('certificates').addColumn('superseded_at', 'text').execute();
  },
};

const RUN_STATES_BEFORE = "state in ('queued', 'running', 'finished', 'failed')";
const RUN_STATES = "state in ('queued', 'running', 'finished', 'failed', 'cancelled')";

/**
 * The runs' state check admits `cancelled`. PostgreSQL swaps the constraint; SQLite cannot alter a
 * check, so the table is rebuilt as SQLite documents it (a new table from the stored definition
 * with the new check, rows copied, the old dropped, the new renamed, its indexes made again),
 * foreign keys off meanwhile (Kysely runs SQLite's migrations outside a transaction: this one
 * holds its own, and checks the keys before it commits).
 */
async function admitCancelledRuns(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    const checks = await sql<{ conname: string }>`
      select conname from pg_constraint
      where conrelid = 'runs'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%queued%'`.execute(db);
    for (const { conname } of checks.rows) await sql`alter table runs drop constraint ${sql.ref(conname)}`.execute(db);
    await sql`alter table runs add constraint runs_state_check check (${sql.raw(RUN_STATES)})`.execute(db);
    return;
  }
  const table = await sql<{
    sql: string;
  }>`select sql from sqlite_schema where type = 'table' and name = 'runs'`.execute(db);
  const definition = table.rows[0]?.sql ?? '';
  if (!definition.includes(RUN_STATES_BEFORE))
    throw new Error(`Expected the runs table to check ${RUN_STATES_BEFORE}, received ${definition}`);
  const indexes = await sql<{ sql: string }>`
    select sql from sqlite_schema where type = 'index' and tbl_name = 'runs' and sql is not null`.execute(db);
  const rebuilt = definition
    .replace(RUN_STATES_BEFORE, RUN_STATES)
    .replace(/^CREATE TABLE\s+("runs"|runs)/i, 'CREATE TABLE "runs_rebuilt"');
  await sql`pragma foreign_keys = OFF`.execute(db);
  try {
    await sql`begin`.execute(db);
    try {
      await sql.raw(rebuilt).execute(db);
      await sql`insert into runs_rebuilt select * from runs`.execute(db);
      await sql`drop table runs`.execute(db);
      await sql`alter table runs_rebuilt rename to runs`.execute(db);
      for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length > 0) throw new Error(`Expected no broken foreign key, received ${broken.rows.length}`);
      await sql`commit`.execute(db);
    } catch (e) {
      await sql`rollback`.execute(db);
      throw e;
    }
  } finally {
    await sql`pragma foreign_keys = ON`.execute(db);
  }
}

/**
 * An operator can run the service for years (issue 33): runs can be cancelled; the queue takes
 * runs by organisation in turn (each organisation's last worker slot, each run's slot); the
 * operator disables or removes people and organisations; a newer invite withdraws the older.
 */
const queueAndLifecycle: Migration = {
  async up(db: Kysely<unknown>) {
    await admitCancelledRuns(db);
    await db.schema.alterTable('runs').addColumn('slot', 'integer').execute();
    await db.schema
      .alterTable('organisations')
      .addColumn('last_slot', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('organisations').addColumn('disabled_at', 'text').execute();
    await db.schema.alterTable('organisations').addColumn('removed_at', 'text').execute();
    await db.schema.alterTable('users').addColumn('disabled_at', 'text').execute();
    await db.schema.alterTable('invites').addColumn('withdrawn_at', 'text').execute();
    await db.schema.createIndex('runs_by_organisation').on('runs').columns(['organisation_id', 'state']).execute();
    await db.schema.createIndex('invites_by_email').on('invites').columns(['email']).execute();
  },
};

/**
 * The audit trail (issue 33, item 3): one append-only table of who did what, when, to which
 * organisation, product, run, certificate or person, from which address. `seq` orders it (times
 * may tie). No foreign key: a row outlives the person, product or run it names. Both engines
 * refuse an update or delete of it (a trigger), so no code path, retention included, can rewrite
 * the trail. A certificate's revocation keeps its reason beside it.
 */
const auditTrail: Migration = {
  async up(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    await db.schema
      .createTable('audit_events')
      .addColumn('seq', sqlite ? 'integer' : 'bigserial', (c) =>
        sqlite ? c.primaryKey().autoIncrement() : c.primaryKey(),
      )
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('actor_kind', 'text', (c) =>
        c.notNull().check(sql`actor_kind in ('partner', 'operator', 'system', 'anonymous')`),
      )
      .addColumn('actor_user_id', 'text')
      .addColumn('actor_email', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('organisation_id', 'text')
      .addColumn('product_id', 'text')
      .addColumn('run_id', 'text')
      .addColumn('certificate_id', 'text')
      .addColumn('user_id', 'text')
      .addColumn('address', 'text')
      .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .createIndex('audit_by_organisation')
      .on('audit_events')
      .columns(['organisation_id', 'seq'])
      .execute();
    await db.schema
      .createIndex('audit_by_actor_email')
      .on('audit_events')
      .columns(['actor_email', 'action', 'at'])
      .execute();
    if (sqlite) {
      for (const verb of ['update', 'delete'])
        await sql
          .raw(
            `create trigger audit_events_no_${verb} before ${verb} on audit_events begin select raise(abort, 'the audit trail is append-only'); end`,
          )
          .execute(db);
    } else {
      await sql
        .raw(
          `create function audit_events_append_only() returns trigger language plpgsql as $$ begin raise exception 'the audit trail is append-only'; end $$`,
        )
        .execute(db);
      await sql
        .raw(
          'create trigger audit_events_append_only before update or delete or truncate on audit_events for each statement execute procedure audit_events_append_only()',
        )
        .execute(db);
    }
    await db.schema.alterTable('certificates').addColumn('revocation_reason', 'text').execute();
  },
};

/** Every migration by name; names sort in the order they apply. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-run-files': runFiles,
  '0003-kinds-and-certificates': kindsAndCertificates,
  '0004-scope-and-superseding': scopeAndSuperseding,
  '0005-queue-and-lifecycle': queueAndLifecycle,
  '0006-audit-trail': auditTrail,
};

export const migrationProvider: MigrationProvider = { getMigrations: async () => MIGRATIONS };
