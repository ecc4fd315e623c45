import { describe, expect, it } from 'vitest';
import { clientAuthenticatesAsClient as check } from './clientAuthenticatesAsClient.ts';
import { clientExchange as x } from './testing.ts';

const client = { id: 'cert-1', secret: 's3cret' };
const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;
const details = (headers: Record<string, string>, rawQuery = 'redirect_uri=https%3A%2F%2Fapp.example%2Fcallback') =>
  x('get-idp-token-details', { method: 'GET', headers, rawQuery });

describe('clientAuthenticatesAsClient', () => {
  it("passes Basic of the client's own id and secret", () => {
    const f = check.run({ request: details({ authorization: basic('cert-1:s3cret') }), client, issuedTokens: ['tok'] });
    expect(f.outcome).toBe('pass');
  });

  it("fails Basic of a user's name and password, naming the user but never the password", () => {
    const f = check.run({ request: details({ authorization: basic('alice:pa55word') }), client, issuedTokens: [] });
    expect(f.outcome).toBe('fail');
    expect(f.message).toContain('Basic credentials of another identity (alice)');
    expect(f.message).not.toContain('pa55word');
  });

  it('fails the client id with another secret without showing either secret', () => {
    const f = check.run({ request: details({ authorization: basic('cert-1:other') }), client, issuedTokens: [] });
    expect(f.outcome).toBe('fail');
    expect(f.message).not.toMatch(/\bother\b|s3cret/);
  });

  it('fails a bearer token, in Authorization or in the query', () => {
    const bearer = check.run({ request: details({ authorization: 'Bearer tok' }), client, issuedTokens: ['tok'] });
    expect(bearer.outcome).toBe('fail');
    const inQuery = check.run({
      request: details({ authorization: basic('cert-1:s3cret') }, 'redirect_uri=x&access_token=tok'),
      client,
      issuedTokens: ['tok'],
    });
    expect(inQuery.outcome).toBe('fail');
    expect(inQuery.message).toContain('a token in the query (access_token)');
    // An issued token under any parameter name is a token in the query all the same.
    const renamed = check.run({
      request: details({ authorization: basic('cert-1:s3cret') }, 'redirect_uri=x&t=tok'),
      client,
      issuedTokens: ['tok'],
    });
    expect(renamed.outcome).toBe('fail');
  });

  it('skips a request without credentials (client-sends-header judges the missing header)', () => {
    expect(check.run({ request: details({}), client, issuedTokens: [] }).outcome).toBe('skip');
  });
});
