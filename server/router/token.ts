/**
 * The sandbox's OAuth token endpoint (DEC-D1-10): client-credentials grant, form-encoded, client
 * credentials in the form or in HTTP Basic. Answers use the OAuth error shape, not OperationOutcome.
 */
import { FORM_MEDIA_TYPE, mediaType } from './auth.ts';
import type { SandboxContext, SandboxReply, SandboxRequest } from './types.ts';

export const TOKEN_LIFETIME_SECONDS = 3600;

const oauthError = (status: number, error: string, description: string): SandboxReply => ({
  status,
  body: { error, error_description: description },
  headers: { 'cache-control': 'no-store' },
});

function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const m = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
}

export async function issueToken(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  if (mediaType(req.headers['content-type']) !== FORM_MEDIA_TYPE || !req.form) {
    return oauthError(400, 'invalid_request', `Expected Content-Type ${FORM_MEDIA_TYPE}`);
  }
  const grant = req.form.get('grant_type');
  if (!grant) return oauthError(400, 'invalid_request', 'grant_type is required');
  if (grant !== 'client_credentials') return oauthError(400, 'unsupported_grant_type', 'Only client_credentials is supported');
  const basic = basicCredentials(req.headers.authorization);
  const id = basic?.id ?? req.form.get('client_id') ?? '';
  const secret = basic?.secret ?? req.form.get('client_secret') ?? '';
  const client = await ctx.repo.client(id);
  if (!client || client.clientSecret !== secret) {
    return { ...oauthError(401, 'invalid_client', 'Unknown client or wrong secret'), headers: { 'cache-control': 'no-store', 'www-authenticate': 'Basic' } };
  }
  const token = await ctx.repo.issueToken(client.clientId);
  return {
    status: 200,
    body: { access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS },
    headers: { 'cache-control': 'no-store' },
  };
}
