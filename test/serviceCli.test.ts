/**
 * `conformance service` as a person starts it (issue 25): on a fresh folder it serves the sign-in
 * page with the embedded database under ./conformance-service-data and prints the first
 * operator's one-time link; Ctrl-C ends it with 0; an unreachable PostgreSQL or a usage problem
 * is one line and exit 2.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { newPartner } from '../service/testSupport/browserless.ts';

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
  // The defaults of the queue's limit and of retention, as the service applies them.
  expect(service.output().out).toContain(
    "Runs: at most 20 queued or running per organisation (--queue-limit); reports kept 365 days after a run ends, certified runs' evidence always (--retain-days)",
  );
  const signIn = await fetch(`${url}/`);
  expect(signIn.status).toBe(200);
  expect(await signIn.text()).toContain('<h1>Sign in</h1>');
  expect((await fetch(invite)).status).toBe(200);
  service.child.kill('SIGINT');
  expect(await service.exited).toBe(0);
  expect(service.output().err).toBe('');
}, 60_000);

test('--queue-limit and --retain-days reach the service: it says what it applies, and a start past the limit is refused', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'service-cli-limits-'));
  // A partner's server that never answers: the first run stays running while the second is asked for.
  const silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  const service = start(
    ['--port', '0', '--allow-ranges', 'loopback', '--queue-limit', '1', '--retain-days', '0'],
    cwd,
    {
      CONFORMANCE_SERVICE_OPERATOR_EMAIL: 'operator@example.test',
      CONFORMANCE_SERVICE_OPERATOR_PASSWORD: 'operator-password-1',
      CONFORMANCE_SERVICE_KEY: '6d'.repeat(32),
    },
  );
  try {
    const [, url] = await service.line(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    expect(service.output().out).toContain(
      'Runs: at most 1 queued or running per organisation (--queue-limit); every run kept (--retain-days)',
    );
    const partner = await newPartner(
      url,
      { email: 'operator@example.test', password: 'operator-password-1' },
      'Limited',
    );
    const products: string[] = [];
    for (const name of ['One', 'Two'])
      products.push((await partner.post('/products', { name, version: '1', baseUrl: silentUrl })).location!);
    expect((await partner.post(`${products[0]}/runs`, {}, products[0])).status).toBe(303);
    const second = await partner.post(`${products[1]}/runs`, {}, products[1]);
    expect(second.status).toBe(429);
    expect(second.text).toContain('Expected at most 1 runs queued or running for the organisation');
  } finally {
    // The run waits on the silent server: the test ends the service at once.
    service.child.kill('SIGKILL');
    await service.exited;
    silent.closeAllConnections();
    silent.close();
  }
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
