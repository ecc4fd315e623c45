/**
 * Obtaining the bearer token of a run (DEC-D1-10): a ready token from the environment, or the
 * OAuth client-credentials grant against the configured token endpoint.
 */
import type { Credentials } from './config.ts';
import { ConfigError } from './config.ts';
import { isRecord, parseJson } from './exchange.ts';
import type { HttpClient } from './http.ts';
import { TargetUnreachableError } from './discovery.ts';

export async function obtainToken(client: HttpClient, credentials: Credentials): Promise<string> {
  if (credentials.type === 'bearer') return credentials.token;
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
  }).toString();
  const x = await client.send({
    method: 'POST',
    url: credentials.tokenUrl,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body,
  });
  if (!x.response) throw new TargetUnreachableError(`Target unreachable: ${x.error ?? 'no response'} (token endpoint ${credentials.tokenUrl})`);
  const parsed = parseJson({ ...x, response: x.response });
  const token = parsed.ok && isRecord(parsed.value) ? parsed.value.access_token : undefined;
  if (x.response.status !== 200 || typeof token !== 'string' || token === '') {
    throw new ConfigError(`Could not obtain an access token from ${credentials.tokenUrl}: HTTP ${x.response.status}${typeof token === 'string' ? '' : ', no access_token in the answer'}`);
  }
  return token;
}
