/**
 * Diary (Document 3, 2.3, 4.3, 7): post-auth outcomes 1/2/3, refresh, the three lists, and 401
 * with no body when unauthorised.
 */
import { randomUUID } from 'node:crypto';
import { test } from 'vitest';
import { diaryListShape, diaryResponseCode, emptyBody, statusIs } from '../checks/index.ts';
import { bodyOf, isRecord } from '../core/exchange.ts';
import { call, describeOperation, record, runContext, verify } from '../core/suite.ts';
import { FIXTURE_CHECK, verifySuccess } from './common/steps.ts';

const POST_AUTH = 'diary-post-auth';

/** A multipart/form-data body (4.3: post authorisation takes `Code` and `StateToken`). */
function multipart(fields: Record<string, string>): { body: string; contentType: string } {
  const boundary = `conformance-${randomUUID()}`;
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return { body: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function postAuth(code: string) {
  const m = multipart({ Code: code, StateToken: 'conformance-state' });
  return call(POST_AUTH, { body: m.body, headers: { 'Content-Type': m.contentType } });
}

/** A diary token from the configured valid code, or undefined (recorded as skip). */
async function diaryToken(operation: string): Promise<string | undefined> {
  const code = runContext().fixtures.diary?.validCode;
  const x = code ? await postAuth(code) : undefined;
  const body = x ? bodyOf(x) : undefined;
  const token = isRecord(body) && typeof body.access_token === 'string' ? body.access_token : undefined;
  if (!token) record(FIXTURE_CHECK, 'skip', 'No diary token: fixture diary.validCode missing or refused', { operation, level: 'MUST', requirements: ['D3-4.3-01'] });
  return token;
}

describeOperation(POST_AUTH, () => {
  test('each authorisation code gives its documented response code', async () => {
    const d = runContext().fixtures.diary ?? {};
    for (const [code, expected, req] of [[d.validCode, 2, 'D3-4.3-02'], [d.invalidCode, 1, 'D3-4.3-03'], [d.unmappedSiteCode, 3, 'D3-4.3-04']] as const) {
      if (!code) {
        record(FIXTURE_CHECK, 'skip', `No diary fixture for response ${expected}`, { operation: POST_AUTH, level: 'MUST', requirements: [req] });
        continue;
      }
      const x = await postAuth(code);
      verifySuccess(x, POST_AUTH, { success: [req], schema: ['D3-2.3-01'] }, { decisions: ['DEC-D3-10'] });
      verify(x, diaryResponseCode(expected), { operation: POST_AUTH, level: 'MUST', requirements: [req], decisions: ['DEC-D3-10'] });
    }
  });
});

describeOperation('diary-refresh-token', () => {
  test('refreshing a diary token gives a new one', async () => {
    const token = await diaryToken('diary-refresh-token');
    if (!token) return;
    const x = await call('diary-refresh-token', { values: { diaryToken: token } });
    verifySuccess(x, 'diary-refresh-token', { success: ['D3-4.3-09'], schema: ['D3-2.3-01'] });
    verify(x, diaryResponseCode(2), { operation: 'diary-refresh-token', level: 'MUST', requirements: ['D3-4.3-09'], decisions: ['DEC-D3-10'] });
  });
});

for (const [id, keys, req] of [
  ['list-episode-types', ['id', 'type', 'description'], 'D3-4.3-13'],
  ['list-appointment-statuses', ['id', 'status'], 'D3-4.3-14'],
  ['list-recurrence-types', ['id', 'type', 'description'], 'D3-4.3-15'],
] as const) {
  describeOperation(id, () => {
    test('the list with a diary token', async () => {
      const token = await diaryToken(id);
      if (!token) return;
      const x = await call(id, { values: { diaryToken: token } });
      if (!verifySuccess(x, id, { success: [req], schema: ['D3-2.3-02'] }, { status: 200 })) return;
      verify(x, diaryListShape(keys), { operation: id, level: 'MUST', requirements: [req, 'D3-2.3-02'], decisions: ['DEC-D3-11'] });
    });

    test('unauthorised: 401 with no body', async () => {
      for (const headers of [undefined, { Authorization: 'Bearer not-a-diary-token-0000' }]) {
        const x = await call(id, headers ? { headers } : { omitHeaders: ['Authorization'] });
        verify(x, statusIs(401), { operation: id, level: 'MUST', requirements: ['D3-7-22', 'D3-4.3-16'] });
        verify(x, emptyBody, { operation: id, level: 'MUST', requirements: ['D3-7-22', 'D3-4.3-16'] });
      }
    });
  });
}
