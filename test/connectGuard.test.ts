/**
 * The connect guard (core/connectGuard.ts) and a run's own environment: a run under a guard
 * connects only to addresses the guard allows, whether the config, discovery or a name's
 * resolution at connect time names them, and a refusal is the run's problem, one line; a run given
 * an environment reads its secrets from it alone.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runConformance } from '../app/runConformance.ts';
import { addressRefusal, embeddedIpv4, hostRefusal, rangeOf } from '../core/connectGuard.ts';
import { HttpClient } from '../core/http.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { DISCOVERY_PATHS } from '../server/router/addresses.ts';
import { guardTarget } from '../service/ssrf.ts';

let sandbox: RunningSandbox;
/** A target whose discovery documents publish every operation at internal.test (the sandbox's port). */
let FRONT = '';
/**
 * A target whose discovery documents publish its own address as internal.test, and which answers
 * every operation with a redirect to elsewhere.test: a name no one knew before the suites ran.
 */
let REDIRECTING = '';
let echo: Server;
let ECHO_PORT = 0;
const servers: Server[] = [];

const PASSED_ON = ['/oauth/token', ...Object.values(DISCOVERY_PATHS)];

/** A front of the sandbox that rewrites its discovery documents' addresses, and redirects the rest when told to. */
function frontOf(published: (port: number) => string, redirectTo?: string): Server {
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (redirectTo && !PASSED_ON.includes(path))
      return void res.writeHead(307, { location: `${redirectTo}${req.url}` }).end();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).flatMap(([k, v]) =>
        ['host', 'content-length', 'connection'].includes(k) || v === undefined ? [] : [[k, String(v)]],
      ),
    );
    const answer = await fetch(`${sandbox.url}${req.url}`, {
      method: req.method,
      headers,
      ...(chunks.length > 0 ? { body: new Uint8Array(Buffer.concat(chunks)) } : {}),
    });
    let text = await answer.text();
    if (Object.values(DISCOVERY_PATHS).includes(path))
      text = text.replaceAll(sandbox.url, published((server.address() as AddressInfo).port));
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' }).end(text);
  }).listen(0, '127.0.0.1');
  servers.push(server);
  return server;
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  const sandboxPort = new URL(sandbox.url).port;
  const front = frontOf(() => `http://internal.test:${sandboxPort}`);
  const redirecting = frontOf((port) => `http://internal.test:${port}`, `http://elsewhere.test:${sandboxPort}`);
  echo = createServer((req, res) => res.end(`{"host":${JSON.stringify(req.headers.host)}}`)).listen(0, '127.0.0.1');
  servers.push(echo);
  await Promise.all(servers.map((s) => new Promise((r) => (s.listening ? r(undefined) : s.once('listening', r)))));
  FRONT = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  REDIRECTING = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`;
  ECHO_PORT = (echo.address() as AddressInfo).port;
});
afterAll(async () => {
  await sandbox.close();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

const reportDir = () => join(mkdtempSync(join(tmpdir(), 'conformance-guard-')), 'report');
const oneOperation = { only: 'diary-post-auth', allowDestructive: false, seed: 1, runs: 1, minCoverage: 0 };

describe('a call under the guard (core/http.ts)', () => {
  const client = (guard: ConstructorParameters<typeof HttpClient>[0]['connectGuard']) =>
    new HttpClient({ timeoutMs: 2000, maxResponseBytes: 1024, connectGuard: guard });

  test('an address written as such is checked: loopback refused unless allowed', async () => {
    const refused = client({ allowRanges: [] });
    const x = await refused.send({ method: 'GET', url: `http://127.0.0.1:${ECHO_PORT}/`, headers: {} });
    expect(x.error).toBe(
      'Refused: 127.0.0.1 resolves to 127.0.0.1, a loopback address; the service allows public addresses only',
    );
    expect(x.response).toBeUndefined();
    const allowed = client({ allowRanges: ['loopback'] });
    expect(
      (await allowed.send({ method: 'GET', url: `http://127.0.0.1:${ECHO_PORT}/`, headers: {} })).response?.status,
    ).toBe(200);
    expect((await refused.send({ method: 'GET', url: `http://[::1]:${ECHO_PORT}/`, headers: {} })).error).toMatch(
      /^Refused: ::1 resolves to ::1, a loopback address/,
    );
    await Promise.all([refused.close(), allowed.close()]);
  });

  test('a name is resolved once, through the guard, and the socket connects to the address checked', async () => {
    // partner.test is in no name server: the call reaches the echo server only at the guard's address.
    const guarded = client({ allowRanges: ['loopback'], hosts: { 'partner.test': ['127.0.0.1'] } });
    const x = await guarded.send({ method: 'GET', url: `http://partner.test:${ECHO_PORT}/`, headers: {} });
    expect(x.response?.bodyText).toBe(`{"host":"partner.test:${ECHO_PORT}"}`);
    await guarded.close();
  });

  test('a name that resolves to a private address at connect time is refused, whatever an earlier check saw', async () => {
    // The check before the run saw a public address (the first answer of a rebinding name server) ...
    await expect(
      guardTarget('http://rebound.test/', [], async () => [{ address: '93.184.215.14' }]),
    ).resolves.toBeUndefined();
    // ... the connection resolves it again, to a private address, and is refused.
    const guarded = client({ allowRanges: ['loopback'], hosts: { 'rebound.test': ['10.1.2.3'] } });
    const x = await guarded.send({ method: 'GET', url: `http://rebound.test:${ECHO_PORT}/`, headers: {} });
    expect(x.error).toBe(
      'Refused: rebound.test resolves to 10.1.2.3, a private address; the service allows public addresses and loopback ones only',
    );
    // Every address of an answer must be allowed, not only the first.
    const mixed = client({ allowRanges: ['loopback'], hosts: { 'rebound.test': ['127.0.0.1', '169.254.169.254'] } });
    expect((await mixed.send({ method: 'GET', url: `http://rebound.test:${ECHO_PORT}/`, headers: {} })).error).toMatch(
      /^Refused: rebound\.test resolves to 169\.254\.169\.254, a link-local address/,
    );
    await Promise.all([guarded.close(), mixed.close()]);
  });

  test('the system resolver answers names the guard does not pin', async () => {
    expect(await hostRefusal('localhost', { allowRanges: [] })).toMatch(
      /^Refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/,
    );
    expect(await hostRefusal('localhost', { allowRanges: ['loopback'] })).toBeUndefined();
    expect(addressRefusal('h', '8.8.8.8', [])).toBeUndefined();
    expect(addressRefusal('h', '::ffff:10.0.0.1', ['loopback'])).toMatch(/a private address/);
  });

  test('an IPv6 address carrying an IPv4 address is judged by the one it carries, however it is written', async () => {
    const loopback = [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1', // the same, as URL parsing writes it
      '::127.0.0.1', // IPv4-compatible
      '::7f00:1',
      '::ffff:0:127.0.0.1', // IPv4-translated
      '2002:7f00:1::', // 6to4
      '2002:7f00:0001:0:0:0:0:1',
    ];
    for (const a of loopback) expect(rangeOf(a), a).toBe('loopback');
    expect(rangeOf('2002:a9fe:a9fe::1')).toBe('link-local'); // 169.254.169.254 by 6to4
    expect(rangeOf('::ffff:a00:1')).toBe('private');
    expect(rangeOf('64:ff9b::a00:1')).toBe('private'); // NAT64 to 10.0.0.1
    expect(rangeOf('64:ff9b::808:808')).toBe('reserved'); // NAT64 stays reserved
    expect(rangeOf('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toBe('reserved'); // Teredo
    // IPv6's own addresses and public ones are untouched.
    expect(rangeOf('::1')).toBe('loopback');
    expect(rangeOf('::')).toBe('reserved');
    expect(rangeOf('2606:4700::1111')).toBeUndefined();
    expect(rangeOf('2002:808:808::1')).toBeUndefined(); // 6to4 of a public address
    expect(embeddedIpv4('fe80::1%eth0')).toBeUndefined();
    // The URL forms of the review, before any connection.
    for (const url of ['http://[::127.0.0.1]:8080/', 'http://[::ffff:127.0.0.1]/', 'http://[2002:7f00:1::]/'])
      await expect(guardTarget(url, []), url).rejects.toThrow(/a loopback address/);
  });
});

