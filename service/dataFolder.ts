/**
 * The service's data folder is private: the folder and its `reports` and `runs` folders 0700, its
 * files (service.db and its journal, service.key, signing-key.pem, every report's file) 0600, so
 * that no other account of the machine reads a partner's report or the database. The command
 * also sets its umask to 077 (cli/service.ts), for what the run engine writes; the modes here are
 * set explicitly as well, so that they hold whoever starts the service.
 *
 * A folder that cannot be made or written (a read-only mount, another account's folder, a file in
 * its place) is found at start, before anything is opened: one line (DataFolderProblem, exit 2).
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The data folder cannot be used: one line for the operator (exit 2). */
export class DataFolderProblem extends Error {}

export const PRIVATE_FOLDER = 0o700;
export const PRIVATE_FILE = 0o600;

/** The files of the data folder itself that are made private when present. */
const OWN_FILES = ['service.db', 'service.db-wal', 'service.db-shm', 'service.key', 'signing-key.pem'];

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
  for (const name of OWN_FILES.slice(0, 3)) {
    const file = join(dataDir, name);
    if (existsSync(file)) chmodSync(file, PRIVATE_FILE);
  }
}
