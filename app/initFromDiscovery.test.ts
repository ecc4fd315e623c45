import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ConfigFile, loadConfig, readConfigFile } from '../core/config.ts';
import { discover } from '../core/discovery.ts';
import { HttpClient } from '../core/http.ts';
import { obtainTokens } from '../core/token.ts';
import type { ServiceId } from '../spec/types.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { readTarget, SERVICE_ORDER, starterConfig, writtenUnder } from './initFromDiscovery.ts';

const demo = readConfigFile(DEMO_CONFIG_FILE);
const client = new HttpClient({ timeoutMs: 10_000, maxResponseBytes: 1024 * 1024 });

function load(config: ConfigFile, target?: string) {
  const file = join(mkdtempSync(join(tmpdir(), 'init-')), 'c.json');
  writeFileSync(file, JSON.stringify(config));
  return loadConfig({ file, target, environment: {}, fallbacks: DEMO_ENVIRONMENT });
}

/** The written config works against the sandbox: every discovery document has keys, the token is issued. */
async function worksAgainst(config: ReturnType<typeof load>): Promise<void> {
  const found = await discover(client, config.services, SERVICE_ORDER);
  expect(
    SERVICE_ORDER.filter((s) => !found.get(s)?.keys || Object.keys(found.get(s)?.keys ?? {}).length === 0),
  ).toEqual([]);
  expect((await obtainTokens(client, config.credentials)).access).not.toBe('');
  const user = config.named.user;
  if (user) expect((await obtainTokens(client, user)).access).not.toBe('');
}

let sandbox: RunningSandbox;
let prefixed: RunningSandbox;
beforeAll(async () => {
  [sandbox, prefixed] = await Promise.all([
    startSandbox({ port: 0 }),
    startSandbox({ port: 0, pathPrefix: '/api/v2' }),
  ]);
});
afterAll(async () => {
  await Promise.all([sandbox?.close(), prefixed?.close(), client.close()]);
});