describe('a run under the guard (app/runConformance.ts)', () => {
  test('a target at a loopback address is refused before any judgement when loopback is not allowed', async () => {
    const outcome = await runConformance({
      target: sandbox.url,
      config: DEMO_CONFIG_FILE,
      environmentFallbacks: DEMO_ENVIRONMENT,
      reportDir: reportDir(),
      ...oneOperation,
      connectGuard: { allowRanges: [] },
    });
    expect(outcome.exitCode).toBe(2);
    expect(outcome.problem).toBe(
      'Refused: 127.0.0.1 resolves to 127.0.0.1, a loopback address; the service allows public addresses only',
    );
    expect(outcome.results).toBeUndefined();
  });

  test('an address discovery publishes is refused when it resolves to a range not allowed', async () => {
    const outcome = await runConformance({
      target: FRONT,
      config: DEMO_CONFIG_FILE,
      environmentFallbacks: DEMO_ENVIRONMENT,
      reportDir: reportDir(),
      ...oneOperation,
      connectGuard: { allowRanges: ['loopback'], hosts: { 'internal.test': ['10.1.2.3'] } },
    });
    expect(outcome.problem).toBe(
      'Refused: internal.test resolves to 10.1.2.3, a private address; the service allows public addresses and loopback ones only',
    );
    expect(outcome.exitCode).toBe(2);
  });

  test('the same run works when every address it connects to is allowed, its secrets from its own environment alone', async () => {
    const outcome = await runConformance({
      target: FRONT,
      config: DEMO_CONFIG_FILE,
      environment: DEMO_ENVIRONMENT,
      reportDir: reportDir(),
      ...oneOperation,
      connectGuard: { allowRanges: ['loopback'], hosts: { 'internal.test': ['127.0.0.1'] } },
    });
    expect(outcome.problem).toBeUndefined();
    expect(outcome.exitCode).toBe(0);
    // The suites' calls went to the address discovery published, through the guard's resolution.
    const answered = (outcome.results?.exchanges ?? []).filter(
      (x) => x.url.startsWith('http://internal.test:') && x.status !== undefined,
    );
    expect(answered.length).toBeGreaterThan(0);
  }, 120_000);
});

