import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestSandbox, paths } from '../testSupport.ts';
import { multipartFields } from './diary.ts';

type J = any;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await TestSandbox.start();
});
afterAll(() => sb.close());

describe('Post authorisation (4.3; DEC-D3-10)', () => {
  test('DIARY-OK: HTTP 200, response 2 with an access token; StateToken comes back unchanged', async () => {
    const a = await sb.multipart(paths.diaryPostAuth, { Code: 'DIARY-OK', StateToken: 'opaque/state=1' });
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(a.json).toEqual({
      access_token: expect.stringMatching(/^\S{20,}$/),
      response: 2,
      StateToken: 'opaque/state=1',
    });
  });

  test.each([
    ['DIARY-BAD', 1],
    ['DIARY-UNMAPPED', 3],
    ['NO-SUCH-CODE', 1],
  ] as const)('%s: HTTP 200, response %i, no access token', async (code, response) => {
    const a = await sb.multipart(paths.diaryPostAuth, { Code: code });
    expect([a.status, a.json]).toEqual([200, { response }]);
  });

  test('without Code the answer is response 1; a form-urlencoded body is read alike', async () => {
    expect((await sb.multipart(paths.diaryPostAuth, { StateToken: 's' })).json).toEqual({
      response: 1,
      StateToken: 's',
    });
    const form = await sb.request('POST', paths.diaryPostAuth, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'Code=DIARY-OK',
    });
    expect((form.json as J).response).toBe(2);
  });

  test('multipartFields reads quoted boundaries and LF-only bodies', () => {
    const body = '--b\nContent-Disposition: form-data; name="Code"\n\nDIARY-OK\n--b--\n';
    expect(multipartFields('multipart/form-data; boundary="b"', body).get('Code')).toBe('DIARY-OK');
    expect(multipartFields('multipart/form-data', body).size).toBe(0);
  });
});

describe('Refresh token (4.3)', () => {
  test('a diary bearer token gives a new token with response 2; both work', async () => {
    const token = await sb.diaryToken();
    const a = await sb.request('POST', paths.diaryRefresh, { headers: { authorization: `Bearer ${token}` } });
    expect([a.status, (a.json as J).response]).toEqual([200, 2]);
    const fresh = (a.json as J).access_token;
    expect(fresh).not.toBe(token);
    for (const t of [token, fresh]) expect((await sb.get(paths.episodeTypes, { token: t })).status).toBe(200);
  });

  test('without a diary token the answer is response 1', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer forged' },
      { authorization: `Bearer ${await sb.userToken()}` },
    ] as Record<string, string>[]) {
      expect((await sb.request('POST', paths.diaryRefresh, { headers })).json).toEqual({ response: 1 });
    }
  });
});

describe('Diary lists (2.3, 4.3; DEC-D3-11)', () => {
  test.each([
    [paths.episodeTypes, ['id', 'type', 'description']],
    [paths.appointmentStatuses, ['id', 'status']],
    [paths.recurrenceTypes, ['id', 'type', 'description']],
  ] as const)('%s: {data[], success, errors null, status 200}', async (path, keys) => {
    const a = await sb.get(path, { token: await sb.diaryToken() });
    expect(a.status).toBe(200);
    const b: J = a.json;
    expect(b).toMatchObject({ success: true, errors: null, status: 200 });
    expect(b.data.length).toBeGreaterThan(2);
    for (const item of b.data) {
      expect(Object.keys(item).sort()).toEqual([...keys].sort());
      expect(Number.isInteger(item.id)).toBe(true);
    }
  });

  test.each([paths.episodeTypes, paths.appointmentStatuses, paths.recurrenceTypes])(
    '%s: 401 with an empty body without a diary token',
    async (path) => {
      for (const token of [null, 'forged', await sb.userToken(), await sb.token()]) {
        const a = await sb.get(path, { token });
        expect([a.status, a.text]).toEqual([401, '']);
        expect(a.headers.get('content-type')).toBeNull();
      }
    },
  );
});
