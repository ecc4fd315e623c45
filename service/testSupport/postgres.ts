/**
 * A throwaway PostgreSQL cluster for the service's tests: initdb into a temporary folder, started
 * on a free loopback port, trust authentication, removed on stop. Debian's server binaries are
 * found under /usr/lib/postgresql/<version>/bin; when none is installed the tests that need it
 * are skipped with a line saying so. Run as root, the cluster runs as the `postgres` user (the
 * server refuses root).
 *
 * pg_ctl detaches the server from the test's process, so a test runner killed before its
 * afterAll (a time-out's kill, Ctrl-C) would leave it running: a watchdog started with the
 * cluster stops it (SIGQUIT to the postmaster: an immediate shutdown) and removes its folder as
 * soon as the process that started it is gone; stop() ends the watchdog too.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ThrowawayPostgres {
  /** URL of the cluster's `postgres` database. */
  url: string;
  /** A fresh database of its own, by URL. */
  createDatabase(name: string): Promise<string>;
  stop(): void;
}

/** The folder of initdb and pg_ctl, the newest version installed; undefined when none is. */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('PostgreSQL server binaries are not installed');
  const dir = mkdtempSync(join(tmpdir(), 'service-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (file: string, args: string[]) => {
    if (!asRoot) return execFileSync(file, args, { stdio: 'pipe' });
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    return execFileSync(file, args, { stdio: 'pipe', uid, gid, cwd: dir, env: { ...process.env, HOME: dir } });
  };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  run(join(bin, 'pg_ctl'), [
    '-D',
    data,
    '-w',
    '-l',
    join(dir, 'log'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    'start',
  ]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const watchdog = spawn(
    'sh',
    [
      '-c',
      'while kill -0 "$1" 2>/dev/null; do sleep 1; done; kill -QUIT "$(head -n 1 "$2/postmaster.pid")" 2>/dev/null; sleep 2; rm -rf "$3"',
      'watchdog',
      String(process.pid),
      data,
      dir,
    ],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
  return {
    url,
    async createDatabase(name: string) {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`create database "${name.replace(/"/g, '')}"`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop() {
      watchdog.kill();
      try {
        run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether a throwaway cluster can be started here (binaries present, and `postgres` to run them as root). */
export function postgresAvailable(): boolean {
  if (!postgresBinaries()) return false;
  if (process.getuid?.() !== 0) return true;
  return spawnSync('id', ['-u', 'postgres']).status === 0;
}
