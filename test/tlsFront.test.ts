/**
 * The sandbox behind a TLS front (issue 32, item 5), with a PKI made at test time
 * (test/tlsSupport): behind an ordinary TLS-terminating proxy that sets X-Forwarded-Proto and
 * X-Forwarded-Host, a sandbox started with trustProxy publishes the address the client used and a
 * run is CONFORMANT; one that does not is named by `init` (discovery names another scheme and
 * host than the target); `serve --tls-cert --tls-key` serves TLS itself and `--public-url` names
 * the address discovery publishes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { startSandbox } from '../server/http.ts';
import { readResults, reportDir, ROOT, runCli } from './support/cli.ts';
import { makePki, type Pki } from './tlsSupport/pki.ts';
import { type Listening, startTlsFront } from './tlsSupport/servers.ts';

let pki: Pki;
const closing: Listening[] = [];

beforeAll(() => {
  pki = makePki();
});
afterAll(async () => {
  await Promise.all(closing.map((s) => s.close()));
});

/** The demo config trusting the test CA, in a folder of its own. */
function demoConfig(): string {
  const config = JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')) as { http?: Record<string, unknown> };
  config.http = { ...config.http, caFile: pki.caFile };
  const file = join(mkdtempSync(join(tmpdir(), 'tls-front-')), 'conformance.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

/** `init --target URL`, trusting the test CA, writing into a folder of its own. */
const initAt = (url: string) =>
  runCli([
    'init',
    '--target',
    url,
    '--out',
    join(mkdtempSync(join(tmpdir(), 'init-')), 'c.json'),
    '--ca-file',
    pki.caFile,
  ]);

// One operation of each document, their discovery documents and the token endpoint behind the front.
const ONLY = 'find-member-v2,search-address,get-patient';

describe('the sandbox behind a TLS-terminating proxy', () => {
  test('with trustProxy, discovery names the https address the client used and the run is CONFORMANT', async () => {
    const sandbox = await startSandbox({ trustProxy: true });
    closing.push(sandbox);
    const front = await startTlsFront(sandbox.url, { pair: pki.server, forwarded: true });
    closing.push(front);
    const dir = reportDir();
    const cli = await runCli(
      ['run', '--target', front.url, '--config', demoConfig(), '--only', ONLY, '--quiet', '--report-dir', dir],
      { env: { ...DEMO_ENVIRONMENT }, timeoutMs: 240_000 },
    );
    expect(cli.code, cli.stderr + cli.stdout).toBe(0);
    expect(readResults(dir).verdict).toBe('conformant');
    const init = await initAt(front.url);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).not.toMatch(/^Warning: /m);
  }, 250_000);

  test('without it, the documents name the inner http address, and init says so', async () => {
    const sandbox = await startSandbox();
    closing.push(sandbox);
    const front = await startTlsFront(sandbox.url, { pair: pki.server, forwarded: true });
    closing.push(front);
    const init = await initAt(front.url);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(
      `Warning: the membership discovery document names addresses at ${sandbox.url}, not at the target's ${front.url}`,
    );
  }, 60_000);

  test('--public-url names the address discovery publishes', async () => {
    const sandbox = await startSandbox({ publicUrl: 'https://staging.example.test/api/' });
    closing.push(sandbox);
    const doc = (await (await fetch(`${sandbox.url}/.well-known/api-configuration`)).json()) as Record<string, string>;
    expect(Object.values(doc).every((u) => u.startsWith('https://staging.example.test/api/'))).toBe(true);
  });
});

describe('conformance serve --tls-cert --tls-key', () => {
  test('serves https with the certificate; init reads its discovery over TLS; a bad pair is one line, exit 2', async () => {
    const child = spawn(
      process.execPath,
      ['bin/conformance.mjs', 'serve', '--tls-cert', pki.server.cert, '--tls-key', pki.server.key],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /listening on (https:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
      });
      expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const init = await initAt(url);
      expect(init.code, init.stderr).toBe(0);
      expect(init.stdout).toMatch(/services\.membership\.discovery: /);
      expect(init.stdout).not.toMatch(/^Warning: /m);
    } finally {
      child.kill('SIGINT');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
    }
    const one = await runCli(['serve', '--tls-cert', pki.server.cert]);
    expect([one.code, one.stderr.trim()]).toEqual([
      2,
      expect.stringMatching(/^conformance: --tls-cert and --tls-key go together/),
    ]);
    const wrong = await runCli(['serve', '--tls-cert', pki.server.key, '--tls-key', pki.server.key]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).not.toMatch(/\n\s+at /);
    expect(wrong.stderr).toMatch(/^conformance: --tls-cert and --tls-key do not make a TLS server/);
  }, 120_000);
});
