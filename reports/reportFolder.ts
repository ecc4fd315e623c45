/**
 * One run per report folder, and a folder that holds one whole run: the run claims the folder
 * before it sends anything (a lock file naming its process), writes into a staging folder inside
 * it, and moves what it wrote into place at the end, so that results.json, report.html,
 * allure-results and the digest always come from one run, this one or the previous one.
 *
 * - A second run into a folder in use is refused at once, naming the other run's process and
 *   start time; a lock left by a process that no longer runs (killed, a crash) is taken over.
 * - The folder is made here, one level at a time (Node's recursive mkdir loops forever under
 *   /proc), and a folder that cannot be made or written (/proc, /sys, a file, a read-only folder)
 *   is refused with one line.
 * - The staging folder is inside the report folder, not beside it: only the report folder itself
 *   must be writable (a mounted CI volume's parent often is not), and a rename never crosses file
 *   systems. Files in the folder that no run writes (a config kept beside the report) are left
 *   alone; the artefacts of the previous run are replaced or removed, never mixed with this one's.
 * - A process that ends at once (a second Ctrl-C) removes its staging folder and lock on exit.
 */
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** A report folder that cannot be used: one line, without the option's name (the command adds it). */
export class ReportFolderError extends Error {}

/** Everything a run writes into its report folder (and `report --allure` beside it). */
export const REPORT_ARTEFACTS = [
  'results.json',
  'junit.xml',
  'report.html',
  'requirements-coverage.csv',
  'allure-results',
  'allure-report',
] as const;

export const LOCK_FILE = '.conformance-lock';
/** Followed by the process id and a random part: `.conformance-staging-1234-Ab3xYz`. */
const STAGING_PREFIX = '.conformance-staging-';
const PREVIOUS_PREFIX = '.conformance-previous-';

/** What the lock file holds. */
export interface ReportFolderOwner {
  pid: number;
  host: string;
  startedAt: string;
}

export interface ReportFolderClaim {
  /** The report folder, absolute. */
  readonly dir: string;
  /** This run, as the lock file names it. */
  readonly owner: ReportFolderOwner;
  /** Where the run writes; commit() moves its contents into `dir`. */
  readonly staging: string;
  /** True once committed (a claim kept after its commit: later writes go straight into `dir`, still locked). */
  readonly committed: boolean;
  /**
   * Moves what was written into the folder (replacing the previous run's artefacts) and releases
   * it; a claim made to be kept after its commit keeps the folder locked until release().
   */
  commit(): void;
  /** Leaves the folder as it was (the staging folder removed) and releases it; after a commit, only the lock goes. */
  release(): void;
}

export interface ClaimOptions {
  /**
   * Keep the folder locked after the commit, until release(): for a command that writes more into
   * the folder after its run (`conformance compare` adds the comparison once the references ran).
   */
  keepAfterCommit?: boolean;
}

const held = new Map<string, ReportFolderClaim>();

/** A process that ends at once (process.exit: a second Ctrl-C) leaves no staging folder and no lock. */
let exitHookInstalled = false;
function releaseAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const claim of [...held.values()]) claim.release();
  });
}

/** The claim this process holds on a folder, if any: the writers of the report use it. */
export function heldReportFolder(dir: string): ReportFolderClaim | undefined {
  return held.get(resolve(dir));
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'read-only file system',
  ENOENT: 'no folder can be made there',
  ENOSPC: 'no space left',
  EDQUOT: 'disk quota exceeded',
  ENAMETOOLONG: 'name too long',
  ELOOP: 'too many symbolic links',
};

const reason = (e: unknown): string => {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === undefined) return (e as Error).message.split('\n')[0];
  return REASONS[code] ? `${REASONS[code]} (${code})` : code;
};

const codeOf = (e: unknown): string | undefined => (e as NodeJS.ErrnoException).code;

/**
 * Makes `dir` and its missing parents one level at a time, so that an error is seen once, never
 * retried (Node's recursive mkdir retries ENOENT forever under /proc); a ReportFolderError names
 * `shown` otherwise. Also for the other folders the command writes (`openapi --out`).
 */
