/**
 * Staging connections (issue 23, item 4), against real local servers with a PKI made at test time
 * (test/tlsSupport): a target with a private CA or a self-signed certificate (`http.caFile`), one
 * that demands a client certificate (`http.clientCertFile`, `http.clientKeyFile`, a passphrase
 * from the environment), and a proxy (`http.proxy`, HTTPS_PROXY, HTTP_PROXY, NO_PROXY) that
 * counts the tunnels it opens. Every client is made as a run makes it: from a config file, through
 * loadConfig. A TLS or proxy failure is one line naming the setting to change; a setting naming a
 * file that is missing or wrong stops the command with exit 2 before any request.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { allSecretsOf, ConfigError, loadConfig } from '../core/config.ts';
import type { Exchange } from '../core/exchange.ts';
import { HttpClient } from '../core/http.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { startSandbox } from '../server/http.ts';
import { readResults, reportDir, runCli } from './support/cli.ts';
import { makePki, type Pki } from './tlsSupport/pki.ts';
import { type Listening, startConnectProxy, startTlsFront, startTlsServer } from './tlsSupport/servers.ts';

let pki: Pki;
const closing: Listening[] = [];
const clients: HttpClient[] = [];

beforeAll(() => {
  pki = makePki();
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(closing.map((s) => s.close()));
});

async function started<T extends Listening>(server: Promise<T>): Promise<T> {
  const s = await server;
  closing.push(s);
  return s;
}

const ENV = { CID: 'conformance-client-id', CS: 'conformance-client-secret' };
const MINIMAL = {
  auth: { type: 'client-credentials', tokenUrl: '{target}/oauth/token', clientIdEnv: 'CID', clientSecretEnv: 'CS' },
  siteId: 'SITE-A',
};

/** A config file with this `http` section, in a folder of its own (relative paths are read from it). */
function configFile(http: Record<string, unknown>, folder = mkdtempSync(join(tmpdir(), 'tls-config-'))): string {
  const file = join(folder, 'conformance.json');
  writeFileSync(file, JSON.stringify({ ...MINIMAL, http }));
  return file;
}

/** The config as a run loads it. */
function configOf(http: Record<string, unknown>, environment: NodeJS.ProcessEnv = {}) {
  return loadConfig({ file: configFile(http), target: 'https://127.0.0.1:1', environment: { ...ENV, ...environment } });
}

/** One GET with a client made from the config file, as a run makes its clients. */
async function get(
  url: string,
  http: Record<string, unknown> = {},
  environment: NodeJS.ProcessEnv = {},
): Promise<Exchange> {
  const client = new HttpClient({ ...configOf(http, environment).http, timeoutMs: 5000 });
  clients.push(client);
  return client.send({ method: 'GET', url: `${url}/probe`, headers: {} });
}

