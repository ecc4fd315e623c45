/**
 * Opens the service's database and brings its schema up to date: the embedded engine (SQLite
 * through better-sqlite3, one file under the data folder) by default, PostgreSQL (pg's Pool) from
 * a `postgres://` URL. Both go through Kysely, so every query of the service is written once.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import { privateDatabaseFiles } from '../dataFolder.ts';
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
    const { default: SQLite } = await import('better-sqlite3');
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    const file = join(options.dataDir, 'service.db');
    let database: InstanceType<typeof SQLite>;
    try {
      database = new SQLite(file);
      database.pragma('journal_mode = WAL');
      database.pragma('foreign_keys = ON');
      database.pragma('busy_timeout = 5000');
      privateDatabaseFiles(options.dataDir);
    } catch (e) {
      throw new DatabaseUnavailable(`The embedded database ${file} cannot be opened: ${(e as Error).message}`);
    }
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
    opened = { db, engine: 'sqlite', where: file, close: () => db.destroy() };
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
