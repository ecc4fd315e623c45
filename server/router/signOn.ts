/**
 * Sign-on operations (Document 3, 4.2, 5, 7; DEC-D3-06, -17): logout, token revocation and the
 * token details of an identity-provider sign-in.
 * - Logout: the bearer token (if any) and its sign-in session are revoked; 200 `{status: 'success'}`.
 * - Revoke (RFC 7009 style): `Authorization: Basic` of the client; `ClientId` / `secret`, when
 *   sent, must name the same client. An access token is revoked alone; a refresh token with its
 *   session (every access token issued under it). An unknown token is 200 as well. OAuth error
 *   bodies (`{error, error_description}`) for a missing form, token or client authentication.
 * - Token details: Basic client authentication (a Bearer header counts as none), then the
 *   registered redirect URI decides the outcome; errors are `{status: 'fail', message, code}`.
 */
import { FORM_MEDIA_TYPE, mediaType } from './auth.ts';
import { MessageError } from './errors.ts';
import { basicCredentials, clientWithSecret, TOKEN_LIFETIME_SECONDS } from './token.ts';
import { ok, type SandboxContext, type SandboxReply, type SandboxRequest } from './types.ts';

const oauthError = (
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): SandboxReply => ({
  status,
  body: { error, error_description: description },
  headers: { 'cache-control': 'no-store', ...headers },
});

const bearerOf = (req: SandboxRequest) => /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];

export async function logout(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const token = bearerOf(req);
  const grant = token === undefined ? undefined : await ctx.repo.accessGrant(token);
  if (grant) {
    await ctx.repo.revokeAccessToken(grant.token);
    if (grant.sessionId !== undefined) await ctx.repo.revokeSession(grant.sessionId);
  }
  return ok({ status: 'success' });
}

export async function revokeToken(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const basic = basicCredentials(req.headers.authorization);
  const client = basic && (await clientWithSecret(ctx, basic.id, basic.secret));
  if (!client)
    return oauthError(401, 'invalid_client', 'Expected Authorization: Basic with the client id and secret', {
      'www-authenticate': 'Basic',
    });
  const headerId = req.headers.clientid;
  const headerSecret = req.headers.secret;
  if (
    (headerId !== undefined && headerId !== client.clientId) ||
    (headerSecret !== undefined && headerSecret !== client.clientSecret)
  ) {
    return oauthError(
      401,
      'invalid_client',
      'Headers ClientId and secret must name the client of the Basic credentials',
    );
  }
  if (mediaType(req.headers['content-type']) !== FORM_MEDIA_TYPE || !req.form)
    return oauthError(400, 'invalid_request', `Expected Content-Type ${FORM_MEDIA_TYPE}`);
  const token = (req.form.get('token') ?? '').trim();
  if (token === '') return oauthError(400, 'invalid_request', 'token is required');
  const hint = req.form.get('token_type_hint');
  if (hint !== null && hint !== 'access_token' && hint !== 'refresh_token')
    return oauthError(
      400,
      'unsupported_token_type',
      `Expected token_type_hint access_token or refresh_token, received ${hint}`,
    );

  const access = await ctx.repo.accessGrant(token);
  const refresh = await ctx.repo.refreshGrant(token);
  const owner = access?.clientId ?? refresh?.clientId;
  if (owner !== undefined && owner !== client.clientId)
    return oauthError(400, 'invalid_request', `The token was not issued to client ${client.clientId}`);
  if (refresh && (hint === 'refresh_token' || !access)) {
    const sessionId = await ctx.repo.revokeRefreshToken(token);
    if (sessionId !== undefined) await ctx.repo.revokeSession(sessionId);
  } else if (access) {
    await ctx.repo.revokeAccessToken(token);
  }
  return { ...ok({ status: 'success' }), headers: { 'cache-control': 'no-store' } };
}

const detailsError = (status: number, message: string): never => {
  throw new MessageError(status, message, 'token-details');
};

export async function getIdpTokenDetails(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const basic = basicCredentials(req.headers.authorization);
  if (!basic) return detailsError(401, 'No authorization header provided');
  const client = await clientWithSecret(ctx, basic.id, basic.secret);
  if (!client) return detailsError(401, 'Invalid client credentials');
  const redirectUri = (req.query.get('redirect_uri') ?? '').trim();
  if (redirectUri === '') return detailsError(400, 'redirect_uri is required');
  const idp = req.params.idp ?? '';
  const signIn = (await ctx.repo.idpSignIns()).find(
    (s) => s.clientId === client.clientId && s.idp === idp && s.redirectUri === redirectUri,
  );
  if (!signIn) return detailsError(400, 'redirect_uri is not registered');
  if (signIn.outcome === 'not-signed-in') return detailsError(400, 'User not logged in with NHS account');
  if (signIn.outcome === 'unlinked' || signIn.userId === undefined) return detailsError(404, 'NHS user not found');
  const tokens = await ctx.repo.issueUserTokens(client.clientId, signIn.userId);
  return ok({
    status: 'success',
    data: {
      access_token: tokens.accessToken,
      refresh_token: tokens.refreshToken,
      expires_in: TOKEN_LIFETIME_SECONDS,
      token_type: 'Bearer',
    },
  });
}