test("a name the suites meet only as they call (a redirect) is checked as they connect: its refusal is the run's problem", async () => {
  const outcome = await runConformance({
    target: REDIRECTING,
    config: DEMO_CONFIG_FILE,
    environment: DEMO_ENVIRONMENT,
    reportDir: reportDir(),
    ...oneOperation,
    connectGuard: {
      allowRanges: ['loopback'],
      hosts: { 'internal.test': ['127.0.0.1'], 'elsewhere.test': ['10.1.2.3'] },
    },
  });
  expect(outcome.problem).toBe(
    'Refused: elsewhere.test resolves to 10.1.2.3, a private address; the service allows public addresses and loopback ones only',
  );
  expect(outcome.exitCode).toBe(2);
  // The suites ran (their calls were refused, none judged a failure of the server): the report stays.
  expect(outcome.results?.exchanges.some((x) => x.error?.startsWith('Refused: elsewhere.test'))).toBe(true);
}, 120_000);

describe("a run's environment (RunOptions.environment)", () => {
  test('replaces the process environment: a variable set only in the process is missing', async () => {
    const names = Object.keys(DEMO_ENVIRONMENT);
    const saved = names.map((n) => [n, process.env[n]] as const);
    for (const n of names) process.env[n] = DEMO_ENVIRONMENT[n];
    try {
      const { [names[0]]: _left, ...rest } = DEMO_ENVIRONMENT;
      const outcome = await runConformance({
        target: sandbox.url,
        config: DEMO_CONFIG_FILE,
        environment: rest,
        reportDir: reportDir(),
        ...oneOperation,
      });
      expect(outcome.exitCode).toBe(2);
      expect(outcome.problem).toBe(`Environment variable ${names[0]} is not set (the config names it for a secret)`);
    } finally {
      for (const [n, v] of saved) {
        if (v === undefined) delete process.env[n];
        else process.env[n] = v;
      }
    }
  });

  test('a proxy named by the run environment is refused under the guard (it would connect where the guard cannot see)', async () => {
    const outcome = await runConformance({
      target: sandbox.url,
      config: DEMO_CONFIG_FILE,
      environment: { ...DEMO_ENVIRONMENT, HTTP_PROXY: 'http://10.9.9.9:3128' },
      reportDir: reportDir(),
      ...oneOperation,
      connectGuard: { allowRanges: ['loopback'] },
    });
    expect(outcome.problem).toBe(
      'Refused: the run would go through the proxy of HTTP_PROXY, and this service sends runs through no proxy',
    );
  });
});
