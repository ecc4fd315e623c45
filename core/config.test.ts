import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, HTTP_DEFAULTS, loadConfig, secretsOf } from './config.ts';

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

  test('load refusals are resent within a budget by default; pacing is off unless the config sets it', () => {
    const defaults = loadConfig({
      file: file(minimal),
      target: 'http://127.0.0.1:1',
      environment: { CID: 'i', CS: 's' },
    });
    expect(defaults.http).toMatchObject({ loadRetries: 1000, loadRetryWaitMs: 600_000, maxRetryAfterMs: 30_000 });
    expect(defaults.http.maxRequestsPerSecond).toBeUndefined();
    expect(defaults.http.concurrency).toBeUndefined();
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
