import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, DEFAULT_CONFIG, loadConfig, secretsOf } from './config.ts';

const file = (content: unknown) => {
  const f = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'c.json');
  writeFileSync(f, typeof content === 'string' ? content : JSON.stringify(content));
  return f;
};

describe('loadConfig', () => {
  test('defaults match the sandbox and fill {target}', () => {
    const c = loadConfig({ target: 'http://127.0.0.1:1234/', environment: {} });
    expect(c.target).toBe('http://127.0.0.1:1234');
    expect(c.services.claims.discovery).toBe('http://127.0.0.1:1234/claims/.well-known/api-configuration');
    expect(c.credentials).toMatchObject({
      type: 'client-credentials',
      clientId: 'sandbox-client',
      tokenUrl: 'http://127.0.0.1:1234/oauth/token',
    });
    expect(c.fixtures).toEqual(DEFAULT_CONFIG.fixtures);
  });

  test('secrets come from the environment variables the file names', () => {
    const f = file({ auth: { type: 'bearer', tokenEnv: 'MY_TOKEN' } });
    const c = loadConfig({ file: f, target: 'https://x.example', environment: { MY_TOKEN: 'abc12345' } });
    expect(secretsOf(c.credentials)).toEqual(['abc12345']);
    expect(() => loadConfig({ file: f, target: 'https://x.example', environment: {} })).toThrow(/MY_TOKEN is not set/);
  });

  test('a file config never falls back to the sandbox demo credentials', () => {
    const f = file({
      auth: { type: 'client-credentials', tokenUrl: '{target}/t', clientIdEnv: 'CID', clientSecretEnv: 'CSECRET' },
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
  ])('rejects %j with a one-line ConfigError', (content, message) => {
    const run = () => loadConfig({ file: file(content), target: 'https://x.example', environment: {} });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(message);
  });

  test('a target that is not an http URL is refused', () => {
    expect(() => loadConfig({ target: 'localhost:80', environment: {} })).toThrow(/not a URL|must be an http/);
  });
});
