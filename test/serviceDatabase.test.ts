/**
 * The service's database layer (issue 25): one schema and its migrations on the embedded engine
 * (SQLite) and on PostgreSQL (a throwaway cluster; skipped with a line saying why when the server
 * binaries are not installed), and an unreachable PostgreSQL as one line.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DatabaseUnavailable, openDatabase } from '../service/db/openDatabase.ts';
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
});

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
