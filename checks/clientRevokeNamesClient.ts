import { fail, pass, skip, type Check } from '../core/check.ts';
import type { ClientExchange } from '../core/clientRequest.ts';

/**
 * A revoke of a token generated with a client id carries the `ClientId` and `secret` headers
 * (Document 3, 5; DEC-D3-06). Every token a certification workspace issues is generated with its
 * client id, so every revoke is judged.
 */
export const clientRevokeNamesClient: Check<readonly ClientExchange[]> = {
  id: 'client-revoke-names-client',
  summary: 'A revoke carries the ClientId and secret headers of the client that obtained the token',
  run: (exchanges) => {
    const revokes = exchanges.filter((x) => x.operation?.id === 'revoke-token');
    if (revokes.length === 0) return skip('The client revoked no token');
    const missing = revokes.flatMap((x) =>
      ['clientid', 'secret']
        .filter((h) => (x.headers[h] ?? '') === '')
        .map((h) => (h === 'clientid' ? 'ClientId' : 'secret')),
    );
    return missing.length === 0
      ? pass(`${revokes.length} revoke(s) named the client`)
      : fail(
          `Expected the headers ClientId and secret on every revoke, received none of ${[...new Set(missing)].join(', ')}`,
        );
  },
};
