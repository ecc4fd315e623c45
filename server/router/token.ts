/**
 * The sandbox's OAuth token endpoint (DEC-D1-10, DEC-D3-03): form-encoded, client credentials in
 * the form or in HTTP Basic. Grants: `client_credentials` (a client token), `password` (`username`,
 * `password`: a user token with a refresh token, opening a sign-in session) and `refresh_token`
 * (a new access token in the refresh token's session). Answers use the OAuth error shape, not
 * OperationOutcome.
 */
import type { Client } from '../repo/model.ts';
import { FORM_MEDIA_TYPE, mediaType } from './auth.ts';
import type { SandboxContext, SandboxReply, SandboxRequest } from './types.ts';

export const TOKEN_LIFETIME_SECONDS = 3600;

const oauthError = (status: number, error: string, description: string): SandboxReply => ({
  status,
  body: { error, error_description: description },
  headers: { 'cache-control': 'no-store' },
});

/** Client id and secret of an `Authorization: Basic` header (each part URL-decoded). */
export function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const m = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  }
}

/** The client whose id and secret these are, or undefined. */
export async function clientWithSecret(ctx: SandboxContext, id: string, secret: string): Promise<Client | undefined> {
  const client = await ctx.repo.client(id);
  return client && client.clientSecret === secret ? client : undefined;
}

const tokenReply = (body: Record<string, unknown>): SandboxReply => ({
  status: 200,
  body: { ...body, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS },
  headers: { 'cache-control': 'no-store' },
});

const GRANTS = ['client_credentials', 'password', 'refresh_token'];

export async function issueToken(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  if (mediaType(req.headers['content-type']) !== FORM_MEDIA_TYPE || !req.form) {
    return oauthError(400, 'invalid_request', `Expected Content-Type ${FORM_MEDIA_TYPE}`);
  }
  const form = req.form;
  const grant = form.get('grant_type');
  if (!grant) return oauthError(400, 'invalid_request', 'grant_type is required');
  if (!GRANTS.includes(grant))
    return oauthError(400, 'unsupported_grant_type', `Expected grant_type ${GRANTS.join(', ')}, received ${grant}`);
  const basic = basicCredentials(req.headers.authorization);
  const client = await clientWithSecret(
    ctx,
    basic?.id ?? form.get('client_id') ?? '',
    basic?.secret ?? form.get('client_secret') ?? '',
  );
  if (!client) {
    return {
      ...oauthError(401, 'invalid_client', 'Unknown client or wrong secret'),
      headers: { 'cache-control': 'no-store', 'www-authenticate': 'Basic' },
    };
  }
  if (grant === 'client_credentials') return tokenReply({ access_token: await ctx.repo.issueToken(client.clientId) });
  if (grant === 'password') {
    const username = form.get('username') ?? '';
    const user = (await ctx.repo.users()).find((u) => u.username === username);
    if (!user || user.password !== (form.get('password') ?? ''))
      return oauthError(400, 'invalid_grant', 'Unknown user or wrong password');
    const tokens = await ctx.repo.issueUserTokens(client.clientId, user.id);
    return tokenReply({ access_token: tokens.accessToken, refresh_token: tokens.refreshToken });
  }
  const refreshToken = form.get('refresh_token') ?? '';
  const live = await ctx.repo.refreshGrant(refreshToken);
  if (!live || live.clientId !== client.clientId)
    return oauthError(400, 'invalid_grant', 'The refresh token is unknown, revoked or of another client');
  const tokens = await ctx.repo.refreshUserTokens(refreshToken);
  if (!tokens) return oauthError(400, 'invalid_grant', 'The refresh token is unknown or revoked');
  return tokenReply({ access_token: tokens.accessToken, refresh_token: tokens.refreshToken });
}
