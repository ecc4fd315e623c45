import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, HTTP_DEFAULTS, loadConfig, secretsOf, variablesNamed } from './config.ts';

const file = (content: unknown) => {
  const f = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'c.json');
  writeFileSync(f, typeof content === 'string' ? content : JSON.stringify(content));
  return f;
};

describe('loadConfig', () => {
  const minimal = {
    auth: { type: 'client-credentials', tokenUrl: '{target}/oauth/token', clientIdEnv: 'CID', clientSecretEnv: 'CS' },
    siteId: 'SITE-A',
  };

  test('a config naming no services gets one discovery document at the target; {target} is filled', () => {
    const c = loadConfig({ file: file(minimal), target: 'http://127.0.0.1:1234/', environment: { CID: 'i', CS: 's' } });
    expect(c.target).toBe('http://127.0.0.1:1234');
    expect(c.services.claims.discovery).toBe('http://127.0.0.1:1234/.well-known/api-configuration');
    expect(c.credentials).toMatchObject({ type: 'client-credentials', tokenUrl: 'http://127.0.0.1:1234/oauth/token' });
    expect(c.http).toEqual({
      timeoutMs: 10_000,
      maxResponseBytes: 5 * 1024 * 1024,
      stopAfterConsecutiveFailures: 3,
      concurrency: 8,
      maxEvidenceBytes: 64 * 1024,
      maxRunEvidenceBytes: 32 * 1024 * 1024,
      loadRetries: 1000,
      loadRetryWaitMs: 600_000,
      maxRetryAfterMs: 30_000,
    });
    expect(c.fixtures).toEqual({});
  });

  test('the http section keeps what it names and fills the rest with the defaults', () => {
    const c = loadConfig({
      file: file({ ...minimal, http: { timeoutMs: 1500, stopAfterConsecutiveFailures: 0, maxEvidenceBytes: 1024 } }),
      target: 'http://127.0.0.1:1234',
      environment: { CID: 'i', CS: 's' },
    });
    expect(c.http).toEqual({
      ...HTTP_DEFAULTS,
      timeoutMs: 1500,
      stopAfterConsecutiveFailures: 0,
      maxEvidenceBytes: 1024,
    });
  });

  test('load refusals are resent within a budget by default; 8 calls in flight at most, no rate unless the config sets one', () => {
    const defaults = loadConfig({
      file: file(minimal),
      target: 'http://127.0.0.1:1',
      environment: { CID: 'i', CS: 's' },
    });
    expect(defaults.http).toMatchObject({ loadRetries: 1000, loadRetryWaitMs: 600_000, maxRetryAfterMs: 30_000 });
    expect(defaults.http.maxRequestsPerSecond).toBeUndefined();
    expect(defaults.http.concurrency).toBe(8);
    const paced = loadConfig({
      file: file({ ...minimal, http: { maxRequestsPerSecond: 50, concurrency: 4, loadRetries: 0 } }),
      target: 'http://127.0.0.1:1',
      environment: { CID: 'i', CS: 's' },
    });
    expect(paced.http).toEqual({ ...HTTP_DEFAULTS, maxRequestsPerSecond: 50, concurrency: 4, loadRetries: 0 });
  });

  test('fallbacks stand in for unset variables only', () => {
    const f = file(minimal);
    const c = loadConfig({
      file: f,
      target: 'https://x.example',
      environment: { CID: 'mine' },
      fallbacks: { CID: 'demo', CS: 'demo-secret' },
    });
    expect(c.credentials).toMatchObject({ clientId: 'mine', clientSecret: 'demo-secret' });
  });

  test.each([
    [{ siteId: 'S' }, /names no auth/],
    [{ auth: minimal.auth }, /names no siteId/],
  ])('a config without auth or siteId is refused with one line (%j)', (content, message) => {
    expect(() => loadConfig({ file: file(content), target: 'https://x.example', environment: {} })).toThrow(message);
  });

  test('secrets come from the environment variables the file names', () => {
    const f = file({ auth: { type: 'bearer', tokenEnv: 'MY_TOKEN' }, siteId: 'S' });
    const c = loadConfig({ file: f, target: 'https://x.example', environment: { MY_TOKEN: 'abc12345' } });
    expect(secretsOf(c.credentials)).toEqual(['abc12345']);
    expect(() => loadConfig({ file: f, target: 'https://x.example', environment: {} })).toThrow(/MY_TOKEN is not set/);
  });

  test('a file config never falls back to the sandbox demo credentials', () => {
    const f = file({
      auth: { type: 'client-credentials', tokenUrl: '{target}/t', clientIdEnv: 'CID', clientSecretEnv: 'CSECRET' },
      siteId: 'S',
    });
    expect(() => loadConfig({ file: f, target: 'https://x.example', environment: { CID: 'me' } })).toThrow(
      /CSECRET is not set/,
    );
  });

  test.each([
    ['{not json', /is not valid JSON/],
    [{ unknownMember: 1 }, /invalid at \/: must NOT have additional properties \(unknownMember\)/],
    [{ features: ['Nope'] }, /invalid at \/features\/0/],
    [{ http: { timeoutMs: 5 } }, /invalid at \/http\/timeoutMs/],
    [{ http: { stopAfterConsecutiveFailures: -1 } }, /invalid at \/http\/stopAfterConsecutiveFailures/],
    [{ http: { maxRunEvidenceBytes: 2 ** 30 } }, /invalid at \/http\/maxRunEvidenceBytes/],
    [{ http: { maxRequestsPerSecond: 0 } }, /invalid at \/http\/maxRequestsPerSecond/],
    [{ http: { maxRequestsPerSecond: 2.5 } }, /invalid at \/http\/maxRequestsPerSecond/],
    [{ http: { concurrency: 0 } }, /invalid at \/http\/concurrency/],
    [{ http: { loadRetries: -1 } }, /invalid at \/http\/loadRetries/],
    [{ http: { maxRetryAfterMs: 2 * 3600_000 } }, /invalid at \/http\/maxRetryAfterMs/],
  ])('rejects %j with a one-line ConfigError', (content, message) => {
    const run = () => loadConfig({ file: file(content), target: 'https://x.example', environment: {} });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(message);
  });

  test('a target that is not an http URL is refused', () => {
    expect(() => loadConfig({ file: file(minimal), target: 'localhost:80', environment: {} })).toThrow(
      /not a URL|must be an http/,
    );
  });
});

