import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestSandbox, basicAuth, paths, withQuery } from '../testSupport.ts';

type J = any;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await TestSandbox.start();
});
afterAll(() => sb.close());

const revoke = (fields: Record<string, string>, headers: Record<string, string> = { authorization: basicAuth() }) =>
  sb.request('POST', paths.revoke, {
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
const introspectWith = async (token: string) => (await sb.accounts(paths.introspect, { token })).status;
const refreshWith = (refreshToken: string) =>
  sb.request('POST', '/oauth/token', {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: 'sandbox-client',
      client_secret: 'sandbox-secret',
    }).toString(),
  });

describe('Revoke (4.2; DEC-D3-06)', () => {
  test('revoking an access token: 200, then the token is refused everywhere; its refresh token still works', async () => {
    const { access_token, refresh_token } = await sb.signIn();
    expect(await introspectWith(access_token)).toBe(200);
    const a = await revoke(
      { token: access_token, token_type_hint: 'access_token' },
      { authorization: basicAuth(), clientid: 'sandbox-client', secret: 'sandbox-secret' },
    );
    expect([a.status, a.json]).toEqual([200, { status: 'success' }]);
    expect(await introspectWith(access_token)).toBe(401);
    expect((await sb.get(paths.batches, { token: access_token })).status).toBe(401);
    expect((await sb.patient('GET', paths.patient('PAT-0001'), undefined, { token: access_token })).status).toBe(401);
    expect((await refreshWith(refresh_token)).status).toBe(200);
  });

  test('revoking a refresh token revokes it and its access tokens', async () => {
    const { access_token, refresh_token } = await sb.signIn();
    const second = ((await refreshWith(refresh_token)).json as J).access_token;
    expect((await revoke({ token: refresh_token, token_type_hint: 'refresh_token' })).status).toBe(200);
    expect(await introspectWith(access_token)).toBe(401);
    expect(await introspectWith(second)).toBe(401);
    expect((await refreshWith(refresh_token)).status).toBe(400);
  });

  test('the hint is optional; a client token can be revoked; an unknown token is 200', async () => {
    const { refresh_token, access_token } = await sb.signIn('bob');
    expect((await revoke({ token: refresh_token })).status).toBe(200);
    expect(await introspectWith(access_token)).toBe(401);
    const clientToken = (
      (
        await sb.request('POST', '/oauth/token', {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=client_credentials&client_id=sandbox-client&client_secret=sandbox-secret',
        })
      ).json as J
    ).access_token;
    expect((await sb.get(paths.batches, { token: clientToken })).status).toBe(200);
    expect((await revoke({ token: clientToken })).status).toBe(200);
    expect((await sb.get(paths.batches, { token: clientToken })).status).toBe(401);
    expect((await revoke({ token: 'never-issued' })).status).toBe(200);
  });

  test("client authentication is required and must be the token's client", async () => {
    const { access_token } = await sb.signIn();
    for (const headers of [
      {},
      { authorization: `Bearer ${access_token}` },
      { authorization: basicAuth('sandbox-client', 'wrong') },
    ] as Record<string, string>[]) {
      const a = await revoke({ token: access_token }, headers);
      expect([a.status, (a.json as J).error]).toEqual([401, 'invalid_client']);
    }
    const mismatch = await revoke({ token: access_token }, { authorization: basicAuth(), clientid: 'sandbox-other' });
    expect(mismatch.status).toBe(401);
    const other = await revoke({ token: access_token }, { authorization: basicAuth('sandbox-other') });
    expect([other.status, (other.json as J).error]).toEqual([400, 'invalid_request']);
    expect((await revoke({})).status).toBe(400);
    expect((await revoke({ token: access_token, token_type_hint: 'id_token' })).status).toBe(400);
    expect(await introspectWith(access_token)).toBe(200);
  });
});

describe('Logout (4.2; DEC-D3-17)', () => {
  test('200, then the token and its session (refresh token, other access tokens) are revoked', async () => {
    const { access_token, refresh_token } = await sb.signIn();
    const second = ((await refreshWith(refresh_token)).json as J).access_token;
    const a = await sb.get(paths.logout, { token: access_token });
    expect([a.status, a.json]).toEqual([200, { status: 'success' }]);
    expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await introspectWith(access_token)).toBe(401);
    expect(await introspectWith(second)).toBe(401);
    expect((await refreshWith(refresh_token)).status).toBe(400);
  });

  test('another session stays signed in; logout without a token is 200', async () => {
    const one = await sb.signIn();
    const two = await sb.signIn();
    expect((await sb.get(paths.logout, { token: one.access_token })).status).toBe(200);
    expect(await introspectWith(two.access_token)).toBe(200);
    expect((await sb.get(paths.logout, { token: null })).status).toBe(200);
  });
});

describe('Token details of an identity-provider sign-in (4.2, 7)', () => {
  const details = (redirectUri: string | undefined, authorization: string | null = basicAuth(), idp = 'nhs') =>
    sb.request(
      'GET',
      withQuery(paths.tokenDetails(idp), redirectUri === undefined ? {} : { redirect_uri: redirectUri }),
      { headers: authorization === null ? {} : { authorization } },
    );

  test('a linked user: status success with tokens that work', async () => {
    const a = await details('https://app.example/callback');
    expect(a.status).toBe(200);
    const b: J = a.json;
    expect(b).toEqual({
      status: 'success',
      data: {
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        expires_in: 3600,
        token_type: 'Bearer',
      },
    });
    expect(await introspectWith(b.data.access_token)).toBe(200);
  });

  test.each([
    ['no Authorization', 'https://app.example/callback', null, 401, 'No authorization header provided'],
    [
      'a Bearer token instead of Basic',
      'https://app.example/callback',
      'Bearer abc',
      401,
      'No authorization header provided',
    ],
    [
      'wrong client secret',
      'https://app.example/callback',
      basicAuth('sandbox-client', 'nope'),
      401,
      'Invalid client credentials',
    ],
    ['no redirect_uri', undefined, basicAuth(), 400, 'redirect_uri is required'],
    ['an unregistered redirect_uri', 'https://evil.example/cb', basicAuth(), 400, 'redirect_uri is not registered'],
    [
      'a client without that redirect_uri',
      'https://app.example/callback',
      basicAuth('sandbox-other'),
      400,
      'redirect_uri is not registered',
    ],
    [
      'no identity-provider sign-in',
      'https://app.example/not-signed-in',
      basicAuth(),
      400,
      'User not logged in with NHS account',
    ],
    ['an identity not linked', 'https://app.example/unlinked', basicAuth(), 404, 'NHS user not found'],
  ] as [string, string | undefined, string | null, number, string][])(
    '%s',
    async (_label, uri, auth, status, message) => {
      const a = await details(uri, auth);
      expect([a.status, a.json]).toEqual([status, { status: 'fail', message, code: status }]);
      expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
    },
  );

  test('another identity provider has no registered redirect_uri', async () => {
    const a = await details('https://app.example/callback', basicAuth(), 'google');
    expect([a.status, a.json]).toEqual([400, { status: 'fail', message: 'redirect_uri is not registered', code: 400 }]);
  });
});
