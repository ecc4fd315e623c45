/**
 * The service's data folder is private: the folder and its `reports` and `runs` folders 0700, its
 * files (service.db and its journal, service.key, signing-key.pem, every report's file) 0600, so
 * that no other account of the machine reads a partner's report or the database. The command
 * also sets its umask to 077 (cli/service.ts), for what the run engine writes; the modes here are
 * set explicitly as well, so that they hold whoever starts the service.
 *
 * A folder that cannot be made or written (a read-only mount, another account's folder, a file in
 * its place) is found at start, before anything is opened: one line (DataFolderProblem, exit 2).
 *
 * The embedded database is one process's: SQLite's WebAssembly build locks its file only against
 * itself (a `service.db.lock` folder, left behind by a process that dies), so the service holds
 * the data folder with a lock of its own, `service.lock`, naming its process (lockDataFolder).
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** The data folder cannot be used: one line for the operator (exit 2). */
export class DataFolderProblem extends Error {}

export const PRIVATE_FOLDER = 0o700;
export const PRIVATE_FILE = 0o600;

/** The embedded database's files (SQLite's journal of either kind, and the shared memory of the engine before). */
const DATABASE_FILES = ['service.db', 'service.db-wal', 'service.db-journal', 'service.db-shm'];
/** The files of the data folder itself that are made private when present. */
const OWN_FILES = [...DATABASE_FILES, 'service.key', 'signing-key.pem', 'service.lock'];

const why = (e: unknown): string => {
  const code = (e as NodeJS.ErrnoException).code;
  const reasons: Record<string, string> = {
    EROFS: 'it is on a read-only file system',
    EACCES: 'this account may not write there',
    EPERM: 'this account may not write there',
    ENOTDIR: 'a file stands where a folder is needed',
    EEXIST: 'a file stands where a folder is needed',
    ENOSPC: 'the disk is full',
  };
  return reasons[code ?? ''] ?? (e as Error).message.split('\n')[0];
};

/** Makes (or checks) the data folder: private, writable, its run folders made; else DataFolderProblem. */
export function privateDataFolder(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true, mode: PRIVATE_FOLDER });
    try {
      chmodSync(dataDir, PRIVATE_FOLDER);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EPERM') throw e;
      throw new DataFolderProblem(
        `The data folder ${dataDir} cannot be made private (mode 700): it belongs to another account (--data-dir names another)`,
      );
    }
    // Written, not asked (access() says yes to root on a read-only mount's folder, and to a folder of mode 0500).
    const probe = join(dataDir, `.write-check-${process.pid}`);
    writeFileSync(probe, '', { mode: PRIVATE_FILE });
    rmSync(probe, { force: true });
    for (const sub of ['reports', 'runs']) {
      mkdirSync(join(dataDir, sub), { mode: PRIVATE_FOLDER, recursive: true });
      chmodSync(join(dataDir, sub), PRIVATE_FOLDER);
    }
    for (const name of OWN_FILES) if (existsSync(join(dataDir, name))) chmodSync(join(dataDir, name), PRIVATE_FILE);
  } catch (e) {
    if (e instanceof DataFolderProblem) throw e;
    throw new DataFolderProblem(`The data folder ${dataDir} cannot be written: ${why(e)} (--data-dir names another)`);
  }
}

/** Makes a folder and everything in it private (a run's report folder once written); links are left alone. */
export function privateTree(path: string): void {
  if (!existsSync(path)) return;
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    chmodSync(path, PRIVATE_FOLDER);
    for (const name of readdirSync(path)) privateTree(join(path, name));
  } else chmodSync(path, PRIVATE_FILE);
}

/** Makes the embedded database's files private once opened (SQLite makes its journal with the database's mode). */
export function privateDatabaseFiles(dataDir: string): void {
  for (const name of DATABASE_FILES) {
    const file = join(dataDir, name);
    if (existsSync(file)) chmodSync(file, PRIVATE_FILE);
  }
}

export const LOCK_FILE = 'service.lock';

