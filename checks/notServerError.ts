import { fail, pass, type Check } from '../core/check.ts';
import type { RespondedExchange } from '../core/exchange.ts';

/**
 * The answer is not a server error (5xx): used where a document leaves the answer open but a
 * crash is never acceptable (Document 2, DEC-D2-09, DEC-D2-17, DEC-D2-41, DEC-D2-50, DEC-D2-51).
 */
export const notServerError: Check<RespondedExchange> = {
  id: 'not-server-error',
  summary: 'The answer is not a server error',
  run: (x) =>
    x.response.status >= 500
      ? fail(`Expected an answer other than a server error, received HTTP ${x.response.status}`)
      : pass(`HTTP ${x.response.status}`, { status: x.response.status }),
};
