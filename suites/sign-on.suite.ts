/**
 * Sign-on (Document 3, 4.2, 5, 7): logout and revoke judged by their effect on tokens obtained for
 * the purpose (never the run's own), and every error of the token-details table.
 */
import { test } from 'vitest';
import { notServerError, requestRefused, successStatus, tokenDetailsAnswer, tokenDetailsErrorAnswer } from '../checks/index.ts';
import type { Exchange } from '../core/exchange.ts';
import { basicFor, call, describeOperation, freshTokens, record, runContext, verify } from '../core/suite.ts';
import { CREDENTIAL_CHECK, DESTRUCTIVE_CHECK, verifySuccess } from './common/steps.ts';


/** A bearer request that a revoked or logged-out token must no longer pass (introspect, DEC-D3-06). */
async function useToken(token: string): Promise<Exchange | undefined> {
  if (!runContext().addresses.introspect) return undefined;
  return call('introspect', { values: { token }, omitHeaders: ['SU-SiteId'] });
}

async function consumable(id: string, requirements: string[]): Promise<{ access: string; refresh?: string } | undefined> {
  if (!runContext().allowDestructive) {
    record(DESTRUCTIVE_CHECK, 'omit', 'This step revokes tokens; run with --allow-destructive to include it', { operation: id, level: 'MUST', requirements });
    return undefined;
  }
  const tokens = await freshTokens('user');
  if (!tokens) record(CREDENTIAL_CHECK, 'skip', 'No credential "user" in the config', { operation: id, level: 'MUST', requirements, decisions: ['DEC-D3-03'] });
  return tokens;
}

function verifyRefusedAfter(id: string, x: Exchange | undefined, requirements: string[], what: string): void {
  if (!x) {
    record(CREDENTIAL_CHECK, 'skip', 'introspect has no address in this run: the effect cannot be observed', { operation: id, level: 'MUST', requirements });
    return;
  }
  verify(x, requestRefused, { operation: id, level: 'MUST', requirements, decisions: ['DEC-D3-06'], evidence: { after: what } });
}

describeOperation('logout', () => {
  test('logout answers 200 and its token is refused afterwards', async () => {
    const t = await consumable('logout', ['D3-4.2-01']);
    if (!t) return;
    const x = await call('logout', { headers: { Authorization: `Bearer ${t.access}` } });
    verify(x, successStatus(200), { operation: 'logout', level: 'MUST', requirements: ['D3-4.2-01', 'D3-1-02'], decisions: ['DEC-D3-17'] });
    verifyRefusedAfter('logout', await useToken(t.access), ['D3-4.2-02'], 'logout');
  });
});

describeOperation('revoke-token', () => {
  const id = 'revoke-token';
  const revoke = (token: string, hint: string) => call(id, { form: { token, token_type_hint: hint } });

  test('revoking an access token makes it fail afterwards', async () => {
    const t = await consumable(id, ['D3-4.2-08']);
    if (!t) return;
    verify(await revoke(t.access, 'access_token'), successStatus(200), { operation: id, level: 'MUST', requirements: ['D3-4.2-07'] });
    verifyRefusedAfter(id, await useToken(t.access), ['D3-4.2-08'], 'revoking the access token');
  });

  test('revoking a refresh token also revokes its access token', async () => {
    const t = await consumable(id, ['D3-4.2-10']);
    if (!t) return;
    if (!t.refresh) return record(CREDENTIAL_CHECK, 'skip', 'The token endpoint issued no refresh token', { operation: id, level: 'MUST', requirements: ['D3-4.2-10'] });
    verify(await revoke(t.refresh, 'refresh_token'), successStatus(200), { operation: id, level: 'MUST', requirements: ['D3-4.2-07'] });
    verifyRefusedAfter(id, await useToken(t.access), ['D3-4.2-10'], 'revoking the refresh token');
  });

  test('revoking an access token without token_type_hint makes it fail afterwards', async () => {
    const t = await consumable(id, ['D3-4.2-11']);
    if (!t) return;
    verify(await call(id, { form: { token: t.access } }), successStatus(200), { operation: id, level: 'MUST', requirements: ['D3-4.2-11'], decisions: ['DEC-D3-47'] });
    verifyRefusedAfter(id, await useToken(t.access), ['D3-4.2-11'], 'revoking the access token without a hint');
  });

  test('odd revoke requests are not server errors', async () => {
    const t = await consumable(id, ['D3-4.2-13']);
    if (!t) return;
    for (const [label, options] of [
      ['without token', { form: { token_type_hint: 'access_token' } }],
      ['an unknown token', { form: { token: 'not-a-known-token-0000', token_type_hint: 'access_token' } }],
      ['a hint that does not match the token', { form: { token: t.access, token_type_hint: 'refresh_token' } }],
      ['without ClientId/secret', { form: { token: t.access }, omitHeaders: ['Authorization'] }],
    ] as const) {
      verify(await call(id, options), notServerError, { operation: id, level: 'MUST', requirements: ['D3-4.2-13'], decisions: ['DEC-D3-47'], evidence: { request: label } });
    }
  });

  test('revoke needs Basic authentication', async () => {
    verify(await call(id, { form: { token: 'any-token-value' }, omitHeaders: ['Authorization'] }), requestRefused, { operation: id, level: 'MUST', requirements: ['D3-5-04'] });
  });
});