describe('every missing environment variable in one message', () => {
  const config = {
    auth: { type: 'client-credentials', tokenUrl: '{target}/t', clientIdEnv: 'CID', clientSecretEnv: 'CS' },
    credentials: {
      user: { type: 'password', usernameEnv: 'UNAME', passwordEnv: 'UPASS', clientIdEnv: 'CID', clientSecretEnv: 'CS' },
      ready: { type: 'bearer', tokenEnv: 'READY_TOKEN' },
    },
    tokenUrl: '{target}/t',
    basic: { client: { clientIdEnv: 'CID', clientSecretEnv: 'BASIC_SECRET' } },
    siteId: 'S',
  };

  test('the variables a config names, once each, in the order the file names them', () => {
    expect(variablesNamed(config as never)).toEqual(['CID', 'CS', 'UNAME', 'UPASS', 'READY_TOKEN', 'BASIC_SECRET']);
  });

  test('a run without any of them names them all at once; an empty value is not set; fallbacks stand in', () => {
    const f = file(config);
    const load = (environment: NodeJS.ProcessEnv, fallbacks?: Record<string, string>) => () =>
      loadConfig({ file: f, target: 'https://x.example', environment, fallbacks });
    expect(load({})).toThrow(ConfigError);
    expect(load({})).toThrow(
      'Environment variables CID, CS, UNAME, UPASS, READY_TOKEN and BASIC_SECRET are not set (the config names them for secrets)',
    );
    expect(load({ CID: 'i', CS: '', UNAME: 'u', READY_TOKEN: 't' }, { UPASS: 'p' })).toThrow(
      'Environment variables CS and BASIC_SECRET are not set (the config names them for secrets)',
    );
    const all = { CID: 'i', CS: 's', UNAME: 'u', UPASS: 'p', READY_TOKEN: 't', BASIC_SECRET: 'b' };
    expect(load({ ...all, BASIC_SECRET: undefined })).toThrow(
      'Environment variable BASIC_SECRET is not set (the config names it for a secret)',
    );
    expect(load(all)()).toMatchObject({ basic: { client: { clientId: 'i', clientSecret: 'b' } } });
  });

  test('the passphrase variable of an encrypted client key is named with the others, before any file is read', () => {
    const f = file({
      ...config,
      http: { clientCertFile: 'no-such.pem', clientKeyFile: 'no-such.key', clientKeyPassphraseEnv: 'KEY_PASS' },
    });
    expect(() => loadConfig({ file: f, target: 'https://x.example', environment: { CID: 'i' } })).toThrow(
      /^Environment variables CS, UNAME, UPASS, READY_TOKEN, BASIC_SECRET and KEY_PASS are not set/,
    );
  });
});

