import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../core/results.ts';
import { curlCommand, maskedHeaderValue, maskedUrl, secretVariable, shellQuote } from './curl.ts';
import { loadFixture } from '../core/testSupport/resultsFixtures.ts';

function exchange(over: Partial<ExchangeRecord> & { headers?: Record<string, string>; body?: string }): ExchangeRecord {
  return {
    method: over.method ?? 'GET',
    url: over.url ?? 'https://api.example.test/bills',
    startedAt: '2025-01-15T10:00:00.000Z',
    duration: 5,
    request: { headers: over.headers ?? {}, ...(over.body !== undefined ? { body: over.body } : {}) },
  };
}

const ENV = {
  CONFORMANCE_TOKEN: 'tok-from-env',
  CONFORMANCE_BASIC: 'basic-from-env',
  CONFORMANCE_SECRET: 'secret-from-env',
  CONFORMANCE_ACCESS_TOKEN: 'access-from-env',
  CONFORMANCE_CLIENT_SECRET: 'client-secret-from-env',
  HOME: '/home/should-not-appear',
};

/** Runs the command in a POSIX shell with `curl` replaced by a function that prints its arguments. */
function shellArgs(command: string): string[] {
  const script = `curl() { for a in "$@"; do printf '%s\\036' "$a"; done; }\n${command}`;
  const out = execFileSync('sh', ['-c', script], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...ENV },
    encoding: 'utf8',
  });
  return out.split('\u001e').slice(0, -1);
}

describe('shellQuote', () => {
  it('wraps in single quotes and writes each quote as an escaped quote', () => {
    expect(shellQuote("O'Brien")).toBe("'O'\\''Brien'");
    expect(shellQuote('$HOME `x` "y"')).toBe('\'$HOME `x` "y"\'');
    expect(shellQuote('')).toBe("''");
  });
});

describe('secretVariable', () => {
  it('names the variable after the secret', () => {
    expect(secretVariable('client_secret')).toBe('CONFORMANCE_CLIENT_SECRET');
    expect(secretVariable('X-Api-Key')).toBe('CONFORMANCE_X_API_KEY');
  });
});

