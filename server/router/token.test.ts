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
    const a = await sb.request('POST', '/oauth/token', form({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' }));
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toMatch(/^application\/json/);
    expect(a.json).toEqual({ access_token: expect.stringMatching(/^\S{20,}$/), token_type: 'Bearer', expires_in: 3600 });
  });

  test('each grant issues a new opaque token, and every token works', async () => {
    const grant = () => sb.request('POST', '/oauth/token', form({ grant_type: 'client_credentials', client_id: 'sandbox-basic', client_secret: 'sandbox-basic-secret' }));
    const t1 = ((await grant()).json as { access_token: string }).access_token;
    const t2 = ((await grant()).json as { access_token: string }).access_token;
    expect(t1).not.toBe(t2);
    for (const token of [t1, t2]) expect((await sb.get('/claims/claimresponse/$batch', { token })).status).toBe(200);
  });

  test('HTTP Basic client authentication is accepted', async () => {
    const basic = Buffer.from('sandbox-other:sandbox-other-secret').toString('base64');
    const a = await sb.request('POST', '/oauth/token', { headers: { ...form({}).headers, authorization: `Basic ${basic}` }, body: 'grant_type=client_credentials' });
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
    const wrong = await sb.request('POST', '/oauth/token', form({ grant_type: 'password', client_id: 'sandbox-client', client_secret: 'sandbox-secret' }));
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ error: 'unsupported_grant_type' });
    const missing = await sb.request('POST', '/oauth/token', form({ client_id: 'sandbox-client', client_secret: 'sandbox-secret' }));
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ error: 'invalid_request' });
  });

  test('a JSON body is 400 invalid_request', async () => {
    const a = await sb.request('POST', '/oauth/token', { headers: { 'content-type': 'application/json' }, body: '{"grant_type":"client_credentials"}' });
    expect(a.status).toBe(400);
    expect(a.json).toMatchObject({ error: 'invalid_request' });
  });
});
