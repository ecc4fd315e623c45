import { fail, pass, skip, type Check } from '../core/check.ts';
import type { ClientExchange } from '../core/clientRequest.ts';

const same = (a: ClientExchange, b: ClientExchange) =>
  a.method === b.method &&
  a.rawPath === b.rawPath &&
  a.rawQuery === b.rawQuery &&
  (a.body ?? '') === (b.body ?? '') &&
  a.headers.authorization === b.headers.authorization;

/**
 * After a refusal (an error answer of the documents' tables, or a 401), the client does not send
 * the same request again unchanged, as if repeating could succeed: it changes the request,
 * obtains a new token first (after a 401), or stops. The documents describe the errors, not what
 * a caller does next (DEC-C-01): judged at SHOULD.
 */
export const clientNoBlindRetry: Check<readonly ClientExchange[]> = {
  id: 'client-no-blind-retry',
  summary: 'After a refusal the client does not repeat the same request unchanged',
  run: (exchanges) => {
    const refused = exchanges.filter((x) => x.status >= 400 && !x.own);
    if (refused.length === 0) return skip('No request of the client was refused');
    const repeats = refused.filter((x) => {
      const next = exchanges.slice(exchanges.indexOf(x) + 1).find((y) => !y.own);
      return next !== undefined && same(x, next);
    });
    return repeats.length === 0
      ? pass(`No refused request was repeated unchanged (${refused.length} refused)`)
      : fail(
          `Expected a changed request, a new token or a stop after a refusal, received ${repeats
            .map((x) => `${x.method} ${x.rawPath} (${x.status})`)
            .join(', ')} sent again unchanged`,
        );
  },
};
