import { fail, pass, type Check } from '../core/check.ts';
import type { ClientRequest } from '../core/clientRequest.ts';

/**
 * The client sends `|` as `%7C` (Document 2 section 4.7, DEC-D2-13; RFC 3986 2.2 does not allow a
 * literal `|` in a URI). Judged on the path and query as sent.
 */
export const clientEncodesPipe: Check<ClientRequest> = {
  id: 'client-encodes-pipe',
  summary: 'The request sends `|` as %7C in its path and query',
  run: (request) => {
    const where = [
      request.rawPath.includes('|') ? `path ${request.rawPath}` : '',
      request.rawQuery.includes('|') ? `query ${request.rawQuery}` : '',
    ].filter(Boolean);
    return where.length === 0
      ? pass('No literal | in the path or query')
      : fail(`Expected | sent as %7C, received a literal | in the ${where.join(' and the ')}`);
  },
};
