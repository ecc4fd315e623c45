/**
 * `npm test` leaves no process behind (vitest.config.ts, globalSetup; issue 33): when every test
 * file has ended, a process that the tests started and that still runs is named on one line and
 * ended, and the run fails. Such a process is an orphan (its parent gone, so adopted by the
 * system's first process) in the test run's own session, started after the run began: a service,
 * a sandbox, a browser or a PostgreSQL server that a test failed to stop. A process started
 * before the run (a database `.ci/run` started for the tests) or in another session (another
 * person's run) is never counted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

interface Proc {
  pid: number;
  ppid: number;
  session: number;
  state: string;
  /** Clock ticks after boot. */
  started: number;
  command: string;
}

export function processOf(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces or parentheses: the fields follow the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return {
      pid,
      state: fields[0] ?? '',
      ppid: Number(fields[1]),
      session: Number(fields[3]),
      started: Number(fields[19]),
      command: command || stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    };
  } catch {
    return undefined;
  }
}

function processes(): Proc[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  return names
    .filter((n) => /^\d+$/.test(n))
    .map((n) => processOf(Number(n)))
    .filter((p): p is Proc => p !== undefined);
}

/** The processes left behind: orphans of this session, started after `since`, still running. */
export function leftBehind(self: Proc, since: number): Proc[] {
  return processes().filter(
    (p) => p.pid !== self.pid && p.session === self.session && p.ppid === 1 && p.started > since && p.state !== 'Z',
  );
}

const alive = (pid: number) => {
  const p = processOf(pid);
  return p !== undefined && p.state !== 'Z';
};

export default function setup(): () => Promise<void> {
  const self = processOf(process.pid);
  // Nothing to watch where /proc is not (the check is Linux's).
  if (!self) return async () => {};
  const since = self.started;
  return async () => {
    let found = leftBehind(self, since);
    // A process ending as its test ended is given a few seconds to be gone (looked at every 100 ms).
    for (let i = 0; i < 50 && found.length > 0; i++) {
      await sleep(100);
      found = found.filter((p) => alive(p.pid));
    }
    if (found.length === 0) return;
    for (const p of found) {
      console.error(`left behind by the tests: process ${p.pid}: ${p.command.slice(0, 200)}`);
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    console.error(`${found.length} process(es) the tests started were still running when they ended: the run fails`);
    process.exitCode = 1;
  };
}
