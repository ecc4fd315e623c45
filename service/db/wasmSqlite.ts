/**
 * The embedded database's engine: SQLite compiled to WebAssembly (node-sqlite3-wasm, SQLite 3.53,
 * its files read and written through Node's fs), so that no install compiles or fetches a native
 * module (issue 33, item 7). Kysely's SqliteDialect was written for better-sqlite3; this gives it
 * the part it uses: `prepare(sql)` answering a statement that knows whether it answers rows
 * (`reader`), runs once with `all`, `run` or `iterate`, and `close()`.
 *
 * node-sqlite3-wasm frees nothing by itself, and Kysely prepares one statement per query and never
 * finalizes it (better-sqlite3's are collected): each statement here is finalized as soon as it
 * has run, and one that is collected without having run is finalized then.
 */
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import wasm from 'node-sqlite3-wasm';

type WasmDatabase = InstanceType<typeof wasm.Database>;
type WasmStatement = InstanceType<typeof wasm.Statement>;
type Row = Record<string, unknown>;

/**
 * The number of columns a statement answers, as better-sqlite3 decides `reader` (a write with
 * `returning` answers rows; a `with` that updates, a pragma that sets, do not). node-sqlite3-wasm
 * reads the names before it steps and offers no public way to ask: its own method is used, and a
 * release without it is refused at the first statement rather than guessed from the SQL text.
 */
function columnCount(statement: WasmStatement): number {
  const names = (statement as unknown as { _getColumnNames?: () => string[] })._getColumnNames;
  if (typeof names !== 'function')
    throw new Error(
      'node-sqlite3-wasm no longer tells the columns of a statement: service/db/wasmSqlite.ts needs updating',
    );
  return names.call(statement).length;
}

/** better-sqlite3 binds `undefined` as null; node-sqlite3-wasm refuses it. */
function bindable(parameters: ReadonlyArray<unknown>): Parameters<WasmStatement['all']>[0] {
  const values = parameters.includes(undefined) ? parameters.map((p) => (p === undefined ? null : p)) : parameters;
  return values as Parameters<WasmStatement['all']>[0];
}

/** A statement collected before it ran is finalized then (its database still open). */
const unrun = new FinalizationRegistry<WasmStatement>((statement) => {
  if (!statement.isFinalized && statement.database.isOpen) statement.finalize();
});

class WasmSqliteStatement implements SqliteStatement {
  readonly reader: boolean;
  #statement: WasmStatement | undefined;

  constructor(statement: WasmStatement) {
    try {
      this.reader = columnCount(statement) > 0;
    } catch (e) {
      statement.finalize();
      throw e;
    }
    this.#statement = statement;
    unrun.register(this, statement, this);
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    const statement = this.#take();
    try {
      return statement.all(bindable(parameters));
    } finally {
      statement.finalize();
    }
  }

  run(parameters: ReadonlyArray<unknown>): { changes: number; lastInsertRowid: number | bigint } {
    const statement = this.#take();
    try {
      return statement.run(bindable(parameters));
    } finally {
      statement.finalize();
    }
  }

  /** Finalized when the rows end or the reader stops early (Kysely's stream reads them at once). */
  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    const statement = this.#take();
    let rows: IterableIterator<unknown>;
    try {
      rows = statement.iterate(bindable(parameters));
    } catch (e) {
      statement.finalize();
      throw e;
    }
    return (function* () {
      try {
        yield* rows;
      } finally {
        statement.finalize();
      }
    })();
  }

  #take(): WasmStatement {
    const statement = this.#statement;
    if (statement === undefined) throw new Error('A statement of the embedded database runs once');
    this.#statement = undefined;
    unrun.unregister(this);
    return statement;
  }
}

/** One SQLite file, as Kysely's SqliteDialect takes it, with the plain calls opening it needs. */
export class WasmSqlite implements SqliteDatabase {
  readonly #database: WasmDatabase;

  constructor(file: string, options: { readOnly?: boolean; fileMustExist?: boolean } = {}) {
    this.#database = new wasm.Database(file, options);
  }

  prepare(sql: string): WasmSqliteStatement {
    return new WasmSqliteStatement(this.#database.prepare(sql));
  }

  /** Every row a statement answers (a pragma's value, a query outside Kysely). */
  all<T = Row>(sql: string, parameters: ReadonlyArray<unknown> = []): T[] {
    return this.#database.all(sql, bindable(parameters)) as T[];
  }

  /** Statements that answer nothing, several at once. */
  exec(sql: string): void {
    this.#database.exec(sql);
  }

  get isOpen(): boolean {
    return this.#database.isOpen;
  }

  close(): void {
    if (this.#database.isOpen) this.#database.close();
  }
}

/**
 * The service's embedded database file, opened as the service uses it. It is one process's (the
 * data folder's lock), so SQLite holds the file for as long as it is open (locking_mode EXCLUSIVE):
 * no lock taken and given back around each statement, and a write-ahead log without shared memory,
 * which this build has not (the log's index lives in the process). The earlier engine's files (WAL,
 * written by better-sqlite3) open as they are, their log replayed if that process died.
 */
export function openServiceSqlite(file: string): WasmSqlite {
  const database = new WasmSqlite(file);
  try {
    database.exec('pragma locking_mode = EXCLUSIVE');
    database.exec('pragma busy_timeout = 5000');
    const [{ journal_mode: journal }] = database.all<{ journal_mode: string }>('pragma journal_mode = WAL');
    if (journal !== 'wal') throw new Error(`its journal stays ${journal}, where WAL was asked`);
    // WAL's own durability: a commit outlives the process; a power cut may lose the last ones, never the file.
    database.exec('pragma synchronous = NORMAL');
    database.exec('pragma foreign_keys = ON');
    return database;
  } catch (e) {
    database.close();
    throw e;
  }
}
