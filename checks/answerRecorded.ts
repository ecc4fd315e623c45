import { fail, pass, type Check } from '../core/check.ts';
import { jsonBody } from '../core/exchange.ts';
import { errorCodesOf } from '../core/readers/errorCode.ts';
import type { StatusAndCode } from './errorStatusAndCode.ts';

/**
 * Where the documents leave a request's answer open between serving it and refusing it (a
 * distance sort without `near`, DEC-D2-17): records which one the server chose. Served (the
 * success status) and refused with a documented status and code both pass, the message saying
 * which; anything else (another status, an undocumented code) is what the recording warns of.
 */
export function answerRecorded(options: { success: number; refusals: readonly StatusAndCode[] }): Check {
  return {
    id: 'answer-recorded',
    summary: `The answer is HTTP ${options.success} or a documented refusal, and which one is recorded`,
    run: (x) => {
      const status = x.response.status;
      if (status === options.success) return pass(`Served: HTTP ${status}`, { status });
      const codes = errorCodesOf(jsonBody(x), x.response.bodyText);
      const hit = options.refusals.find((p) => p.status === status && codes.includes(p.code));
      if (hit) return pass(`Refused: HTTP ${status} with code ${hit.code}`, { status, codes });
      return fail(
        `Expected HTTP ${options.success} or a documented refusal, received HTTP ${status} with code ${codes.length === 0 ? '<no code>' : codes.join(', ')}`,
        { status, codes },
      );
    },
  };
}
