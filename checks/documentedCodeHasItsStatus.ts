import { fail, pass, skip, type Check } from '../core/check.ts';
import { jsonBody, type RespondedExchange } from '../core/exchange.ts';
import { errorCodesOf } from '../core/readers/errorCode.ts';
import type { StatusAndCode } from './errorStatusAndCode.ts';

/**
 * Whenever an answer carries an error code of the operation's table, its HTTP status is the one
 * the table gives for that code (Document 1, section 7; Document 2, section 7). Answers without a
 * documented code are not judged.
 */
export function documentedCodeHasItsStatus(table: readonly StatusAndCode[]): Check<RespondedExchange> {
  return {
    id: 'documented-code-has-its-status',
    summary: 'A documented error code comes with the HTTP status of the error table',
    run: (x) => {
      const codes = errorCodesOf(jsonBody(x)).filter((c) => table.some((e) => e.code === c));
      if (codes.length === 0) return skip('No documented error code in the answer');
      const wrong = codes.filter((c) => !table.some((e) => e.code === c && e.status === x.response.status));
      if (wrong.length === 0) return pass(`${codes.join(', ')} with HTTP ${x.response.status}`);
      const expected = wrong
        .map(
          (c) =>
            `${c} with HTTP ${table
              .filter((e) => e.code === c)
              .map((e) => e.status)
              .join(' or ')}`,
        )
        .join(', ');
      return fail(`Expected ${expected}, received HTTP ${x.response.status}`);
    },
  };
}