/** Who holds a data folder: written as JSON into its `service.lock`. */
interface LockHolder {
  pid: number;
  host: string;
  since: string;
}

/** A held data folder: `release()` gives it up (once; a lock another process took over is left alone). */
export interface DataFolderLock {
  release(): void;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it lives, under another account.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function holderOf(file: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockHolder>;
    if (typeof holder.pid === 'number' && typeof holder.host === 'string') return holder as LockHolder;
  } catch {
    // Unreadable or half written: judged by its age below.
  }
  return undefined;
}

/**
 * Holds the data folder for this process, for as long as the embedded database is open: the lock
 * file is made only if absent (`wx`); one naming a live process, or another machine (whose
 * processes cannot be asked), refuses with one line; one naming a process of this machine that has
 * ended is taken over. Taking over is done by one process at a time (a `service.lock.takeover`
 * folder, made atomically) and replaces the file whole (rename), so two services started at once
 * over a dead one's lock cannot both hold it. Then the engine's own lock folder, which the dead
 * process may have left (`service.db.lock`), is removed: nobody else can be using the database.
 */
export function lockDataFolder(dataDir: string): DataFolderLock {
  const file = join(dataDir, LOCK_FILE);
  const mine: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  try {
    try {
      writeFileSync(file, `${JSON.stringify(mine)}\n`, { flag: 'wx', mode: PRIVATE_FILE });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      takeOver(dataDir, mine);
    }
  } catch (e) {
    throw e instanceof DataFolderProblem ? e : lockProblem(dataDir, e);
  }
  try {
    rmdirSync(join(dataDir, 'service.db.lock'));
  } catch {
    // Absent (the usual case), or not an empty folder: then the engine says the database is locked.
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      const holder = holderOf(file);
      if (holder?.pid === mine.pid && holder.host === mine.host && holder.since === mine.since)
        rmSync(file, { force: true });
    },
  };
}

/** Made within the last 10 s; gone meanwhile counts as recent (another process is at it this instant). */
function recent(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs < 10_000;
  } catch {
    return true;
  }
}

/** The data folder is held by another (or is being taken this instant: no holder yet). */
function inUse(dataDir: string, holder: LockHolder | undefined): DataFolderProblem {
  if (holder === undefined)
    return new DataFolderProblem(`The data folder ${dataDir} is being taken by another service at this moment`);
  const where = holder.host === hostname() ? '' : ` on ${holder.host}`;
  return new DataFolderProblem(
    `The data folder ${dataDir} is in use by process ${holder.pid}${where} (another service; if none runs, remove ${join(dataDir, LOCK_FILE)})`,
  );
}

/** Replaces a lock whose process has ended, one process at a time; refuses one whose process lives. */
function takeOver(dataDir: string, mine: LockHolder): void {
  const file = join(dataDir, LOCK_FILE);
  const takeover = `${file}.takeover`;
  try {
    mkdirSync(takeover);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    // Another process is taking it over this instant (or died doing so, a while ago).
    if (recent(takeover)) throw inUse(dataDir, undefined);
    rmSync(takeover, { recursive: true, force: true });
    mkdirSync(takeover);
  }
  try {
    const holder = holderOf(file);
    if (holder !== undefined && (holder.host !== mine.host || alive(holder.pid))) throw inUse(dataDir, holder);
    // A file that names nobody is a lock being written, unless it has been so for a while.
    if (holder === undefined && existsSync(file) && recent(file)) throw inUse(dataDir, undefined);
    const next = `${file}.${process.pid}`;
    writeFileSync(next, `${JSON.stringify(mine)}\n`, { mode: PRIVATE_FILE });
    renameSync(next, file);
  } finally {
    rmSync(takeover, { recursive: true, force: true });
  }
}

const lockProblem = (dataDir: string, e: unknown): DataFolderProblem =>
  new DataFolderProblem(`The data folder ${dataDir} cannot be locked: ${why(e)} (--data-dir names another)`);
