import { fail, pass, type Check } from '../core/check.ts';
import { jsonBody } from '../core/exchange.ts';
import { errorCodesOf } from '../core/readers/errorCode.ts';

export interface StatusAndCode {
  status: number;
  code: string;
}

const render = (pair: StatusAndCode): string => `HTTP ${pair.status} with code ${pair.code}`;

/**
 * The response carries one of the documented error answers: the HTTP status and the error code
 * of one expected pair (document 1, section 7; code location per DEC-D1-14).
 */
export function errorStatusAndCode(expected: StatusAndCode | readonly StatusAndCode[]): Check {
  const pairs: readonly StatusAndCode[] = Array.isArray(expected) ? expected : [expected as StatusAndCode];
  const wanted = pairs.map(render).join(' or ');
  return {
    id: 'error-status-and-code',
    summary: `The error answer is ${wanted}`,
    run: (x) => {
      const status = x.response.status;
      const codes = errorCodesOf(jsonBody(x), x.response.bodyText);
      const evidence = { status, codes };
      const hit = pairs.find((p) => p.status === status && codes.includes(p.code));
      if (hit) return pass(render(hit), evidence);
      const received = `HTTP ${status} with code ${codes.length === 0 ? '<no code>' : codes.join(', ')}`;
      return fail(`Expected ${wanted}, received ${received}`, evidence);
    },
  };
}
