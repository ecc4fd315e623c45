import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestSandbox } from '../testSupport.ts';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await TestSandbox.start();
});
afterAll(() => sb.close());

const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

describe('POST /oauth/token (DEC-D1-10)', () => {
  test('client credentials give a bearer token', async () => {
    const a = await sb.request(
      'POST',
      '/oauth/token',
      form({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' }),
    );
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toMatch(/^application\/json/);
    expect(a.json).toEqual({
      access_token: expect.stringMatching(/^\S{20,}$/),
      token_type: 'Bearer',
      expires_in: 3600,
    });
  });

  test('each grant issues a new opaque token, and every token works', async () => {
    const grant = () =>
      sb.request(
        'POST',
        '/oauth/token',
        form({ grant_type: 'client_credentials', client_id: 'sandbox-basic', client_secret: 'sandbox-basic-secret' }),
      );
    const t1 = ((await grant()).json as { access_token: string }).access_token;
    const t2 = ((await grant()).json as { access_token: string }).access_token;
    expect(t1).not.toBe(t2);
    for (const token of [t1, t2]) expect((await sb.get('/claims/claimresponse/$batch', { token })).status).toBe(200);
  });

  test('HTTP Basic client authentication is accepted', async () => {
    const basic = Buffer.from('sandbox-other:sandbox-other-secret').toString('base64');
    const a = await sb.request('POST', '/oauth/token', {
      headers: { ...form({}).headers, authorization: `Basic ${basic}` },
      body: 'grant_type=client_credentials',
    });
    expect(a.status).toBe(200);
  });

  test('a wrong secret or unknown client is 401 invalid_client', async () => {
    for (const fields of [
      { grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'nope' },
      { grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'sandbox-secret' },
      { grant_type: 'client_credentials' },
    ] as Record<string, string>[]) {
      const a = await sb.request('POST', '/oauth/token', form(fields));
      expect(a.status).toBe(401);
      expect(a.json).toMatchObject({ error: 'invalid_client' });
    }
  });

  test('another grant type or a missing one is 400', async () => {
    const wrong = await sb.request(
      'POST',
      '/oauth/token',
      form({ grant_type: 'authorization_code', client_id: 'sandbox-client', client_secret: 'sandbox-secret' }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ error: 'unsupported_grant_type' });
    const missing = await sb.request(
      'POST',
      '/oauth/token',
      form({ client_id: 'sandbox-client', client_secret: 'sandbox-secret' }),
    );
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ error: 'invalid_request' });
  });

  test('a JSON body is 400 invalid_request', async () => {
    const a = await sb.request('POST', '/oauth/token', {
      headers: { 'content-type': 'application/json' },
      body: '{"grant_type":"client_credentials"}',
    });
    expect(a.status).toBe(400);
    expect(a.json).toMatchObject({ error: 'invalid_request' });
  });

  test('password grant (DEC-D3-03): a user token with a refresh token; bad credentials are 400 invalid_grant', async () => {
    const a = await sb.request(
      'POST',
      '/oauth/token',
      form({
        grant_type: 'password',
        username: 'alice',
        password: 'alice-password',
        client_id: 'sandbox-client',
        client_secret: 'sandbox-secret',
      }),
    );
    expect(a.status).toBe(200);
    expect(a.json).toEqual({
      access_token: expect.stringMatching(/^\S{20,}$/),
      refresh_token: expect.stringMatching(/^\S{20,}$/),
      token_type: 'Bearer',
      expires_in: 3600,
    });
    const token = (a.json as { access_token: string }).access_token;
    // A user token works for the accounts and, as its client, for Documents 1 and 2.
    expect((await sb.get('/accounts/api/introspect', { token })).status).toBe(200);
    expect((await sb.get('/claims/claimresponse/$batch', { token })).status).toBe(200);
    for (const fields of [
      { username: 'alice', password: 'wrong' },
      { username: 'nobody', password: 'alice-password' },
      {},
    ] as Record<string, string>[]) {
      const bad = await sb.request(
        'POST',
        '/oauth/token',
        form({ grant_type: 'password', client_id: 'sandbox-client', client_secret: 'sandbox-secret', ...fields }),
      );
      expect([bad.status, (bad.json as { error: string }).error]).toEqual([400, 'invalid_grant']);
    }
    const noClient = await sb.request(
      'POST',
      '/oauth/token',
      form({ grant_type: 'password', username: 'alice', password: 'alice-password' }),
    );
    expect(noClient.status).toBe(401);
  });

  test('refresh_token grant: a new access token in the same session; an unknown refresh token is 400', async () => {
    const signIn = (
      await sb.request(
        'POST',
        '/oauth/token',
        form({
          grant_type: 'password',
          username: 'bob',
          password: 'bob-password',
          client_id: 'sandbox-client',
          client_secret: 'sandbox-secret',
        }),
      )
    ).json as { access_token: string; refresh_token: string };
    const a = await sb.request(
      'POST',
      '/oauth/token',
      form({
        grant_type: 'refresh_token',
        refresh_token: signIn.refresh_token,
        client_id: 'sandbox-client',
        client_secret: 'sandbox-secret',
      }),
    );
    expect(a.status).toBe(200);
    const refreshed = a.json as { access_token: string; refresh_token: string };
    expect(refreshed.access_token).not.toBe(signIn.access_token);
    expect(refreshed.refresh_token).toBe(signIn.refresh_token);
    for (const token of [signIn.access_token, refreshed.access_token])
      expect((await sb.get('/accounts/api/restricted/site/v1/authorised', { token })).status).toBe(200);
    const unknown = await sb.request(
      'POST',
      '/oauth/token',
      form({
        grant_type: 'refresh_token',
        refresh_token: 'nope',
        client_id: 'sandbox-client',
        client_secret: 'sandbox-secret',
      }),
    );
    expect([unknown.status, (unknown.json as { error: string }).error]).toEqual([400, 'invalid_grant']);
    const otherClient = await sb.request(
      'POST',
      '/oauth/token',
      form({
        grant_type: 'refresh_token',
        refresh_token: signIn.refresh_token,
        client_id: 'sandbox-other',
        client_secret: 'sandbox-other-secret',
      }),
    );
    expect(otherClient.status).toBe(400);
  });
});
