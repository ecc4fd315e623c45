/**
 * Sign-on (Document 3, 4.2, 5, 7): logout and revoke judged by their effect on tokens obtained for
 * the purpose (never the run's own), and every error of the token-details table.
 */
import type { OperationId } from '../spec/operations.ts';
import { on } from '../core/suite.ts';
import { CREDENTIAL_CONFIGURED, EFFECT_OBSERVABLE } from '../core/decidedOutcomes.ts';
import { test } from 'vitest';
import {
  notServerError,
  refreshTokenRefused,
  requestRefused,
  successStatus,
  tokenDetailsAnswer,
  tokenDetailsErrorAnswer,
} from '../checks/index.ts';
import type { Exchange } from '../core/exchange.ts';
import { worker } from '../core/worker.ts';
import { basicFor, call, describeOperation, freshTokens, runContext } from '../core/suite.ts';
import { omitUnlessDestructive } from './common/destructive.ts';
import { verifySuccess } from './common/steps.ts';
import { describeDerivedRequests, fixturesFrom } from './common/derivedRequests.ts';

/** A step that needs the Basic credential "client" is skipped, never sent without it (DEC-D3-06, DEC-D3-48). */
function basicConfigured(id: OperationId, requirements: string[]): boolean {
  if (basicFor('client')) return true;
  on(id)
    .must(...requirements)
    .decided(
      CREDENTIAL_CONFIGURED,
      'skip',
      'No Basic credential "client" in the config (basic.client): the step needs it and is not sent without it',
    );
  return false;
}

/**
 * The refresh grant (`grant_type=refresh_token`) of the configured user credential, sent to its
 * token endpoint with its client id and secret; undefined when the credential is not an OAuth
 * grant (a ready token has no token endpoint to refresh at).
 */
async function refreshGrant(refreshToken: string, id: OperationId = 'revoke-token'): Promise<Exchange | undefined> {
  const user = runContext().credentials.user;
  if (!user || user.type === 'bearer') return undefined;
  const form = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: user.clientId,
    client_secret: user.clientSecret,
  });
  // The worker's client: the run's pacing and load-retry budget hold for this call too.
  return worker().client.send(
    {
      method: 'POST',
      url: user.tokenUrl,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
    },
    id,
  );
}

/** A bearer request that a revoked or logged-out token must no longer pass (introspect, DEC-D3-06). */
async function useToken(token: string): Promise<Exchange | undefined> {
  if (!runContext().addresses.introspect) return undefined;
  return call('introspect', { values: { token }, omitHeaders: ['SU-SiteId'] });
}

async function consumable(
  id: OperationId,
  requirements: string[],
  what: string,
): Promise<{ access: string; refresh?: string } | undefined> {
  if (omitUnlessDestructive([id], what, { [id]: requirements })) return undefined;
  if (id === 'revoke-token' && !basicConfigured(id, requirements)) return undefined;
  const tokens = await freshTokens('user');
  if (!tokens)
    on(id)
      .must(...requirements)
      .under('DEC-D3-03')
      .decided(CREDENTIAL_CONFIGURED, 'skip', 'No credential "user" in the config');
  return tokens;
}

function verifyRefusedAfter(id: OperationId, x: Exchange | undefined, requirements: string[], what: string): void {
  if (!x) {
    on(id)
      .must(...requirements)
      .decided(EFFECT_OBSERVABLE, 'skip', 'introspect has no address in this run: the effect cannot be observed');
    return;
  }
  on(id)
    .must(...requirements)
    .under('DEC-D3-06')
    .check(x, requestRefused, { after: what });
}

describeOperation('logout', () => {
  test('logout answers 200, its token is refused afterwards and its session gives no new tokens', async () => {
    const t = await consumable(
      'logout',
      ['D3-4.2-01', 'D3-4.2-02', 'D3-4.2-03'],
      'would sign a user in for the purpose and log that session out',
    );
    if (!t) return;
    const x = await call('logout', { headers: { Authorization: `Bearer ${t.access}` } });
    on('logout').must('D3-4.2-01', 'D3-1-02').under('DEC-D3-17').check(x, successStatus(200));
    verifyRefusedAfter('logout', await useToken(t.access), ['D3-4.2-02'], 'logout');
    // "removes tokens and session so the user must log in again": the session's refresh token, which
    // would sign the user in again without a login, no longer gives tokens.
    if (!t.refresh)
      return on('logout')
        .must('D3-4.2-03')
        .decided(EFFECT_OBSERVABLE, 'skip', 'The token endpoint issued no refresh token');
    const refreshed = await refreshGrant(t.refresh, 'logout');
    if (!refreshed)
      return on('logout')
        .must('D3-4.2-03')
        .decided(
          CREDENTIAL_CONFIGURED,
          'skip',
          'The credential "user" is a ready token: no refresh grant is configured to try the logged-out session with',
        );
    on('logout').must('D3-4.2-03').under('DEC-D3-17').check(refreshed, refreshTokenRefused, { after: 'logout' });
  });
});