function configProblem(http: Record<string, unknown>, environment: NodeJS.ProcessEnv = {}): string {
  try {
    configOf(http, environment);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('the config loaded');
}

const host = (url: string) => new URL(url).host;

describe('http.caFile: a target whose certificate a private CA signed', () => {
  test('without it the call fails in one line naming http.caFile; with it the call is answered', async () => {
    const server = await started(startTlsServer({ pair: pki.server }));
    const refused = await get(server.url);
    expect(refused.response).toBeUndefined();
    expect(refused.errorKind).toBe('transport');
    expect(refused.error).toBe(
      `the certificate of ${host(server.url)} is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE): set http.caFile to the CA that signed it`,
    );
    const answered = await get(server.url, { caFile: pki.caFile });
    expect(answered.error).toBeUndefined();
    expect(answered.response?.status).toBe(200);
  });

  test('a self-signed certificate: the readable line, and the certificate itself given as http.caFile', async () => {
    const server = await started(startTlsServer({ pair: pki.selfSigned }));
    expect((await get(server.url)).error).toBe(
      `the certificate of ${host(server.url)} is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT): set http.caFile to the CA that signed it`,
    );
    expect((await get(server.url, { caFile: pki.selfSigned.cert })).response?.status).toBe(200);
  });

  test('a CA that signed something else: the line says http.caFile was tried', async () => {
    const server = await started(startTlsServer({ pair: pki.server }));
    expect((await get(server.url, { caFile: pki.otherCaFile })).error).toBe(
      `the certificate of ${host(server.url)} is not trusted, the CA of http.caFile (${pki.otherCaFile}) included (UNABLE_TO_VERIFY_LEAF_SIGNATURE): set http.caFile to the CA that signed it`,
    );
  });

  test('a certificate for other names, and an expired one: each its own line, the CA trusted', async () => {
    const wrong = await started(startTlsServer({ pair: pki.wrongName }));
    expect((await get(wrong.url, { caFile: pki.caFile })).error).toBe(
      `the certificate of ${host(wrong.url)} is for DNS:other.example, not 127.0.0.1 (ERR_TLS_CERT_ALTNAME_INVALID): set target (or the services' discovery addresses) to a name the certificate holds`,
    );
    const expired = await started(startTlsServer({ pair: pki.expired }));
    expect((await get(expired.url, { caFile: pki.caFile })).error).toBe(
      `the certificate of ${host(expired.url)} has expired (CERT_HAS_EXPIRED): it must be renewed on the target; no setting accepts an expired certificate`,
    );
  });

  test('plain HTTP at an https address: the line says to write it with http://', async () => {
    const plain = createServer((_req, res) => res.end('{}')).listen(0, '127.0.0.1');
    await new Promise((r) => plain.once('listening', r));
    closing.push({ url: '', close: () => new Promise((r) => plain.close(() => r())) });
    const address = `https://127.0.0.1:${(plain.address() as AddressInfo).port}`;
    expect((await get(address)).error).toMatch(
      /^127\.0\.0\.1:\d+ does not answer in TLS \(ERR_SSL_[A-Z_]+\): if it serves plain HTTP, write its address with http:\/\/ in target/,
    );
  });
});

describe('http.clientCertFile and http.clientKeyFile: a target that demands a client certificate', () => {
  test('TLS 1.3: without one, the line names http.clientCertFile; with one, the target sees it', async () => {
    const server = await started(startTlsServer({ pair: pki.server, clientCa: pki.caFile }));
    const refused = await get(server.url, { caFile: pki.caFile });
    expect(refused.response).toBeUndefined();
    expect(refused.error).toBe(
      `${host(server.url)} demands a client certificate (ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED): set http.clientCertFile and http.clientKeyFile`,
    );
    const mutual = { caFile: pki.caFile, clientCertFile: pki.client.cert, clientKeyFile: pki.client.key };
    const answered = await get(server.url, mutual);
    expect(answered.response?.status).toBe(200);
    expect(JSON.parse(answered.response?.bodyText ?? '{}')).toMatchObject({ client: 'conformance-client' });
    expect(server.clients).toEqual(['conformance-client']);
  });

  test('TLS 1.2: the handshake refused, the line names http.clientCertFile', async () => {
    const server = await started(startTlsServer({ pair: pki.server, clientCa: pki.caFile, maxVersion: 'TLSv1.2' }));
    expect((await get(server.url, { caFile: pki.caFile })).error).toBe(
      `${host(server.url)} refused the TLS handshake (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE): if it demands a client certificate, set http.clientCertFile and http.clientKeyFile`,
    );
    const mutual = { caFile: pki.caFile, clientCertFile: pki.client.cert, clientKeyFile: pki.client.key };
    expect((await get(server.url, mutual)).response?.status).toBe(200);
  });

  test('a certificate the target does not trust: the line names the file given', async () => {
    const server = await started(startTlsServer({ pair: pki.server, clientCa: pki.caFile }));
    const stranger = {
      caFile: pki.caFile,
      clientCertFile: pki.strangerClient.cert,
      clientKeyFile: pki.strangerClient.key,
    };
    expect((await get(server.url, stranger)).error).toMatch(
      new RegExp(
        `it may not accept the client certificate of http\\.clientCertFile \\(${pki.strangerClient.cert.replaceAll('.', '\\.')}\\)$`,
      ),
    );
    expect(server.clients).toEqual([]);
  });

  test('an encrypted key opens with the passphrase of the variable http.clientKeyPassphraseEnv names', async () => {
    const server = await started(startTlsServer({ pair: pki.server, clientCa: pki.caFile }));
    const http = {
      caFile: pki.caFile,
      clientCertFile: pki.client.cert,
      clientKeyFile: pki.client.encryptedKey,
      clientKeyPassphraseEnv: 'CLIENT_KEY_PASSPHRASE',
    };
    const x = await get(server.url, http, { CLIENT_KEY_PASSPHRASE: pki.client.passphrase });
    expect(x.response?.status).toBe(200);
    expect(server.clients).toEqual(['conformance-client']);
    // The passphrase is a secret of the run: every artefact masks it.
    const config = configOf(http, { CLIENT_KEY_PASSPHRASE: pki.client.passphrase });
    expect(allSecretsOf(config)).toContain(pki.client.passphrase);
  });
});

describe('the files of the http section are read and checked when the config loads: one line naming the setting', () => {
  test("paths are read from the config file's folder; a missing file is named with its setting", () => {
    const folder = mkdtempSync(join(tmpdir(), 'tls-relative-'));
    mkdirSync(join(folder, 'certs'));
    writeFileSync(join(folder, 'certs', 'ca.pem'), readFileSync(pki.caFile));
    const relativeCa = loadConfig({
      file: configFile({ caFile: 'certs/ca.pem' }, folder),
      target: 'https://127.0.0.1:1',
      environment: ENV,
    });
    expect(relativeCa.http.tls?.ca?.file).toBe(join(folder, 'certs', 'ca.pem'));
    expect(relativeCa.http.tls?.ca?.pem).toContain('-----BEGIN CERTIFICATE-----');
    const missing = join(folder, 'certs', 'missing.pem');
    expect(configProblem({ caFile: missing })).toBe(`http.caFile names ${missing}, which cannot be read (ENOENT)`);
    expect(
      configProblem({ caFile: pki.caFile, clientCertFile: join(folder, 'client.pem'), clientKeyFile: pki.client.key }),
    ).toBe(`http.clientCertFile names ${join(folder, 'client.pem')}, which cannot be read (ENOENT)`);
    expect(relative(folder, missing)).toBe(join('certs', 'missing.pem'));
  });

  test('a file that is not what its setting says', () => {
    expect(configProblem({ caFile: pki.client.key })).toBe(`http.caFile (${pki.client.key}) holds no PEM certificate`);
    expect(configProblem({ clientCertFile: pki.client.cert, clientKeyFile: pki.client.cert })).toMatch(
      new RegExp(`^http\\.clientKeyFile \\(${pki.client.cert.replaceAll('.', '\\.')}\\) holds no private key in PEM`),
    );
    expect(configProblem({ clientCertFile: pki.client.cert, clientKeyFile: pki.server.key })).toBe(
      `http.clientKeyFile (${pki.server.key}) is not the key of the certificate of http.clientCertFile (${pki.client.cert})`,
    );
    // A certificate without its key (and the other way round) is refused by the schema.
    expect(configProblem({ clientCertFile: pki.client.cert })).toMatch(
      /invalid at \/http: must have property clientKeyFile/,
    );
  });

  test('an encrypted key: without a passphrase variable, with it unset, with a wrong passphrase', () => {
    const encrypted = { clientCertFile: pki.client.cert, clientKeyFile: pki.client.encryptedKey };
    expect(configProblem(encrypted)).toBe(
      `http.clientKeyFile (${pki.client.encryptedKey}) is encrypted: set http.clientKeyPassphraseEnv to the name of an environment variable holding its passphrase`,
    );
    const named = { ...encrypted, clientKeyPassphraseEnv: 'KEY_PASS' };
    expect(configProblem(named)).toBe('Environment variable KEY_PASS is not set (the config names it for a secret)');
    expect(configProblem(named, { KEY_PASS: 'not it' })).toBe(
      `http.clientKeyFile (${pki.client.encryptedKey}) does not open with the passphrase of KEY_PASS (http.clientKeyPassphraseEnv)`,
    );
  });
});

describe('proxies: http.proxy, HTTPS_PROXY, HTTP_PROXY and NO_PROXY', () => {
  test('http.proxy carries calls to http and https targets (the TLS of the target inside the tunnel)', async () => {
    const proxy = await started(startConnectProxy());
    const tls = await started(startTlsServer({ pair: pki.server }));
    const http = await startSandbox();
    closing.push(http);
    expect((await get(tls.url, { caFile: pki.caFile, proxy: proxy.url })).response?.status).toBe(200);
    expect((await get(http.url, { proxy: proxy.url })).response?.status).toBeGreaterThan(0);
    expect(proxy.tunnels).toEqual([host(tls.url), host(http.url)]);
  });

  test('without http.proxy: HTTPS_PROXY for https targets, HTTP_PROXY for http ones; NO_PROXY exempts hosts', async () => {
    const proxy = await started(startConnectProxy());
    const other = await started(startConnectProxy());
    const tls = await started(startTlsServer({ pair: pki.server }));
    const http = await startSandbox();
    closing.push(http);
    const x = await get(tls.url, { caFile: pki.caFile }, { HTTPS_PROXY: proxy.url, HTTP_PROXY: other.url });
    expect(x.response?.status).toBe(200);
    expect(proxy.tunnels).toEqual([host(tls.url)]);
    const y = await get(http.url, {}, { HTTPS_PROXY: proxy.url, HTTP_PROXY: other.url });
    expect(y.response).toBeDefined();
    expect(other.tunnels).toEqual([host(http.url)]);
    // NO_PROXY exempts the target (by name, or by name and port) from the environment's proxy and from http.proxy alike.
    const direct = await get(
      tls.url,
      { caFile: pki.caFile },
      { HTTPS_PROXY: proxy.url, NO_PROXY: 'example.org,127.0.0.1' },
    );
    expect(direct.response?.status).toBe(200);
    const configured = await get(tls.url, { caFile: pki.caFile, proxy: proxy.url }, { no_proxy: host(tls.url) });
    expect(configured.response?.status).toBe(200);
    expect(proxy.tunnels).toEqual([host(tls.url)]);
    // The config's proxy wins over the environment's.
    await get(tls.url, { caFile: pki.caFile, proxy: other.url }, { HTTPS_PROXY: proxy.url });
    expect(other.tunnels).toEqual([host(http.url), host(tls.url)]);
  });

  test('a proxy that is down or refuses the tunnel: one line naming the proxy and the setting that chose it', async () => {
    const tls = await started(startTlsServer({ pair: pki.server }));
    const down = await started(startConnectProxy());
    await down.close();
    expect((await get(tls.url, { caFile: pki.caFile, proxy: down.url })).error).toBe(
      `Connection refused by the proxy ${down.url}: check http.proxy`,
    );
    const refusing = await started(startConnectProxy({ refuse: 407 }));
    expect((await get(tls.url, { caFile: pki.caFile }, { HTTPS_PROXY: refusing.url })).error).toBe(
      `the proxy ${refusing.url} (HTTPS_PROXY) refused to open a connection to ${host(tls.url)} (HTTP 407); it wants credentials, which go in the proxy address of HTTPS_PROXY or HTTP_PROXY`,
    );
  });

  test("a proxy address in the config holds no credentials; the environment's are secrets of the run", () => {
    expect(configProblem({ proxy: 'http://user:pw@proxy.example:3128' })).toBe(
      'http.proxy holds credentials, and a config file holds no secret: give the proxy with its credentials in HTTPS_PROXY and HTTP_PROXY instead',
    );
    const config = configOf(
      {},
      {
        https_proxy: 'proxy.example:3128',
        HTTPS_PROXY: 'http://ignored:1',
        HTTP_PROXY: 'http://u:p%40ss@proxy.example:3128',
      },
    );
    // Lower case first, as undici reads them; an address without a scheme is http://.
    expect(config.http.proxy?.https).toEqual({ url: 'http://proxy.example:3128/', from: 'https_proxy' });
    expect(config.http.proxy?.http?.from).toBe('HTTP_PROXY');
    expect(allSecretsOf(config)).toEqual(expect.arrayContaining(['p@ss', Buffer.from('u:p@ss').toString('base64')]));
    expect(configProblem({}, { HTTPS_PROXY: 'socks5://proxy.example:1080' })).toBe(
      'Environment variable HTTPS_PROXY is not the address of an http or https proxy (http://host:port)',
    );
    // No proxy anywhere: no proxy settings at all.
    expect(configOf({}).http.proxy).toBeUndefined();
  });
});

describe('the command against a sandbox served over TLS', () => {
  let front: Listening;
  let proxy: Awaited<ReturnType<typeof startConnectProxy>>;

  beforeAll(async () => {
    const sandbox = await startSandbox();
    closing.push(sandbox);
    // A staging target as the issue found it: its own CA, a client certificate demanded, behind a proxy.
    front = await started(startTlsFront(sandbox.url, { pair: pki.server, clientCa: pki.caFile }));
    proxy = await started(startConnectProxy());
  });

  /** The demo config with this `http` section added, in a folder of its own. */
  function demoConfig(http: Record<string, unknown>): string {
    const config = JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')) as { http?: Record<string, unknown> };
    config.http = { ...config.http, ...http };
    const file = join(mkdtempSync(join(tmpdir(), 'tls-demo-')), 'conformance.json');
    writeFileSync(file, JSON.stringify(config));
    return file;
  }

  const run = (config: string, env: NodeJS.ProcessEnv = {}) =>
    runCli(['run', '--target', front.url, '--config', config, '--only', 'D2', '--quiet', '--report-dir', reportDir()], {
      env: { ...DEMO_ENVIRONMENT, ...env },
      timeoutMs: 240_000,
    });

  test('with http.caFile, a client certificate and HTTPS_PROXY the run judges the target: exit 0, every call through the proxy', async () => {
    const config = demoConfig({
      caFile: pki.caFile,
      clientCertFile: pki.client.cert,
      clientKeyFile: pki.client.encryptedKey,
      clientKeyPassphraseEnv: 'CLIENT_KEY_PASSPHRASE',
    });
    const dir = reportDir();
    const cli = await runCli(
      ['run', '--target', front.url, '--config', config, '--only', 'D2', '--quiet', '--report-dir', dir],
      {
        env: { ...DEMO_ENVIRONMENT, CLIENT_KEY_PASSPHRASE: pki.client.passphrase, HTTPS_PROXY: proxy.url },
        timeoutMs: 240_000,
      },
    );
    expect(cli.code, cli.stderr + cli.stdout).toBe(0);
    expect(readResults(dir).verdict).toBe('conformant');
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(new Set(proxy.tunnels)).toEqual(new Set([host(front.url)]));
    // The passphrase is nowhere in the report folder.
    expect(readFileSync(join(dir, 'results.json'), 'utf8')).not.toContain(pki.client.passphrase);
  }, 250_000);

  test('without http.caFile: exit 2 before any suite, one line naming http.caFile, no stack trace', async () => {
    const cli = await run(demoConfig({}));
    expect(cli.code).toBe(2);
    const lines = cli.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^conformance: Target unreachable: the certificate of 127\.0\.0\.1:\d+ is not trusted \((SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)\): set http\.caFile to the CA that signed it \(discovery document of service \w+: https:/,
    );
    expect(cli.stderr + cli.stdout).not.toMatch(/\n\s+at /);
  }, 250_000);

  test('a caFile that cannot be read: exit 2, one line naming http.caFile', async () => {
    const missing = join(tmpdir(), 'no-such-ca.pem');
    const cli = await run(demoConfig({ caFile: missing }));
    expect(cli.code).toBe(2);
    expect(cli.stderr.trim()).toBe(`conformance: http.caFile names ${missing}, which cannot be read (ENOENT)`);
  }, 250_000);
});

describe('pact verify against a sandbox served over TLS: the verifier forwards with the config’s settings', () => {
  let front: Listening;
  let proxy: Awaited<ReturnType<typeof startConnectProxy>>;
  let pact: string;

  beforeAll(async () => {
    const sandbox = await startSandbox();
    closing.push(sandbox);
    front = await started(startTlsFront(sandbox.url, { pair: pki.server }));
    proxy = await started(startConnectProxy());
    const out = mkdtempSync(join(tmpdir(), 'tls-pacts-'));
    const generated = await runCli(['pact', 'generate', '--out', out]);
    expect(generated.code, generated.stderr).toBe(0);
    pact = join(out, 'reference-consumer-membership.json');
  }, 120_000);

  function configWith(http: Record<string, unknown>): string {
    const config = JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')) as { http?: Record<string, unknown> };
    config.http = { ...config.http, ...http };
    const file = join(mkdtempSync(join(tmpdir(), 'tls-pact-config-')), 'conformance.json');
    writeFileSync(file, JSON.stringify(config));
    return file;
  }

  const verify = (config: string, env: NodeJS.ProcessEnv = {}) =>
    runCli(['pact', 'verify', '--target', front.url, '--pact', pact, '--config', config, '--report-dir', reportDir()], {
      env: { ...DEMO_ENVIRONMENT, ...env },
      timeoutMs: 180_000,
    });

  test('with http.caFile, through HTTPS_PROXY: every interaction verified, exit 0, the calls through the proxy', async () => {
    const cli = await verify(configWith({ caFile: pki.caFile }), { HTTPS_PROXY: proxy.url });
    expect(cli.code, cli.stderr + cli.stdout).toBe(0);
    expect(cli.stdout).toMatch(/^Verdict: CONFORMANT/m);
    expect(new Set(proxy.tunnels)).toEqual(new Set([host(front.url)]));
  }, 200_000);

  test('without http.caFile: exit 2, one line naming http.caFile', async () => {
    const cli = await verify(configWith({}));
    expect(cli.code).toBe(2);
    expect(cli.stderr.trim().split('\n')).toHaveLength(1);
    expect(cli.stderr).toMatch(/is not trusted .*set http\.caFile/);
  }, 200_000);

  test('with a client certificate: exit 2, one line saying the verifier cannot present it', async () => {
    const cli = await verify(
      configWith({ caFile: pki.caFile, clientCertFile: pki.client.cert, clientKeyFile: pki.client.key }),
    );
    expect(cli.code).toBe(2);
    expect(cli.stderr.trim()).toMatch(
      /^conformance: pact verify cannot present the client certificate of http\.clientCertFile \(.+\): /,
    );
  }, 200_000);
});

describe('init --target over TLS: --ca-file and --client-cert/--client-key read the target and are written to the config', () => {
  let front: Listening;

  beforeAll(async () => {
    const sandbox = await startSandbox();
    closing.push(sandbox);
    front = await started(startTlsFront(sandbox.url, { pair: pki.server, clientCa: pki.caFile }));
  });

  test('with the CA and a client certificate the discovery documents are read; the paths written from the config’s folder', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tls-init-'));
    const out = join(folder, 'nested', 'conformance.json');
    mkdirSync(join(folder, 'nested'));
    const cli = await runCli([
      'init',
      '--target',
      front.url,
      '--ca-file',
      pki.caFile,
      '--client-cert',
      pki.client.cert,
      '--client-key',
      pki.client.key,
      '--out',
      out,
    ]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/services\.membership\.discovery: /);
    const written = JSON.parse(readFileSync(out, 'utf8')) as { http: Record<string, string> };
    expect(written.http.caFile).toBe(relative(join(folder, 'nested'), pki.caFile));
    expect(written.http.clientKeyFile).toBe(relative(join(folder, 'nested'), pki.client.key));
    // The config written loads with those files, from its own folder.
    expect(loadConfig({ file: out, environment: DEMO_ENVIRONMENT }).http.tls?.client?.certFile).toBe(pki.client.cert);
  });

  test('without the CA: exit 2, one line naming --ca-file; a certificate without its key: a usage line', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'tls-init-')), 'c.json');
    const untrusted = await runCli(['init', '--target', front.url, '--out', out]);
    expect(untrusted.code).toBe(2);
    expect(untrusted.stderr.trim().split('\n')).toHaveLength(1);
    expect(untrusted.stderr).toMatch(/is not trusted .*set --ca-file/);
    const half = await runCli(['init', '--target', front.url, '--client-cert', pki.client.cert, '--out', out]);
    expect(half.code).toBe(2);
    expect(half.stderr.trim()).toMatch(/--client-cert and --client-key go together/);
    const noTarget = await runCli(['init', '--ca-file', pki.caFile, '--out', out]);
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr.trim()).toMatch(/go with --target/);
  });
});
