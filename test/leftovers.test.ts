/**
 * The check that `npm test` leaves no process behind (test/support/leftovers.ts): an orphan of the
 * run's session started after the run began is found; one started before it, or in a session of
 * its own, is not.
 */
import { spawn } from 'node:child_process';
import { expect, test, vi } from 'vitest';
import { leftBehind, processOf } from './support/leftovers.ts';

/** Starts `sleep 300` whose parent shell ends at once: the sleep is an orphan. Its pid. */
async function orphan(detached: boolean): Promise<number> {
  const shell = spawn('sh', ['-c', 'sleep 300 & echo $!'], { detached, stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  shell.stdout.on('data', (d) => {
    out += d;
  });
  await new Promise((resolve) => shell.on('exit', resolve));
  const pid = Number(out.trim());
  // Adopted once its parent is gone.
  await vi.waitFor(() => expect(processOf(pid)?.ppid).toBe(1));
  return pid;
}

test('an orphan of the session started after the run began is left behind; one before it or in another session is not', async () => {
  const self = processOf(process.pid)!;
  const pids: number[] = [];
  try {
    const mine = await orphan(false);
    pids.push(mine);
    const elsewhere = await orphan(true);
    pids.push(elsewhere);
    const found = leftBehind(self, self.started).map((p) => p.pid);
    expect(found).toContain(mine);
    expect(found).not.toContain(elsewhere);
    // Started before the run: not counted.
    const since = processOf(mine)!.started;
    expect(leftBehind(self, since).map((p) => p.pid)).not.toContain(mine);
    expect(processOf(mine)?.command).toBe('sleep 300');
  } finally {
    for (const pid of pids) process.kill(pid, 'SIGKILL');
  }
});
