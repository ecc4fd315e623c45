import { fail, pass, skip, type Check } from '../core/check.ts';
import { type ClientExchange, jsonOf } from '../core/clientRequest.ts';

/** A 2xx answer with a body that is not JSON: the client cannot have read what it announces. */
const malformed = (x: ClientExchange): boolean =>
  x.status < 300 && (x.responseBody ?? '') !== '' && jsonOf(x.responseBody) === undefined;

/**
 * After an answer it cannot read (a malformed body), the client does not act as if it had read
 * it: no acknowledgement of a batch follows a pending list that did not parse, unless the batch
 * was fetched and read first. The documents do not say what a caller does with an unreadable
 * answer (DEC-C-05): judged at SHOULD.
 */
export const clientNoActionOnMalformedAnswer: Check<readonly ClientExchange[]> = {
  id: 'client-no-action-on-malformed-answer',
  summary: 'After an answer it cannot read, the client does not act as if it had read it',
  run: (exchanges) => {
    const at = exchanges.findIndex((x) => x.operation?.id === 'list-pending-remittances' && malformed(x));
    if (at === -1) return skip('No pending list was answered with a body that does not parse');
    const after = exchanges.slice(at + 1);
    const blind = after.filter(
      (x) =>
        x.operation?.id === 'ack-remittance' &&
        !after
          .slice(0, after.indexOf(x))
          .some(
            (g) =>
              g.operation?.id === 'get-remittance-details' &&
              g.status === 200 &&
              g.rawPath.split('/').pop() === x.rawPath.split('/').pop(),
          ),
    );
    return blind.length === 0
      ? pass('Nothing was acknowledged on the strength of the unreadable list')
      : fail(
          `Expected no acknowledgement after a pending list that did not parse, received ${blind.map((x) => `${x.method} ${x.rawPath}`).join(', ')}`,
        );
  },
};