describeOperation('revoke-token', () => {
  const id = 'revoke-token';
  const revoke = (token: string, hint: string) => call(id, { form: { token, token_type_hint: hint } });

  test('revoking an access token makes it fail afterwards', async () => {
    const t = await consumable(
      id,
      ['D3-4.2-07', 'D3-4.2-08'],
      'would sign a user in for the purpose and revoke its access token',
    );
    if (!t) return;
    on(id)
      .must('D3-4.2-07')
      .check(await revoke(t.access, 'access_token'), successStatus(200));
    verifyRefusedAfter(id, await useToken(t.access), ['D3-4.2-08'], 'revoking the access token');
  });

  test('revoking a refresh token also revokes its access token, and it can no longer be refreshed', async () => {
    const t = await consumable(
      id,
      ['D3-4.2-09', 'D3-4.2-10'],
      'would sign a user in for the purpose and revoke its refresh token',
    );
    if (!t) return;
    if (!t.refresh)
      return on(id)
        .must('D3-4.2-09', 'D3-4.2-10')
        .decided(EFFECT_OBSERVABLE, 'skip', 'The token endpoint issued no refresh token');
    on(id)
      .must('D3-4.2-07')
      .check(await revoke(t.refresh, 'refresh_token'), successStatus(200));
    verifyRefusedAfter(id, await useToken(t.access), ['D3-4.2-10'], 'revoking the refresh token');
    const refreshed = await refreshGrant(t.refresh);
    if (!refreshed)
      return on(id)
        .must('D3-4.2-09')
        .decided(
          CREDENTIAL_CONFIGURED,
          'skip',
          'The credential "user" is a ready token: no refresh grant is configured ' +
            'to try the revoked refresh token with',
        );
    on(id)
      .must('D3-4.2-09')
      .under('DEC-D3-06')
      .check(refreshed, refreshTokenRefused, { after: 'revoking the refresh token' });
  });

  test('revoking an access token without token_type_hint makes it fail afterwards', async () => {
    const t = await consumable(
      id,
      ['D3-4.2-11'],
      'would sign a user in for the purpose and revoke its access token without a hint',
    );
    if (!t) return;
    on(id)
      .must('D3-4.2-11')
      .under('DEC-D3-47')
      .check(await call(id, { form: { token: t.access } }), successStatus(200));
    verifyRefusedAfter(id, await useToken(t.access), ['D3-4.2-11'], 'revoking the access token without a hint');
  });

  test('odd revoke requests are not server errors', async () => {
    const t = await consumable(
      id,
      ['D3-4.2-13'],
      'would sign a user in for the purpose and send odd revoke requests with its token',
    );
    if (!t) return;
    for (const [label, options] of [
      ['without token', { form: { token_type_hint: 'access_token' } }],
      ['an unknown token', { form: { token: 'not-a-known-token-0000', token_type_hint: 'access_token' } }],
      ['a hint that does not match the token', { form: { token: t.access, token_type_hint: 'refresh_token' } }],
      ['without ClientId/secret', { form: { token: t.access }, omitHeaders: ['Authorization'] }],
    ] as const) {
      on(id)
        .must('D3-4.2-13')
        .under('DEC-D3-47')
        .check(await call(id, options), notServerError, { request: label });
    }
  });

  test('revoke needs Basic authentication', async () => {
    on(id)
      .must('D3-5-04')
      .check(await call(id, { form: { token: 'any-token-value' }, omitHeaders: ['Authorization'] }), requestRefused);
  });

  test('revoke refuses wrong Basic credentials', async () => {
    const t = await consumable(id, ['D3-5-04'], 'would sign a user in for the purpose and send its token to revoke');
    if (!t) return;
    // The configured client's id with a wrong secret: the token must stay live, the request refused.
    const clientId = Buffer.from(basicFor('client') as string, 'base64')
      .toString('utf8')
      .split(':')[0];
    const wrong = `Basic ${Buffer.from(`${clientId}:wrong-secret-0000`).toString('base64')}`;
    on(id)
      .must('D3-5-04')
      .under('DEC-D3-39')
      .check(await call(id, { form: { token: t.access }, headers: { Authorization: wrong } }), requestRefused, {
        request: 'the client id with a wrong secret',
      });
  });
});

