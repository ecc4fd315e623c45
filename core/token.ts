/**
 * Obtaining tokens (DEC-D1-10, DEC-D3-03): a ready token from the environment, or an OAuth grant
 * (client credentials, or password for a user) against the configured token endpoint.
 */
import type { Credentials } from './config.ts';
import { ConfigError } from './config.ts';
import { isRecord, parseJson } from './exchange.ts';
import type { HttpClient } from './http.ts';
import { TargetUnreachableError } from './discovery.ts';

export interface Tokens {
  access: string;
  refresh?: string;
}

function grantOf(credentials: Exclude<Credentials, { type: 'bearer' }>): Record<string, string> {
  const client = { client_id: credentials.clientId, client_secret: credentials.clientSecret };
  return credentials.type === 'password'
    ? { grant_type: 'password', username: credentials.username, password: credentials.password, ...client }
    : { grant_type: 'client_credentials', ...client };
}

/** Access (and refresh, when issued) token of the credentials; a one-line error otherwise. */
export async function obtainTokens(client: HttpClient, credentials: Credentials): Promise<Tokens> {
  if (credentials.type === 'bearer') return { access: credentials.token };
  const x = await client.send({
    method: 'POST',
    url: credentials.tokenUrl,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(grantOf(credentials)).toString(),
  });
  if (!x.response)
    throw new TargetUnreachableError(
      `Target unreachable: ${x.error ?? 'no response'} (token endpoint ${credentials.tokenUrl})`,
    );
  const parsed = parseJson({ ...x, response: x.response });
  const body = parsed.ok && isRecord(parsed.value) ? parsed.value : {};
  if (x.response.status !== 200 || typeof body.access_token !== 'string' || body.access_token === '') {
    throw new ConfigError(
      `Could not obtain an access token (${credentials.type} grant) from ${credentials.tokenUrl}: HTTP ${x.response.status}${typeof body.access_token === 'string' ? '' : ', no access_token in the answer'}`,
    );
  }
  return {
    access: body.access_token,
    ...(typeof body.refresh_token === 'string' ? { refresh: body.refresh_token } : {}),
  };
}

export async function obtainToken(client: HttpClient, credentials: Credentials): Promise<string> {
  return (await obtainTokens(client, credentials)).access;
}
