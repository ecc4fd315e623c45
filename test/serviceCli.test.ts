/**
 * `conformance service` as a person starts it (issue 25): on a fresh folder it serves the sign-in
 * page with the embedded database under ./conformance-service-data and prints the first
 * operator's one-time link; Ctrl-C ends it with 0; an unreachable PostgreSQL or a usage problem
 * is one line and exit 2.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/conformance.mjs', import.meta.url));

function start(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [BIN, 'service', ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: cwd, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const line = async (pattern: RegExp): Promise<RegExpExecArray> => {
    for (;;) {
      const m = pattern.exec(out);
      if (m) return m;
      if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child: child as ChildProcess, line, exited, output: () => ({ out, err }) };
}

test('on a fresh folder: the embedded database, the sign-in page, the operator’s link; Ctrl-C ends it with 0', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'service-cli-'));
  const service = start(['--port', '0'], cwd);
  const [, url] = await service.line(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
  const [, invite] = await service.line(/set the operator's password within \d+ hours at (\S+)/);
  expect(service.output().out).toContain(
    `Database: embedded at ${join(cwd, 'conformance-service-data', 'service.db')}`,
  );
  expect(existsSync(join(cwd, 'conformance-service-data', 'service.db'))).toBe(true);
  const signIn = await fetch(`${url}/`);
  expect(signIn.status).toBe(200);
  expect(await signIn.text()).toContain('<h1>Sign in</h1>');
  expect((await fetch(invite)).status).toBe(200);
  service.child.kill('SIGINT');
  expect(await service.exited).toBe(0);
  expect(service.output().err).toBe('');
}, 60_000);

test('PostgreSQL unreachable at start: one line naming it (password masked), exit 2', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'service-cli-'));
  const service = start(['--database-url', 'postgres://svc:secret@127.0.0.1:1/service'], cwd, {
    CONFORMANCE_SERVICE_KEY: 'cd'.repeat(32),
  });
  expect(await service.exited).toBe(2);
  const { out, err } = service.output();
  expect(out).toBe('');
  expect(err.trim().split('\n')).toHaveLength(1);
  expect(err).toMatch(/^conformance: PostgreSQL at postgres:\/\/svc:\*\*\*@127\.0\.0\.1:1\/service is unreachable/);
  expect(err).not.toContain('secret');
}, 60_000);

test('usage problems are one line, the usage, exit 2: --workers-only without PostgreSQL, an unknown range, no key for PostgreSQL', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'service-cli-'));
  const workers = start(['--workers-only'], cwd);
  expect(await workers.exited).toBe(2);
  expect(workers.output().err).toMatch(/^conformance: --workers-only needs --database-url/);
  const range = start(['--allow-ranges', 'loopback,everything'], cwd);
  expect(await range.exited).toBe(2);
  expect(range.output().err).toMatch(
    /^conformance: --allow-ranges takes loopback, private, link-local, received "everything"/,
  );
  const key = start(['--database-url', 'postgres://127.0.0.1:1/x'], cwd);
  expect(await key.exited).toBe(2);
  expect(key.output().err).toMatch(/^conformance: CONFORMANCE_SERVICE_KEY must be set with --database-url/);
}, 60_000);

test('service --help prints its usage and options, exit 0; the overview names it', async () => {
  const { main } = await import('../bin/cli.ts');
  const lines: string[] = [];
  const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(`ERR ${l}`) };
  expect(await main(['service', '--help'], io)).toBe(0);
  expect(lines.join('\n')).toMatch(/^Usage:\n {2}npx conformance service \[--port N\]/);
  expect(lines.join('\n')).toContain('--workers-only');
  lines.length = 0;
  expect(await main(['help'], io)).toBe(0);
  expect(lines.join('\n')).toMatch(/^ {2}service +\S/m);
});
