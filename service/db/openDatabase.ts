/**
 * Opens the service's database and brings its schema up to date: the embedded engine (SQLite
 * compiled to WebAssembly, one file under the data folder, see wasmSqlite.ts) by default,
 * PostgreSQL (pg's Pool) from a `postgres://` URL. Both go through Kysely, so every query of the
 * service is written once. The embedded database is one process's: the data folder is locked
 * (dataFolder.ts) before the file is opened, and given back when it is closed.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import { DataFolderProblem, lockDataFolder, privateDatabaseFiles } from '../dataFolder.ts';
import { migrationProvider } from './migrations.ts';
import type { Database } from './schema.ts';

export type Engine = 'sqlite' | 'postgres';

export interface OpenedDatabase {
  db: Kysely<Database>;
  engine: Engine;
  /** Where it is, for people (the URL's password masked). */
  where: string;
  close(): Promise<void>;
}

/** The database could not be opened or migrated: one line for the operator (exit 2). */
export class DatabaseUnavailable extends Error {}

export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//i.test(url);

/** A URL with its password masked. */
export function maskedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<unparsable URL>';
  }
}

export async function openDatabase(options: { dataDir: string; databaseUrl?: string }): Promise<OpenedDatabase> {
  let opened: OpenedDatabase;
  if (options.databaseUrl !== undefined) {
    if (!isPostgresUrl(options.databaseUrl)) {
      throw new DatabaseUnavailable(
        `--database-url must be a postgres:// or postgresql:// URL, received ${JSON.stringify(maskedUrl(options.databaseUrl))}`,
      );
    }
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, connectionTimeoutMillis: 10_000 });
    // An idle client's error (the server went away) must not end the process.
    pool.on('error', () => {});
    const where = maskedUrl(options.databaseUrl);
    try {
      const client = await pool.connect();
      client.release();
    } catch (e) {
      await pool.end().catch(() => {});
      throw new DatabaseUnavailable(
        `PostgreSQL at ${where} is unreachable: ${(e as Error).message.split('\n')[0] || (e as NodeJS.ErrnoException).code}`,
      );
    }
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    opened = { db, engine: 'postgres', where, close: () => db.destroy() };
  } else {
    const { openServiceSqlite } = await import('./wasmSqlite.ts');
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    const file = join(options.dataDir, 'service.db');
    let lock: ReturnType<typeof lockDataFolder>;
    try {
      lock = lockDataFolder(options.dataDir);
    } catch (e) {
      throw e instanceof DataFolderProblem ? new DatabaseUnavailable(e.message) : e;
    }
    let database: ReturnType<typeof openServiceSqlite> | undefined;
    try {
      database = openServiceSqlite(file);
      privateDatabaseFiles(options.dataDir);
    } catch (e) {
      database?.close();
      lock.release();
      throw new DatabaseUnavailable(
        `The embedded database ${file} cannot be opened: ${(e as Error).message.split('\n')[0]}`,
      );
    }
    const sqlite = database;
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    opened = {
      db,
      engine: 'sqlite',
      where: file,
      close: async () => {
        try {
          await db.destroy();
        } finally {
          // Closed here too when Kysely never ran a query (its destroy then leaves the database alone).
          sqlite.close();
          lock.release();
        }
      },
    };
  }
  const { error, results } = await new Migrator({ db: opened.db, provider: migrationProvider }).migrateToLatest();
  if (error) {
    await opened.close();
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new DatabaseUnavailable(
      `The database at ${opened.where} could not be migrated${failed ? ` (${failed})` : ''}: ${(error as Error).message}`,
    );
  }
  return opened;
}