describe('curlCommand', () => {
  it('renders method, url, headers and body, one option per line', () => {
    const cmd = curlCommand(
      exchange({
        method: 'POST',
        url: 'https://api.example.test/member/find?x=1&y=[2]',
        headers: { 'SU-SiteId': 'site-1', 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': '12' },
        body: 'a=1&b=2',
      }),
    );
    expect(cmd).toBe(
      [
        'curl --globoff',
        '  -X POST',
        "  'https://api.example.test/member/find?x=1&y=[2]'",
        "  -H 'SU-SiteId: site-1'",
        "  -H 'Content-Type: application/x-www-form-urlencoded'",
        "  --data-raw 'a=1&b=2'",
      ].join(' \\\n'),
    );
  });

  it('escapes single quotes in the body so the shell passes it unchanged', () => {
    const body = "insurerIdentifier=ppp&lastName=O'Brien&note=it's";
    const cmd = curlCommand(
      exchange({ method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body }),
    );
    expect(cmd).toContain(`--data-raw 'insurerIdentifier=ppp&lastName=O'\\''Brien&note=it'\\''s'`);
    expect(shellArgs(cmd)).toEqual([
      '--globoff',
      '-X',
      'POST',
      'https://api.example.test/bills',
      '-H',
      'Content-Type: application/x-www-form-urlencoded',
      '--data-raw',
      body,
    ]);
  });

  it('keeps $, backquotes and double quotes literal', () => {
    const body = '{"price":"$HOME","cmd":"`id`","q":"\\"x\\""}';
    const cmd = curlCommand(exchange({ method: 'PUT', headers: { 'X-Note': 'costs $5 and $HOME' }, body }));
    const args = shellArgs(cmd);
    expect(args).toContain('X-Note: costs $5 and $HOME');
    expect(args[args.length - 1]).toBe(body);
    expect(args.join(' ')).not.toContain('/home/should-not-appear');
  });

  it('uses --head for HEAD and quotes an unusual method', () => {
    expect(curlCommand(exchange({ method: 'HEAD' }))).toContain('curl --globoff \\\n  --head \\\n');
    expect(shellArgs(curlCommand(exchange({ method: "X'Y" })))).toEqual([
      '--globoff',
      '-X',
      "X'Y",
      'https://api.example.test/bills',
    ]);
  });

  it('keeps newlines and non-ASCII text in the body', () => {
    const body = 'line one\nZoë Ångström 日本語\n';
    expect(shellArgs(curlCommand(exchange({ method: 'POST', body }))).pop()).toBe(body);
  });

  it('replaces a bearer token with $CONFORMANCE_TOKEN in double quotes', () => {
    const cmd = curlCommand(exchange({ headers: { Authorization: 'Bearer eyJreal.token.value' } }));
    expect(cmd).toContain('-H "Authorization: Bearer $CONFORMANCE_TOKEN"');
    expect(cmd).not.toContain('eyJreal');
    expect(shellArgs(cmd)).toContain('Authorization: Bearer tok-from-env');
  });

  it('replaces an already masked token the same way', () => {
    expect(curlCommand(exchange({ headers: { authorization: 'Bearer ***' } }))).toContain(
      '-H "authorization: Bearer $CONFORMANCE_TOKEN"',
    );
  });

  it('replaces basic credentials with $CONFORMANCE_BASIC', () => {
    const cmd = curlCommand(exchange({ headers: { Authorization: 'Basic dXNlcjpwYXNz' } }));
    expect(cmd).toContain('-H "Authorization: Basic $CONFORMANCE_BASIC"');
    expect(cmd).not.toContain('dXNlcjpwYXNz');
    expect(shellArgs(cmd)).toContain('Authorization: Basic basic-from-env');
  });

  it('replaces a scheme-less or odd Authorization value with the bearer variable', () => {
    const cmd = curlCommand(exchange({ headers: { Authorization: 'rawtokenwithoutscheme' } }));
    expect(cmd).toContain('"Authorization: Bearer $CONFORMANCE_TOKEN"');
    expect(cmd).not.toContain('rawtoken');
  });

  it('never prints secrets that slipped into other headers, the query or the body', () => {
    const form = curlCommand(
      exchange({
        method: 'POST',
        url: 'https://api.example.test/revoke?access_token=leak-q&x=1',
        headers: { secret: 'leak-h', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'token=leak-b&token_type_hint=access_token',
      }),
    );
    expect(form).not.toMatch(/leak-/);
    const args = shellArgs(form);
    expect(args).toContain('https://api.example.test/revoke?access_token=access-from-env&x=1');
    expect(args).toContain('secret: secret-from-env');
    expect(args[args.length - 1]).toBe('token=tok-from-env&token_type_hint=access_token');

    const json = curlCommand(
      exchange({
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"client_id":"abc","client_secret":"leak-j","n":1}',
      }),
    );
    expect(json).not.toContain('leak-j');
    expect(shellArgs(json).pop()).toBe('{"client_id":"abc","client_secret":"client-secret-from-env","n":1}');
  });

  it('leaves a JSON body without secrets byte for byte', () => {
    const body = '{ "a" : 1,\n "b": "x" }';
    expect(
      shellArgs(curlCommand(exchange({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body }))).pop(),
    ).toBe(body);
  });

  it('masks the leaked token of the failing fixture', () => {
    const run = loadFixture('failing');
    const cmd = curlCommand(run.exchanges[2] as ExchangeRecord);
    expect(cmd).not.toContain('eyJleaked');
    expect(cmd).not.toContain('leakedquerytoken');
    expect(cmd).toContain('$CONFORMANCE_TOKEN');
  });
});

describe('maskedHeaderValue', () => {
  it('keeps the scheme and hides the credential', () => {
    expect(maskedHeaderValue('Authorization', 'Bearer abc')).toBe('Bearer ***');
    expect(maskedHeaderValue('authorization', 'abc')).toBe('***');
    expect(maskedHeaderValue('Cookie', 'sid=1')).toBe('***');
    expect(maskedHeaderValue('SU-SiteId', 'site-1')).toBe('site-1');
  });
});

describe('maskedUrl', () => {
  it('hides secret query values and keeps the rest', () => {
    expect(maskedUrl('https://a.test/x?access_token=abc&q=1#f')).toBe('https://a.test/x?access_token=***&q=1#f');
    expect(maskedUrl('https://a.test/x?q=token')).toBe('https://a.test/x?q=token');
  });
});
