/**
 * The embedded database's engines side by side (issue 33, item 7): SQLite compiled to WebAssembly
 * (node-sqlite3-wasm, the service's engine, opened as the service opens it) and better-sqlite3 (the
 * native engine before; skipped with a line when it is not installed); with --rollback also the
 * WebAssembly build with its package's defaults (a rollback journal, the file locked and unlocked
 * around each statement: minutes, which is why the service does not use them). Each engine runs in
 * a process of its own, so its load time and memory are its own:
 *
 * - load: the module imported (the WebAssembly compiled; a native module loaded);
 * - open new / reopen: a new file opened with the service's pragmas and every migration run, then
 *   closed and opened again (the migrations find nothing to do);
 * - N inserts, each its own transaction, and N in one transaction: a statement prepared, run and
 *   freed each time (as Kysely uses an engine);
 * - N inserts through Kysely, each its own transaction (the service's pattern: an audit row);
 * - N point reads by primary key, plain and through Kysely;
 * - RSS: the process's resident memory at the end less at its start.
 *
 * The machine is shared: run it several times and read ranges.
 *
 *   npx tsx scripts/dbBench.ts [--rows 5000] [--rollback] [--engine wasm|wasm-rollback|better-sqlite3]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Kysely, Migrator, SqliteDialect, type SqliteDatabase } from 'kysely';
import { migrationProvider } from '../service/db/migrations.ts';
import type { Database } from '../service/db/schema.ts';

const ENGINES = ['wasm', 'wasm-rollback', 'better-sqlite3'] as const;
type EngineName = (typeof ENGINES)[number];

/** What each engine is measured through: a raw handle Kysely takes, and its plain statements. */
interface Engine {
  database: SqliteDatabase;
  exec(sql: string): void;
}

type Figures = Record<string, number>;

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '5000' },
    engine: { type: 'string' },
    rollback: { type: 'boolean', default: false },
  },
});
const ROWS = Number(values.rows);
if (!Number.isInteger(ROWS) || ROWS < 1) {
  process.stderr.write(`--rows must be a positive integer, received ${values.rows}\n`);
  process.exit(2);
}

const since = (start: number): number => performance.now() - start;

/** Imports the engine's module; undefined when it is not installed. */
async function opener(name: EngineName): Promise<((file: string) => Engine) | undefined> {
  if (name === 'better-sqlite3') {
    // Named through a variable: the package leaves the dependencies, and this stays runnable where it was kept.
    const moduleName: string = 'better-sqlite3';
    const imported = await import(moduleName).catch(() => undefined);
    if (imported === undefined) return undefined;
    const SQLite = imported.default as new (
      file: string,
    ) => SqliteDatabase & { exec(sql: string): void; pragma(p: string): unknown };
    return (file) => {
      const database = new SQLite(file);
      // As the service opened it before (service/db/openDatabase.ts, until issue 33).
      database.pragma('journal_mode = WAL');
      database.pragma('foreign_keys = ON');
      database.pragma('busy_timeout = 5000');
      return { database, exec: (sql) => database.exec(sql) };
    };
  }
  const { WasmSqlite, openServiceSqlite } = await import('../service/db/wasmSqlite.ts');
  if (name === 'wasm') {
    return (file) => {
      const database = openServiceSqlite(file);
      return { database, exec: (sql) => database.exec(sql) };
    };
  }
  return (file) => {
    const database = new WasmSqlite(file);
    database.exec('pragma foreign_keys = ON');
    database.exec('pragma busy_timeout = 5000');
    return { database, exec: (sql) => database.exec(sql) };
  };
}

async function migrated(engine: Engine): Promise<Kysely<Database>> {
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: engine.database }) });
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) throw error;
  return db;
}

/** One engine, measured in this process. */
async function measure(name: EngineName): Promise<Figures | undefined> {
  const rssBefore = process.memoryUsage().rss;
  let start = performance.now();
  const open = await opener(name);
  if (open === undefined) return undefined;
  const figures: Figures = { load: since(start) };
  const folder = mkdtempSync(join(tmpdir(), 'db-bench-'));
  const file = join(folder, 'service.db');
  try {
    start = performance.now();
    let engine = open(file);
    let db = await migrated(engine);
    figures['open new'] = since(start);
    await db.destroy();
    start = performance.now();
    engine = open(file);
    db = await migrated(engine);
    figures.reopen = since(start);

    engine.exec('create table bench (id integer primary key, v text not null)');
    const insert = 'insert into bench (v) values (?)';
    start = performance.now();
    for (let i = 0; i < ROWS; i++) engine.database.prepare(insert).run([`value ${i}`]);
    figures[`${ROWS} inserts, one transaction each`] = since(start);
    start = performance.now();
    engine.exec('begin');
    for (let i = 0; i < ROWS; i++) engine.database.prepare(insert).run([`value ${i}`]);
    engine.exec('commit');
    figures[`${ROWS} inserts in one transaction`] = since(start);
    start = performance.now();
    for (let i = 0; i < ROWS; i++)
      await db
        .insertInto('audit_events')
        .values({
          at: new Date().toISOString(),
          actor_kind: 'system',
          actor_user_id: null,
          actor_email: null,
          action: 'bench',
          organisation_id: null,
          product_id: null,
          run_id: null,
          certificate_id: null,
          user_id: null,
          address: '127.0.0.1',
          detail: `row ${i}`,
        })
        .execute();
    figures[`${ROWS} inserts through Kysely, one transaction each`] = since(start);
    start = performance.now();
    for (let i = 1; i <= ROWS; i++) engine.database.prepare('select v from bench where id = ?').all([i]);
    figures[`${ROWS} point reads`] = since(start);
    start = performance.now();
    for (let i = 1; i <= ROWS; i++)
      await db.selectFrom('audit_events').selectAll().where('seq', '=', i).executeTakeFirstOrThrow();
    figures[`${ROWS} point reads through Kysely`] = since(start);
    figures['RSS delta (MB)'] = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    await db.destroy();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return figures;
}

if (values.engine !== undefined) {
  if (!(ENGINES as readonly string[]).includes(values.engine)) {
    process.stderr.write(`--engine takes ${ENGINES.join(', ')}, received ${values.engine}\n`);
    process.exit(2);
  }
  const figures = await measure(values.engine as EngineName);
  process.stdout.write(`${JSON.stringify(figures ?? null)}\n`);
} else {
  // Each engine in a process of its own (tsx's loader passed on), one after the other.
  const results: Partial<Record<EngineName, Figures>> = {};
  const engines = ENGINES.filter((n) => n !== 'wasm-rollback' || values.rollback);
  for (const name of engines) {
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--engine', name, '--rows', String(ROWS)],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    if (child.status !== 0) {
      process.stderr.write(`${name}: exit ${child.status}\n`);
      process.exitCode = 1;
      continue;
    }
    const figures = JSON.parse(child.stdout.trim().split('\n').pop() ?? 'null') as Figures | null;
    if (figures === null) process.stdout.write(`${name}: not installed, skipped\n`);
    else results[name] = figures;
  }
  const measured = engines.filter((n) => results[n] !== undefined);
  const rows = Object.keys(results[measured[0]] ?? {});
  const width = Math.max(...rows.map((r) => r.length));
  process.stdout.write(`${'ms'.padEnd(width)}  ${measured.map((n) => n.padStart(15)).join('')}\n`);
  for (const row of rows)
    process.stdout.write(
      `${row.padEnd(width)}  ${measured.map((n) => (results[n]?.[row] ?? Number.NaN).toFixed(row.startsWith('RSS') ? 1 : 0).padStart(15)).join('')}\n`,
    );
}