export function makeFolder(dir: string, shown: string = dir): void {
  const missing: string[] = [];
  let at = dir;
  for (;;) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(at).isDirectory();
    } catch (e) {
      const code = codeOf(e);
      // Missing, or under a file (ENOTDIR): the parent says which.
      if ((code === 'ENOENT' || code === 'ENOTDIR') && dirname(at) !== at) {
        missing.unshift(at);
        at = dirname(at);
        continue;
      }
      throw new ReportFolderError(`${shown} cannot be used: ${reason(e)}`);
    }
    if (!isDirectory) {
      throw new ReportFolderError(
        at === dir ? `${shown} is a file, not a folder` : `${shown} lies under a file (${at}), not a folder`,
      );
    }
    break;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (e) {
      if (codeOf(e) === 'EEXIST' && statSync(folder).isDirectory()) continue;
      throw new ReportFolderError(`${shown} cannot be made: ${reason(e)}`);
    }
  }
}

/** True unless the process certainly no longer runs (another machine's process cannot be told). */
function running(owner: ReportFolderOwner): boolean {
  if (owner.host !== hostname()) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (e) {
    return codeOf(e) === 'EPERM';
  }
}

function readOwner(file: string): ReportFolderOwner | undefined {
  try {
    const o = JSON.parse(readFileSync(file, 'utf8')) as Partial<ReportFolderOwner>;
    if (typeof o.pid === 'number' && typeof o.host === 'string' && typeof o.startedAt === 'string')
      return { pid: o.pid, host: o.host, startedAt: o.startedAt };
  } catch {
    // unreadable or not ours: a stale lock
  }
  return undefined;
}

const inUse = (shown: string, o: ReportFolderOwner): ReportFolderError =>
  new ReportFolderError(
    `${shown} is in use by another run (process ${o.pid}${o.host !== hostname() ? ` on ${o.host}` : ''}, started ${o.startedAt}); ` +
      `wait for it to end or choose another folder (its lock: ${LOCK_FILE})`,
  );

/** Creates the lock file whole (written aside, then linked: link fails when the lock exists). */
function lock(dir: string, shown: string, me: ReportFolderOwner): void {
  const lockFile = join(dir, LOCK_FILE);
  const mine = join(dir, `${LOCK_FILE}.${me.pid}.${Math.random().toString(36).slice(2)}`);
  try {
    writeFileSync(mine, `${JSON.stringify(me)}\n`, { flag: 'wx' });
  } catch (e) {
    throw new ReportFolderError(`${shown} cannot be written: ${reason(e)}`);
  }
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(mine, lockFile);
        return;
      } catch (e) {
        const code = codeOf(e);
        if (code !== 'EEXIST') {
          // A file system without hard links: an exclusive create is the next best thing.
          if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') {
            try {
              writeFileSync(lockFile, `${JSON.stringify(me)}\n`, { flag: 'wx' });
              return;
            } catch (e2) {
              if (codeOf(e2) !== 'EEXIST') throw new ReportFolderError(`${shown} cannot be written: ${reason(e2)}`);
            }
          } else {
            throw new ReportFolderError(`${shown} cannot be written: ${reason(e)}`);
          }
        }
      }
      const owner = readOwner(lockFile);
      if (owner && running(owner)) throw inUse(shown, owner);
      // Stale: moved aside under a name of our own, then checked to be the stale lock seen (not a
      // lock another run made in the meantime), and removed.
      const aside = join(dir, `${LOCK_FILE}.stale.${me.pid}.${Math.random().toString(36).slice(2)}`);
      try {
        renameSync(lockFile, aside);
      } catch (e) {
        if (codeOf(e) === 'ENOENT') continue;
        throw new ReportFolderError(`${shown} cannot be written: ${reason(e)}`);
      }
      const moved = readOwner(aside);
      if (moved && running(moved)) {
        try {
          linkSync(aside, lockFile);
        } catch {
          // another run holds it now; either way the folder is in use
        }
        rmSync(aside, { force: true });
        throw inUse(shown, moved);
      }
      rmSync(aside, { force: true });
    }
    throw new ReportFolderError(`${shown} is being claimed by other runs at the same time; try again`);
  } finally {
    rmSync(mine, { force: true });
  }
}