describeOperation('get-idp-token-details', (op) => {
  const id = 'get-idp-token-details';
  const td = () => runContext().fixtures.tokenDetails ?? {};
  const ask = (redirect: string | undefined, headers?: Record<string, string>, omit?: string[]) =>
    call(id, { path: { idp: td().idp ?? 'nhs' }, query: { redirect_uri: redirect }, headers, omitHeaders: omit });
  const error = (x: Exchange, status: number, message: string, requirements: string[]) =>
    on(id)
      .must(...requirements, 'D3-7-15')
      .under('DEC-D3-49')
      .check(x, tokenDetailsErrorAnswer({ status, message }));

  // The fixtures each step needs are declared on its test (core/suite.ts): absent, a skip citing its rows.
  const linked = { fixtures: ['tokenDetails.redirectUri'], cites: ['D3-4.2-15'] } as const;
  op.test('a linked identity-provider sign-in gives its tokens', linked, async ([uri]) => {
    if (!basicConfigured(id, ['D3-4.2-15', 'D3-4.2-16'])) return;
    const x = await ask(uri);
    if (verifySuccess(x, id, { success: ['D3-4.2-15', 'D3-1-02'], schema: ['D3-4.2-15'] }, { status: 200 }))
      on(id).must('D3-4.2-15', 'D3-4.2-16').under('DEC-D3-48').check(x, tokenDetailsAnswer);
  });

  test('each error of the token-details table', async () => {
    // optional fixture: these answers are about the client's credentials, whatever redirect URI is sent.
    const { redirectUri } = td();
    // Without credentials, and with wrong ones: no Basic credential of the config is needed.
    error(
      await ask(redirectUri ?? 'https://x.example/cb', undefined, ['Authorization']),
      401,
      'No authorization header provided',
      ['D3-7-17'],
    );
    const wrongId = basicFor('client')
      ? Buffer.from(basicFor('client') as string, 'base64')
          .toString('utf8')
          .split(':')[0]
      : 'conformance-no-such-client';
    error(
      await ask(redirectUri ?? 'https://x.example/cb', {
        Authorization: `Basic ${Buffer.from(`${wrongId}:wrong-secret-0000`).toString('base64')}`,
      }),
      401,
      'Invalid client credentials',
      ['D3-7-18'],
    );
    on(id)
      .must('D3-5-06')
      .check(
        await ask(redirectUri ?? 'https://x.example/cb', { Authorization: `Bearer ${runContext().token}` }),
        requestRefused,
      );
    // The other cases are about the request past client authentication: they need the client's Basic credential
    // (the documents do not say which check comes first, so a request without it would judge the wrong one).
    if (!basicConfigured(id, ['D3-7-16', 'D3-4.2-18'])) return;
    error(await ask(undefined), 400, 'redirect_uri is required', ['D3-7-16']);
    for (const uri of ['https://unregistered.example/callback', 'not a url']) {
      on(id)
        .must('D3-4.2-18')
        .under('DEC-D3-48')
        .check(await ask(uri), notServerError, { redirectUri: uri });
    }
  });

  const notSignedIn = { fixtures: ['tokenDetails.notSignedInRedirectUri'], cites: ['D3-7-19'] } as const;
  op.test('a sign-in without the NHS account is refused', notSignedIn, async ([uri]) => {
    if (!basicConfigured(id, ['D3-7-19'])) return;
    error(await ask(uri), 400, 'User not logged in with NHS account', ['D3-7-19']);
  });

  const unlinked = { fixtures: ['tokenDetails.unlinkedRedirectUri'], cites: ['D3-7-20'] } as const;
  op.test('a sign-in of an NHS user not linked is 404', unlinked, async ([uri]) => {
    if (!basicConfigured(id, ['D3-7-20'])) return;
    error(await ask(uri), 404, 'NHS user not found', ['D3-7-20']);
  });
});

describeDerivedRequests({
  'revoke-token': {},
  'get-idp-token-details': {
    fixtures: fixturesFrom({
      idp: runContext().fixtures.tokenDetails?.idp,
      redirect_uri: runContext().fixtures.tokenDetails?.redirectUri,
    }),
  },
});
