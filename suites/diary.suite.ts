/**
 * Diary (Document 3, 2.3, 4.3, 7): post-auth outcomes 1/2/3, refresh, the three lists, and 401
 * with no body when unauthorised.
 */
import { randomUUID } from 'node:crypto';
import { test } from 'vitest';
import {
  diaryListShape,
  diaryResponseCode,
  emptyBody,
  matchesSchema,
  membersPresent,
  noDiaryTokenIssued,
  notServerError,
  statusIs,
  successStatus,
} from '../checks/index.ts';
import type { Exchange } from '../core/exchange.ts';
import { bodyOf, isRecord } from '../core/exchange.ts';
import { call, describeOperation, record, runContext, verify } from '../core/suite.ts';
import { FIXTURE_CHECK, verifySuccess } from './common/steps.ts';

const POST_AUTH = 'diary-post-auth';

/** A multipart/form-data body (4.3: post authorisation takes `Code` and `StateToken`). */
function multipart(fields: Record<string, string>): { body: string; contentType: string } {
  const boundary = `conformance-${randomUUID()}`;
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  return { body: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function postAuth(code: string, withState = true) {
  const m = multipart({ Code: code, ...(withState ? { StateToken: 'conformance-state' } : {}) });
  return call(POST_AUTH, { body: m.body, headers: { 'Content-Type': m.contentType } });
}

/** A refresh whose answer must not be response 2 with an access token (DEC-D3-51). */
function verifyNoTokenIssued(x: Exchange, what: string): void {
  verify(x, noDiaryTokenIssued, {
    operation: 'diary-refresh-token',
    level: 'MUST',
    requirements: ['D3-4.3-11'],
    decisions: ['DEC-D3-51'],
    evidence: { request: what },
  });
  verify(x, notServerError, {
    operation: 'diary-refresh-token',
    level: 'MUST',
    requirements: ['D3-4.3-11'],
    decisions: ['DEC-D3-51'],
    evidence: { request: what },
  });
}

/** A diary token from the configured valid code, or undefined (recorded as skip). */
async function diaryToken(operation: string): Promise<string | undefined> {
  const code = runContext().fixtures.diary?.validCode;
  const x = code ? await postAuth(code) : undefined;
  const body = x ? bodyOf(x) : undefined;
  const token = isRecord(body) && typeof body.access_token === 'string' ? body.access_token : undefined;
  if (!token)
    record(FIXTURE_CHECK, 'skip', 'No diary token: fixture diary.validCode missing or refused', {
      operation,
      level: 'MUST',
      requirements: ['D3-4.3-01'],
    });
  return token;
}

describeOperation(POST_AUTH, () => {
  test('each authorisation code gives its documented response code', async () => {
    const d = runContext().fixtures.diary ?? {};
    for (const [code, expected, req] of [
      [d.validCode, 2, 'D3-4.3-02'],
      [d.invalidCode, 1, 'D3-4.3-03'],
      [d.unmappedSiteCode, 3, 'D3-4.3-04'],
    ] as const) {
      if (!code) {
        record(FIXTURE_CHECK, 'skip', `No diary fixture for response ${expected}`, {
          operation: POST_AUTH,
          level: 'MUST',
          requirements: [req],
        });
        continue;
      }
      const x = await postAuth(code);
      // The HTTP status of each outcome is not shown (DEC-D3-10): recorded; the body is judged whatever the status.
      verify(x, successStatus(), {
        operation: POST_AUTH,
        level: 'INFO',
        requirements: ['D3-4.3-05'],
        decisions: ['DEC-D3-10'],
        evidence: { expectedResponse: expected },
      });
      verify(x, matchesSchema('diary-token.schema.json'), {
        operation: POST_AUTH,
        level: 'MUST',
        requirements: [req, 'D3-2.3-01', 'D3-4.3-01'],
        decisions: ['DEC-D3-10'],
      });
      verify(x, diaryResponseCode(expected), {
        operation: POST_AUTH,
        level: 'MUST',
        requirements: expected === 2 ? [req, 'D3-4.3-01', 'D3-1-03'] : [req],
        decisions: ['DEC-D3-10'],
      });
      const stateless = await postAuth(code, false);
      verify(stateless, diaryResponseCode(expected), {
        operation: POST_AUTH,
        level: 'MUST',
        requirements: ['D3-4.3-06'],
        decisions: ['DEC-D3-50'],
        evidence: { request: 'without StateToken' },
      });
    }
  });

  test('a post authorisation without Code is not a server error', async () => {
    const m = multipart({ StateToken: 'conformance-state' });
    const x = await call(POST_AUTH, { body: m.body, headers: { 'Content-Type': m.contentType } });
    verify(x, notServerError, {
      operation: POST_AUTH,
      level: 'MUST',
      requirements: ['D3-4.3-08'],
      decisions: ['DEC-D3-51'],
    });
  });
});

describeOperation('diary-refresh-token', () => {
  test('refreshing a diary token gives a new one', async () => {
    const token = await diaryToken('diary-refresh-token');
    if (!token) return;
    const x = await call('diary-refresh-token', { values: { diaryToken: token } });
    verifySuccess(x, 'diary-refresh-token', { success: ['D3-4.3-09'], schema: ['D3-2.3-01'] });
    verify(x, diaryResponseCode(2), {
      operation: 'diary-refresh-token',
      level: 'MUST',
      requirements: ['D3-4.3-09', 'D3-5-08'],
      decisions: ['DEC-D3-10'],
    });
    const body = bodyOf(x);
    const refreshed = isRecord(body) && typeof body.access_token === 'string' ? body.access_token : undefined;
    if (!refreshed) return;
    for (const list of ['list-episode-types', 'list-appointment-statuses', 'list-recurrence-types']) {
      if (!runContext().addresses[list]) continue;
      const l = await call(list, { values: { diaryToken: refreshed } });
      verify(l, successStatus(200), {
        operation: 'diary-refresh-token',
        level: 'MUST',
        requirements: ['D3-4.3-10'],
        decisions: ['DEC-D3-51'],
        evidence: { list },
      });
    }
  });

  test('a refresh without a token or with an unknown one issues no token', async () => {
    verifyNoTokenIssued(
      await call('diary-refresh-token', { omitHeaders: ['Authorization'] }),
      'a refresh without a token',
    );
    verifyNoTokenIssued(
      await call('diary-refresh-token', { values: { diaryToken: 'not-a-diary-token-0000' } }),
      'a refresh with an unknown token',
    );
  });
});

// Items must carry their id and type or status (MUST); `description` should be there (SHOULD, DEC-D3-29).
for (const [id, keys, req, itemReq, described] of [
  ['list-episode-types', ['id', 'type'], 'D3-4.3-13', 'D3-2.3-05', true],
  ['list-appointment-statuses', ['id', 'status'], 'D3-4.3-14', 'D3-2.3-06', false],
  ['list-recurrence-types', ['id', 'type'], 'D3-4.3-15', 'D3-2.3-07', true],
] as const) {
  describeOperation(id, () => {
    test('the list with a diary token', async () => {
      const token = await diaryToken(id);
      if (!token) return;
      const x = await call(id, { values: { diaryToken: token } });
      if (!verifySuccess(x, id, { success: [req, 'D3-5-08'], schema: ['D3-2.3-02'] }, { status: 200 })) return;
      verify(x, diaryListShape(keys), {
        operation: id,
        level: 'MUST',
        requirements: [req, 'D3-2.3-02', itemReq],
        decisions: ['DEC-D3-11', 'DEC-D3-29'],
      });
      if (described)
        verify(x, membersPresent(['data[].description']), {
          operation: id,
          level: 'SHOULD',
          requirements: ['D3-2.3-08'],
          decisions: ['DEC-D3-29'],
        });
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