/** Removes what processes that no longer run left in the folder (staging folders, lock attempts). */
function removeLeftovers(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = /^\.conformance-(?:staging|previous|lock\.(?:stale\.)?)-?(\d+)[.-]/.exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid) continue;
    if (running({ pid: Number(pid), host: hostname(), startedAt: '' })) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
  }
}

/**
 * Claims `dir` for one run (made if missing): refused with a ReportFolderError when it cannot be
 * made or written, or another running process holds it. `shown` is how messages name the folder.
 */
export function claimReportFolder(dir: string, shown: string = dir, options: ClaimOptions = {}): ReportFolderClaim {
  if (dir === '') throw new ReportFolderError('must not be empty');
  const root = resolve(dir);
  const me: ReportFolderOwner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  const already = held.get(root);
  if (already) throw inUse(shown, already.owner);
  makeFolder(root, shown);
  lock(root, shown, me);
  const lockFile = join(root, LOCK_FILE);
  let staging: string;
  try {
    removeLeftovers(root);
    staging = mkdtempSync(join(root, `${STAGING_PREFIX}${me.pid}-`));
  } catch (e) {
    rmSync(lockFile, { force: true });
    throw new ReportFolderError(`${shown} cannot be written: ${reason(e)}`);
  }
  let open = true;
  let committed = false;
  const ownLock = () => {
    const o = readOwner(lockFile);
    return o?.pid === me.pid && o.startedAt === me.startedAt && o.host === me.host;
  };
  const end = () => {
    open = false;
    held.delete(root);
    rmSync(staging, { recursive: true, force: true });
    if (ownLock()) rmSync(lockFile, { force: true });
  };
  const claim: ReportFolderClaim = {
    dir: root,
    owner: me,
    staging,
    get committed() {
      return committed;
    },
    commit: () => {
      if (!open || committed) throw new Error(`The report folder ${root} was committed or released already`);
      committed = true;
      try {
        moveIntoPlace(staging, root);
      } finally {
        if (options.keepAfterCommit) rmSync(staging, { recursive: true, force: true });
        else end();
      }
    },
    release: () => {
      if (open) end();
    },
  };
  held.set(root, claim);
  releaseAllOnExit();
  return claim;
}

/**
 * The staged artefacts replace the previous run's: files by rename (atomic each), folders by moving
 * the old one aside first; a previous artefact this run did not write is moved aside too.
 */
function moveIntoPlace(staging: string, dir: string): void {
  const staged = new Set(readdirSync(staging));
  const previous = mkdtempSync(join(dir, `${PREVIOUS_PREFIX}${process.pid}-`));
  try {
    for (const name of REPORT_ARTEFACTS) {
      if (staged.has(name)) continue;
      try {
        renameSync(join(dir, name), join(previous, name));
      } catch (e) {
        if (codeOf(e) !== 'ENOENT') throw e;
      }
    }
    // results.json last: the digest arrives with, or after, the files it seals.
    const order = [...staged].sort((a, b) => Number(a === 'results.json') - Number(b === 'results.json'));
    for (const name of order) {
      const target = join(dir, name);
      let replaced: 'none' | 'file' | 'folder' = 'none';
      try {
        replaced = statSync(target).isDirectory() ? 'folder' : 'file';
      } catch {
        // nothing there
      }
      // A file replaces a file in one rename; a folder cannot replace anything, so the old one goes first.
      if (replaced === 'folder' || (replaced === 'file' && statSync(join(staging, name)).isDirectory()))
        renameSync(target, join(previous, name));
      renameSync(join(staging, name), target);
    }
  } finally {
    rmSync(previous, { recursive: true, force: true });
  }
}
