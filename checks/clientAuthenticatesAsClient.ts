import { fail, pass, skip, type Check } from '../core/check.ts';
import type { ClientExchange } from '../core/clientRequest.ts';

/** A request of a client that holds client credentials, with the tokens it had been issued before it. */
export interface ClientAuthentication {
  request: ClientExchange;
  /** The client id and secret the client was given. */
  client: { id: string; secret: string };
  /** Access and refresh tokens the token endpoint had issued to the client before the request. */
  issuedTokens: readonly string[];
}

/** The `user:password` of a Basic Authorization value, when it is one. */
function basicPair(value: string | undefined): string | undefined {
  const m = /^basic +(\S+)\s*$/i.exec(value ?? '');
  if (!m) return undefined;
  try {
    return Buffer.from(m[1], 'base64').toString('utf8');
  } catch {
    return undefined;
  }
}

/** The query parameters of a request that carry a token (by name, or by value: a token it was issued). */
function tokensInQuery(x: ClientExchange, issued: ReadonlySet<string>): string[] {
  return [...new URLSearchParams(x.rawQuery)]
    .filter(([name, value]) => /^(access_?token|bearer|token)$/i.test(name) || issued.has(value))
    .map(([name]) => name);
}

/**
 * Document 3, 4.2 (token details): "Header `Authorization: Basic <BASE64(client_id:client_secret)>`;
 * bearer tokens must not be used". Judged by kind: the Basic credentials are the client's own id
 * and secret (not a user's name and password), and no token travels with the request, neither as
 * a Bearer nor in the query. What is shown of a mismatch names the identity, never the secret.
 */
export const clientAuthenticatesAsClient: Check<ClientAuthentication> = {
  id: 'client-authenticates-as-client',
  summary: 'The request authenticates with the Basic credentials of the client itself and carries no bearer token',
  appliesTo: (s) => s.request.operation !== undefined,
  run: ({ request, client, issuedTokens }) => {
    const problems: string[] = [];
    const inQuery = tokensInQuery(request, new Set(issuedTokens));
    if (inQuery.length > 0) problems.push(`a token in the query (${inQuery.join(', ')})`);
    const authorization = request.headers.authorization;
    if (/^bearer\b/i.test(authorization ?? '')) problems.push('a Bearer token in Authorization');
    const pair = basicPair(authorization);
    if (pair !== undefined && pair !== `${client.id}:${client.secret}`) {
      const who = pair.split(':')[0];
      problems.push(
        who === client.id
          ? `Basic credentials of the client id ${client.id} with another secret`
          : `Basic credentials of another identity (${who === '' ? 'no name' : who})`,
      );
    }
    if (authorization === undefined && inQuery.length === 0) return skip('The request carries no credentials');
    return problems.length === 0
      ? pass(`Basic credentials of the client ${client.id}, no bearer token`)
      : fail(
          `Expected Authorization: Basic of the client's own id and secret (${client.id}) and no bearer token, received ${problems.join('; ')}`,
          { problems },
        );
  },
};