describe('init --target reads the discovery documents and the token endpoint (sandbox, real HTTP)', () => {
  test('every service of the sandbox is found at its path, the token endpoint by its answer; the starter works', async () => {
    const findings = await readTarget(sandbox.url);
    expect(findings.reached).toBe(true);
    const paths = Object.fromEntries(findings.services.map((s) => [s.service, s.found?.path]));
    expect(paths).toEqual({
      membership: '.well-known/api-configuration',
      claims: 'claims/.well-known/api-configuration',
      reference: 'reference/.well-known/api-configuration',
      address: 'address/.well-known/api-configuration',
      register: 'register/.well-known/api-configuration',
      booking: 'booking/.well-known/api-configuration',
      accounts: 'accounts/.well-known/api-configuration',
      auth: 'auth/.well-known/api-configuration',
      diary: 'diary/.well-known/api-configuration',
      patients: 'patients/.well-known/api-configuration',
      contracts: 'contracts/contract/.well-known/api-configuration',
    });
    for (const s of findings.services) expect(s.found?.keys, s.service).toBe(s.found?.of);
    expect(findings.token.found).toEqual({
      url: `${sandbox.url}/oauth/token`,
      how: 'answers a token request without credentials with HTTP 401 invalid_client',
    });
    const starter = starterConfig(demo, './config.schema.json', findings);
    expect(starter).toMatchObject({ target: sandbox.url, tokenUrl: '{target}/oauth/token' });
    expect(starter.services?.base).toBe('{target}');
    expect(JSON.stringify(starter.credentials)).not.toContain('tokenUrl');
    // It resolves as the demo config does, and the run's discovery and token requests succeed with it.
    const written = load(starter);
    const whole = loadConfig({
      file: DEMO_CONFIG_FILE,
      target: sandbox.url,
      environment: {},
      fallbacks: DEMO_ENVIRONMENT,
    });
    expect(written.services).toEqual(whole.services);
    expect(written.named).toEqual(whole.named);
    await worksAgainst(written);
  });

  test('a target with a path (the sandbox under /api/v2) is read under it', async () => {
    const target = `${prefixed.url}/api/v2`;
    const findings = await readTarget(target);
    expect(findings.services.filter((s) => !s.found).map((s) => s.service)).toEqual([]);
    expect(findings.token.found?.url).toBe(`${target}/oauth/token`);
    const written = load(starterConfig(demo, './s.json', findings));
    expect(written.target).toBe(target);
    await worksAgainst(written);
  });

  test('nothing found where the services are elsewhere: the starter guesses, and two edits make it work', async () => {
    const findings = await readTarget(prefixed.url);
    expect(findings.reached).toBe(true);
    expect(findings.services.filter((s) => s.found)).toEqual([]);
    expect(findings.services.find((s) => s.service === 'claims')?.tried).toEqual([
      `${prefixed.url}/claims/.well-known/api-configuration`,
      `${prefixed.url}/claim/.well-known/api-configuration`,
      `${prefixed.url}/.well-known/api-configuration`,
    ]);
    expect(findings.token.found).toBeUndefined();
    expect(findings.token.tried).toContain(`${prefixed.url}/oauth/token`);
    const starter = starterConfig(demo, './s.json', findings);
    expect(starter.services?.claims?.discovery).toBe('claims/.well-known/api-configuration');
    // The 17 addresses of the demo config move with two settings, not seventeen edits.
    const edited = {
      ...starter,
      services: { ...starter.services, base: '{target}/api/v2' },
      tokenUrl: '{target}/api/v2/oauth/token',
    };
    await worksAgainst(load(edited));
  });

  test('a token endpoint named by OAuth metadata or a discovery document is taken as named', async () => {
    const membership = { find_member_endpoint: '/m/find', search_authorisation_endpoint: '/m/auth' };
    const claims = { list_pending_remittances_endpoint: '/c/batch' };
    let withTokenMember = false;
    const server: Server = createServer((req, res) => {
      const body =
        req.url === '/.well-known/api-configuration'
          ? { ...membership, ...claims, ...(withTokenMember ? { token_endpoint: '/sso/token' } : {}) }
          : req.url === '/.well-known/openid-configuration'
            ? { issuer: 'https://idp.example', token_endpoint: 'https://idp.example/oauth2/token' }
            : undefined;
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? {}));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const findings = await readTarget(url);
      const found = (s: ServiceId) => findings.services.find((f) => f.service === s)?.found;
      // One document for several services: each service whose own keys it holds finds it.
      expect(found('membership')).toMatchObject({ path: '.well-known/api-configuration', keys: 2, of: 4 });
      expect(found('claims')).toMatchObject({ path: '.well-known/api-configuration', keys: 1 });
      expect(found('register')).toBeUndefined();
      expect(findings.token.found).toEqual({
        url: 'https://idp.example/oauth2/token',
        how: `token_endpoint of ${url}/.well-known/openid-configuration`,
      });
      expect(starterConfig(demo, './s.json', findings).tokenUrl).toBe('https://idp.example/oauth2/token');
      withTokenMember = true;
      const named = await readTarget(url);
      expect(named.token.found).toEqual({
        url: `${url}/sso/token`,
        how: `named token_endpoint in ${url}/.well-known/api-configuration`,
      });
      expect(starterConfig(demo, './s.json', named).tokenUrl).toBe('{target}/sso/token');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  test('an unreachable target is told apart from one that holds nothing', async () => {
    const findings = await readTarget('http://127.0.0.1:9');
    expect(findings.reached).toBe(false);
    expect(findings.unreachable).toMatch(/ECONNREFUSED|refused/i);
  });

  test('without findings the starter writes the sandbox layout once, and loads', () => {
    const starter = starterConfig(demo, './s.json');
    expect(starter.target).toBeUndefined();
    expect(Object.keys(starter.services ?? {})).toEqual(['base', ...SERVICE_ORDER]);
    expect(starter.tokenUrl).toBe('{target}/oauth/token');
    const written = load(starter, 'https://staging.example');
    const whole = loadConfig({
      file: DEMO_CONFIG_FILE,
      target: 'https://staging.example',
      environment: {},
      fallbacks: DEMO_ENVIRONMENT,
    });
    expect(written.services).toEqual(whole.services);
    expect(written.credentials).toEqual(whole.credentials);
    expect(written.fixtures).toEqual(whole.fixtures);
  });

  test('addresses under the target are written with {target}, others whole', () => {
    expect(writtenUnder('https://a.example/api/', 'https://a.example/api/oauth/token')).toBe('{target}/oauth/token');
    expect(writtenUnder('https://a.example/api', 'https://a.example/apix/token')).toBe('https://a.example/apix/token');
    expect(writtenUnder('https://a.example', 'https://b.example/token')).toBe('https://b.example/token');
  });
});