describeOperation('get-idp-token-details', () => {
  const id = 'get-idp-token-details';
  const td = () => runContext().fixtures.tokenDetails ?? {};
  const ask = (redirect: string | undefined, headers?: Record<string, string>, omit?: string[]) =>
    call(id, { path: { idp: td().idp ?? 'nhs' }, query: { redirect_uri: redirect }, headers, omitHeaders: omit });
  const error = (x: Exchange, status: number, message: string, requirements: string[]) =>
    verify(x, tokenDetailsErrorAnswer({ status, message }), { operation: id, level: 'MUST', requirements: [...requirements, 'D3-7-15'], decisions: ['DEC-D3-49'] });

  test('a linked identity-provider sign-in gives its tokens', async () => {
    const uri = td().redirectUri;
    if (!uri || !basicFor('client')) return record(CREDENTIAL_CHECK, 'skip', 'No fixture tokenDetails.redirectUri or Basic credential "client"', { operation: id, level: 'MUST', requirements: ['D3-4.2-15'] });
    const x = await ask(uri);
    if (verifySuccess(x, id, { success: ['D3-4.2-15', 'D3-1-02'], schema: ['D3-4.2-15'] }, { status: 200 })) verify(x, tokenDetailsAnswer, { operation: id, level: 'MUST', requirements: ['D3-4.2-15', 'D3-4.2-16'], decisions: ['DEC-D3-48'] });
  });

  test('each error of the token-details table', async () => {
    const { redirectUri, notSignedInRedirectUri, unlinkedRedirectUri } = td();
    error(await ask(undefined), 400, 'redirect_uri is required', ['D3-7-16']);
    error(await ask(redirectUri ?? 'https://x.example/cb', undefined, ['Authorization']), 401, 'No authorization header provided', ['D3-7-17']);
    error(await ask(redirectUri ?? 'https://x.example/cb', { Authorization: `Basic ${Buffer.from('sandbox-client:wrong-secret').toString('base64')}` }), 401, 'Invalid client credentials', ['D3-7-18']);
    if (notSignedInRedirectUri) error(await ask(notSignedInRedirectUri), 400, 'User not logged in with NHS account', ['D3-7-19']);
    if (unlinkedRedirectUri) error(await ask(unlinkedRedirectUri), 404, 'NHS user not found', ['D3-7-20']);
    verify(await ask(redirectUri ?? 'https://x.example/cb', { Authorization: `Bearer ${runContext().token}` }), requestRefused, { operation: id, level: 'MUST', requirements: ['D3-5-06'] });
    for (const uri of ['https://unregistered.example/callback', 'not a url']) {
      verify(await ask(uri), notServerError, { operation: id, level: 'MUST', requirements: ['D3-4.2-18'], decisions: ['DEC-D3-48'], evidence: { redirectUri: uri } });
    }
  });
});
