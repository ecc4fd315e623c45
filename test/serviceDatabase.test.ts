/**
 * The service's database layer (issue 25): one schema and its migrations on the embedded engine
 * (SQLite) and on PostgreSQL (a throwaway cluster; skipped with a line saying why when the server
 * binaries are not installed), and an unreachable PostgreSQL as one line. A database of an earlier
 * schema is brought up to date with its rows kept (issue 32: a product's changes, a certificate's
 * superseding).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrationProvider } from '../service/db/migrations.ts';
import { DatabaseUnavailable, openDatabase } from '../service/db/openDatabase.ts';
import type { Database } from '../service/db/schema.ts';
import { postgresAvailable, startThrowawayPostgres, type ThrowawayPostgres } from '../service/testSupport/postgres.ts';

const PG = postgresAvailable();
if (!PG)
  console.warn('PostgreSQL server binaries not installed: the PostgreSQL variant of the service tests is skipped');

let pg: ThrowawayPostgres | undefined;
beforeAll(async () => {
  if (PG) pg = await startThrowawayPostgres();
}, 60_000);
afterAll(() => pg?.stop());

const engines = [
  { name: 'embedded (SQLite)', url: async () => undefined },
  ...(PG
    ? [
        {
          name: 'PostgreSQL',
          url: async () => pg!.createDatabase(`db_${Date.now()}_${Math.floor(Math.random() * 1e6)}`),
        },
      ]
    : []),
];

describe.each(engines)('$name', ({ url }) => {
  test('migrations run on open, and again on a second open without change', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'service-db-'));
    const databaseUrl = await url();
    const first = await openDatabase({ dataDir, databaseUrl });
    await first.db
      .insertInto('organisations')
      .values({ id: 'o1', name: 'Acme', created_at: new Date(0).toISOString() })
      .execute();
    await first.close();
    const second = await openDatabase({ dataDir, databaseUrl });
    const rows = await second.db.selectFrom('organisations').selectAll().execute();
    expect(rows.map((r) => r.name)).toEqual(['Acme']);
    const tables = (await second.db.introspection.getTables()).map((t) => t.name).sort();
    expect(tables).toEqual(
      expect.arrayContaining([
        'certificates',
        'invites',
        'organisations',
        'product_configs',
        'products',
        'run_files',
        'runs',
        'sessions',
        'users',
      ]),
    );
    await second.close();
  });

  test('a database of the schema before issue 32: its products kept, allowing no changes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'service-db-'));
    const databaseUrl = await url();
    // The schema as 0003 left it, written to by the service of then.
    let earlier: Kysely<Database>;
    if (databaseUrl === undefined) {
      const { default: SQLite } = await import('better-sqlite3');
      earlier = new Kysely<Database>({
        dialect: new SqliteDialect({ database: new SQLite(join(dataDir, 'service.db')) }),
      });
    } else {
      const { default: pg } = await import('pg');
      earlier = new Kysely<Database>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }) }),
      });
    }
    const migrated = await new Migrator({ db: earlier, provider: migrationProvider }).migrateTo(
      '0003-kinds-and-certificates',
    );
    expect(migrated.error).toBeUndefined();
    const at = new Date(0).toISOString();
    await earlier.insertInto('organisations').values({ id: 'o1', name: 'Acme', created_at: at }).execute();
    await insertEarlierProduct(earlier, at);
    await earlier.destroy();
    const opened = await openDatabase({ dataDir, databaseUrl });
    try {
      const product = await opened.db.selectFrom('products').selectAll().executeTakeFirstOrThrow();
      expect(product).toMatchObject({ id: 'p1', name: 'Ledger', allow_changes: 0 });
      const certificates = (await opened.db.introspection.getTables()).find((t) => t.name === 'certificates');
      expect(certificates?.columns.map((c) => c.name)).toEqual(
        expect.arrayContaining(['superseded_by', 'superseded_at']),
      );
      await opened.db.updateTable('products').set({ allow_changes: 1 }).where('id', '=', 'p1').execute();
      const changed = await opened.db.selectFrom('products').select('allow_changes').executeTakeFirstOrThrow();
      expect(changed.allow_changes).toBe(1);
    } finally {
      await opened.close();
    }
  });
});

/** A product row as the service before issue 32 wrote it (no allow_changes). */
async function insertEarlierProduct(db: Kysely<Database>, at: string): Promise<void> {
  await db
    .insertInto('products')
    .values({
      id: 'p1',
      organisation_id: 'o1',
      name: 'Ledger',
      version: '1',
      base_url: 'http://x',
      only: null,
      created_at: at,
      attestation: null,
    })
    .execute();
}

test('an unreachable PostgreSQL is one line naming where, its password masked', async () => {
  const error = await openDatabase({
    dataDir: mkdtempSync(join(tmpdir(), 'service-db-')),
    databaseUrl: 'postgres://someone:hunter2@127.0.0.1:1/none',
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DatabaseUnavailable);
  expect((error as Error).message).toMatch(
    /^PostgreSQL at postgres:\/\/someone:\*\*\*@127\.0\.0\.1:1\/none is unreachable: /,
  );
  expect((error as Error).message).not.toContain('hunter2');
  expect((error as Error).message).not.toContain('\n');
});
