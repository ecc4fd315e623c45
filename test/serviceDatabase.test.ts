/**
 * The service's database layer (issue 25): one schema and its migrations on the embedded engine
 * (SQLite) and on PostgreSQL (a throwaway cluster; skipped with a line saying why when the server
 * binaries are not installed), and an unreachable PostgreSQL as one line. A database of an earlier
 * schema is brought up to date with its rows kept (issue 32: a product's changes, a certificate's
 * superseding).
 *
 * The embedded engine is SQLite compiled to WebAssembly (issue 33, item 7): Kysely's statements
 * answer rows or changes as they did on better-sqlite3; a file better-sqlite3 wrote (WAL, its
 * process killed with the last write in the log alone) opens with every row; the data folder is one
 * process's: a second open is refused with one line while the first holds it, a dead process's lock
 * is taken over.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type Generated, Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LOCK_FILE } from '../service/dataFolder.ts';
import { migrationProvider } from '../service/db/migrations.ts';
import { DatabaseUnavailable, openDatabase } from '../service/db/openDatabase.ts';
import type { Database } from '../service/db/schema.ts';
import { WasmSqlite } from '../service/db/wasmSqlite.ts';
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
      earlier = new Kysely<Database>({
        dialect: new SqliteDialect({ database: new WasmSqlite(join(dataDir, 'service.db')) }),
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

describe('the embedded engine (SQLite compiled to WebAssembly)', () => {
  test('a statement answers rows when it has columns, as better-sqlite3 decided: Kysely gets rows, or changes and ids', async () => {
    const database = new WasmSqlite(join(mkdtempSync(join(tmpdir(), 'service-db-')), 'plain.db'));
    try {
      database.exec('create table t (id integer primary key, v text)');
      const reader = (text: string): boolean => {
        const statement = database.prepare(text);
        const answers = statement.reader;
        if (answers) statement.all(text.includes('?') ? ['x'] : []);
        else statement.run(text.includes('?') ? ['x'] : []);
        return answers;
      };
      expect({
        select: reader('select * from t'),
        with: reader('with x as (select 1 as n) select n from x'),
        values: reader('values (1)'),
        pragmaRead: reader('pragma foreign_keys'),
        insertReturning: reader('insert into t (v) values (?) returning id'),
        deleteReturning: reader('delete from t where id < 0 returning *'),
        insert: reader('insert into t (v) values (?)'),
        withUpdate: reader('with x as (select 1) update t set v = v where id in (select * from x)'),
        pragmaSet: reader('pragma foreign_keys = on'),
        begin: reader('begin'),
        commit: reader('commit'),
      }).toEqual({
        select: true,
        with: true,
        values: true,
        pragmaRead: true,
        insertReturning: true,
        deleteReturning: true,
        insert: false,
        withUpdate: false,
        pragmaSet: false,
        begin: false,
        commit: false,
      });
      // Each statement runs once, then is freed.
      const once = database.prepare('select 1 as n');
      expect(once.all([])).toEqual([{ n: 1 }]);
      expect(() => once.all([])).toThrow(/runs once/);

      const db = new Kysely<{ t: { id: Generated<number>; v: string | null } }>({
        dialect: new SqliteDialect({ database }),
      });
      const inserted = await db.insertInto('t').values({ v: 'a' }).executeTakeFirstOrThrow();
      expect(inserted.insertId).toBe(3n);
      expect(
        (await db.updateTable('t').set({ v: 'b' }).where('id', '>', 1).executeTakeFirstOrThrow()).numUpdatedRows,
      ).toBe(2n);
      expect(await db.deleteFrom('t').where('id', '=', 1).returning('v').execute()).toEqual([{ v: 'x' }]);
      // A value Kysely passes as undefined is bound as null, as better-sqlite3 bound it.
      expect((await sql<{ v: null }>`select ${undefined} as v`.execute(db)).rows).toEqual([{ v: null }]);
      const streamed: unknown[] = [];
      for await (const row of db.selectFrom('t').select('v').orderBy('id').stream()) streamed.push(row);
      expect(streamed).toEqual([{ v: 'b' }, { v: 'b' }]);
      await db.destroy();
    } finally {
      database.close();
    }
  });

  test('a file better-sqlite3 wrote, its process killed with the last write in its log: every row kept, brought up to date', async () => {
    // Made by better-sqlite3 12.11.1 as the service opened it before issue 33 (journal_mode WAL),
    // at migration 0004, page size 1024; after a checkpoint the organisation "Written last" was
    // inserted with checkpoints off, and the two files copied while the process still held them.
    const fixture = new URL('./fixtures/better-sqlite3-wal/', import.meta.url);
    const unpacked = (name: string) => gunzipSync(readFileSync(new URL(`${name}.gz`, fixture)));
    for (const withLog of [true, false]) {
      const dataDir = mkdtempSync(join(tmpdir(), 'service-db-'));
      const header = unpacked('service.db');
      // The header says WAL (file format versions 2 and 2).
      expect([header[18], header[19]]).toEqual([2, 2]);
      writeFileSync(join(dataDir, 'service.db'), header);
      if (withLog) writeFileSync(join(dataDir, 'service.db-wal'), unpacked('service.db-wal'));
      const opened = await openDatabase({ dataDir });
      try {
        expect(await opened.db.selectFrom('organisations').select('name').orderBy('id').execute()).toEqual(
          withLog ? [{ name: 'Acme' }, { name: 'Written last' }] : [{ name: 'Acme' }],
        );
        expect(await opened.db.selectFrom('runs').select(['id', 'state']).orderBy('id').execute()).toEqual([
          { id: 'r1', state: 'finished' },
          { id: 'r2', state: 'queued' },
        ]);
        expect(await opened.db.selectFrom('certificates').select('run_id').execute()).toEqual([{ run_id: 'r1' }]);
        // Migrated to the latest: runs may be cancelled, the audit trail exists.
        await opened.db.updateTable('runs').set({ state: 'cancelled' }).where('id', '=', 'r2').execute();
        expect((await sql<{ journal_mode: string }>`pragma journal_mode`.execute(opened.db)).rows).toEqual([
          { journal_mode: 'wal' },
        ]);
      } finally {
        await opened.close();
      }
      // Closed: the log checkpointed into the file and removed, the folder's lock given back.
      expect(existsSync(join(dataDir, 'service.db-wal'))).toBe(false);
      expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
      const again = await openDatabase({ dataDir });
      expect(await again.db.selectFrom('runs').select('state').where('id', '=', 'r2').execute()).toEqual([
        { state: 'cancelled' },
      ]);
      await again.close();
    }
  });

  test('the data folder is one process’s: a second open is refused with one line while the first holds it, and opens once it closed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'service-db-'));
    const first = await openDatabase({ dataDir });
    try {
      expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
      const refused = await openDatabase({ dataDir }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(DatabaseUnavailable);
      expect((refused as Error).message).toBe(
        `The data folder ${dataDir} is in use by process ${process.pid} (another service; if none runs, remove ${join(dataDir, LOCK_FILE)})`,
      );
      // The holder is untouched by the refusal.
      await first.db.insertInto('organisations').values({ id: 'o1', name: 'Acme', created_at: 'then' }).execute();
    } finally {
      await first.close();
    }
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    const second = await openDatabase({ dataDir });
    expect(await second.db.selectFrom('organisations').select('name').execute()).toEqual([{ name: 'Acme' }]);
    await second.close();
  });

  test('a lock left by a process that has ended is taken over (with the engine’s own lock it left); one of another machine is refused', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'service-db-'));
    const first = await openDatabase({ dataDir });
    await first.db.insertInto('organisations').values({ id: 'o1', name: 'Acme', created_at: 'then' }).execute();
    await first.close();
    // As a killed service leaves its folder: its lock naming it, and SQLite's lock folder.
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    expect(ended).toBeGreaterThan(0);
    const dead = { pid: ended, host: hostname(), since: new Date().toISOString() };
    writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify(dead));
    mkdirSync(join(dataDir, 'service.db.lock'));
    const taken = await openDatabase({ dataDir });
    try {
      expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
      expect(await taken.db.selectFrom('organisations').select('name').execute()).toEqual([{ name: 'Acme' }]);
    } finally {
      await taken.close();
    }

    // Another process taking the dead one's lock over this instant: refused; one that died doing so a minute ago: ignored.
    writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify(dead));
    mkdirSync(join(dataDir, `${LOCK_FILE}.takeover`));
    const meanwhile = await openDatabase({ dataDir }).catch((e: unknown) => e);
    expect((meanwhile as Error).message).toBe(
      `The data folder ${dataDir} is being taken by another service at this moment`,
    );
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(join(dataDir, `${LOCK_FILE}.takeover`), minuteAgo, minuteAgo);
    const after = await openDatabase({ dataDir });
    await after.close();
    expect(existsSync(join(dataDir, `${LOCK_FILE}.takeover`))).toBe(false);

    writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify({ ...dead, host: 'elsewhere.example' }));
    const refused = await openDatabase({ dataDir }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DatabaseUnavailable);
    expect((refused as Error).message).toMatch(
      new RegExp(`^The data folder .+ is in use by process ${ended} on elsewhere\\.example \\(another service`),
    );
    expect((refused as Error).message).not.toContain('\n');
  });
});