describe('addresses written once: services.base with per-service paths, one tokenUrl', () => {
  const env = { CID: 'i', CS: 's' };
  const auth = { type: 'client-credentials', clientIdEnv: 'CID', clientSecretEnv: 'CS' } as const;
  const load = (content: unknown, target = 'https://staging.example/') =>
    loadConfig({ file: file(content), target, environment: env });

  test('a path is appended to services.base; {target} and whole URLs are kept; unnamed services take the default path', () => {
    const c = load({
      services: {
        base: 'https://api.staging.example/v2/',
        claims: { discovery: 'claims/.well-known/api-configuration' },
        reference: { discovery: '/reference/discovery.json' },
        address: { discovery: '{target}/address/.well-known/api-configuration' },
        register: { discovery: 'https://register.example/.well-known/api-configuration' },
      },
      auth,
      tokenUrl: 'https://login.staging.example/oauth2/token',
      siteId: 'S',
    });
    expect(c.services.claims.discovery).toBe('https://api.staging.example/v2/claims/.well-known/api-configuration');
    expect(c.services.reference.discovery).toBe('https://api.staging.example/v2/reference/discovery.json');
    expect(c.services.address.discovery).toBe('https://staging.example/address/.well-known/api-configuration');
    expect(c.services.register.discovery).toBe('https://register.example/.well-known/api-configuration');
    expect(c.services.membership.discovery).toBe('https://api.staging.example/v2/.well-known/api-configuration');
    expect(c.credentials).toMatchObject({ tokenUrl: 'https://login.staging.example/oauth2/token' });
  });

  test('services.base defaults to {target} and may hold it', () => {
    const paths = { claims: { discovery: 'claims/.well-known/api-configuration' } };
    const bare = load({ services: paths, auth, tokenUrl: '{target}/oauth/token', siteId: 'S' });
    expect(bare.services.claims.discovery).toBe('https://staging.example/claims/.well-known/api-configuration');
    const under = load({ services: { base: '{target}/api', ...paths }, auth, tokenUrl: '{target}/t', siteId: 'S' });
    expect(under.services.claims.discovery).toBe('https://staging.example/api/claims/.well-known/api-configuration');
  });

  test('the top-level tokenUrl serves every credential that names none; a tokenUrl of its own wins', () => {
    const c = load({
      auth,
      tokenUrl: '{target}/oauth/token',
      credentials: {
        user: { type: 'password', usernameEnv: 'CID', passwordEnv: 'CS', clientIdEnv: 'CID', clientSecretEnv: 'CS' },
        other: { ...auth, tokenUrl: 'https://idp.example/token' },
        ready: { type: 'bearer', tokenEnv: 'CS' },
      },
      siteId: 'S',
    });
    expect(c.credentials).toMatchObject({ tokenUrl: 'https://staging.example/oauth/token' });
    expect(c.named.user).toMatchObject({ type: 'password', tokenUrl: 'https://staging.example/oauth/token' });
    expect(c.named.other).toMatchObject({ tokenUrl: 'https://idp.example/token' });
    expect(c.named.ready).toEqual({ type: 'bearer', token: 's' });
  });

  test.each([
    [{ auth, siteId: 'S' }, /^auth names no tokenUrl, and the config gives no tokenUrl for every credential/],
    [
      { auth: { type: 'bearer', tokenEnv: 'CS' }, credentials: { client: auth }, siteId: 'S' },
      /^credentials\.client names no tokenUrl/,
    ],
    [{ auth, tokenUrl: 'oauth/token', siteId: 'S' }, /^tokenUrl is "oauth\/token", not an http or https address/],
    [
      { auth: { ...auth, tokenUrl: 'ftp://x/t' }, siteId: 'S' },
      /^auth\.tokenUrl is "ftp:\/\/x\/t", not an http or https address/,
    ],
    [
      { services: { base: 'staging' }, auth, tokenUrl: '{target}/t', siteId: 'S' },
      /^services\.base is "staging", not an http or https address/,
    ],
    [
      { services: { claims: { discovery: 'mailto:x@example' } }, auth, tokenUrl: '{target}/t', siteId: 'S' },
      /^services\.claims\.discovery is "mailto:x@example", not an http or https address/,
    ],
  ])('an address that cannot be used is one line naming its setting (%j)', (content, message) => {
    expect(() => load(content)).toThrow(ConfigError);
    expect(() => load(content)).toThrow(message);
  });
});
