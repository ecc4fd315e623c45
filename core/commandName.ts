/**
 * How a user runs the `conformance` command on this machine, for every command the suite prints
 * (help, replay hints, next steps): the installed name when the command was started through the
 * PATH from a global install (`npm install -g`), `npx conformance` otherwise (a clone, a project's
 * dependency, `node bin/conformance.mjs`), since a bare `conformance` is on no fresh machine's PATH.
 *
 * Files a run writes (report.html, results.json) never use it: they are compared byte for byte by
 * `verify-report` on other machines, so they print `npx conformance` whatever machine wrote them.
 */
import { existsSync } from 'node:fs';
import { posix, win32 } from 'node:path';

/** The command's name as installed (package.json `bin`). */
export const BIN_NAME = 'conformance';

export interface CommandNameContext {
  /** The script the process runs, as started (`process.argv[1]`, symbolic links not resolved). */
  script?: string;
  /** The PATH the process was given. */
  path?: string;
  platform?: NodeJS.Platform;
  /** Whether a file exists (the Windows shims of a global install). */
  exists?: (file: string) => boolean;
}

/**
 * True when the command was started as a global install starts it: on Unix the shell runs
 * `<prefix>/bin/conformance` (a link into `<prefix>/lib/node_modules`), on Windows the shim
 * `<prefix>/conformance.cmd` runs `node <prefix>/node_modules/<package>/bin/conformance.mjs`, each
 * folder on the PATH. A project's `node_modules/.bin` is on the PATH only inside `npx` and npm
 * scripts: there `npx conformance` is the command that works.
 */
export function startedFromPath(context: CommandNameContext = {}): boolean {
  const script = context.script ?? process.argv[1];
  if (!script) return false;
  const platform = context.platform ?? process.platform;
  const windows = platform === 'win32';
  const path = windows ? win32 : posix;
  const exists = context.exists ?? existsSync;
  const same = (a: string, b: string) => {
    const norm = (p: string) => path.resolve(p).replace(/[\\/]+$/, '');
    return windows ? norm(a).toLowerCase() === norm(b).toLowerCase() : norm(a) === norm(b);
  };
  const folders = (context.path ?? process.env.PATH ?? process.env.Path ?? '').split(path.delimiter).filter(Boolean);
  const onPath = (dir: string) => folders.some((f) => same(f, dir));
  const file = path.resolve(script);
  const folder = path.dirname(file);
  if (/[\\/]node_modules[\\/]\.bin$/.test(folder)) return false;
  if (path.basename(file) === BIN_NAME && onPath(folder)) return true;
  if (windows) {
    // <prefix>\node_modules\[@scope\]<package>\bin\conformance.mjs, its shim <prefix>\conformance.cmd.
    const parts = file.split(path.sep);
    const at = parts.lastIndexOf('node_modules');
    const scoped = parts[at + 1]?.startsWith('@') === true;
    if (at > 0 && at === parts.length - (scoped ? 5 : 4) && parts.at(-2) === 'bin') {
      const prefix = parts.slice(0, at).join(path.sep);
      return onPath(prefix) && exists(path.join(prefix, `${BIN_NAME}.cmd`));
    }
  }
  return false;
}

/** The words that start a printed command: `conformance` from a global install, else `npx conformance`. */
export function commandName(context: CommandNameContext = {}): string {
  return startedFromPath(context) ? BIN_NAME : `npx ${BIN_NAME}`;
}
