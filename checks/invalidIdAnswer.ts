import { fail, pass, type Check } from '../core/check.ts';
import { jsonBody } from '../core/exchange.ts';
import { errorCodesOf, INVALID_ID } from '../core/readers/errorCode.ts';
import { bodyStart } from './readJson.ts';

/**
 * An unknown or removed batch id is answered with the `InvalidId` error (document 1, 4.7, 4.8,
 * section 3 and 7): a 4xx status and the text `InvalidId` in the body (DEC-D1-11; the status
 * itself is only recorded).
 */
export const invalidIdAnswer: Check = {
  id: 'invalid-id-answer',
  summary: 'An unknown id is refused with a 4xx status and InvalidId in the body',
  run: (x) => {
    const status = x.response.status;
    const refused = status >= 400 && status <= 499;
    // Read as every part of the suite reads it (core/readers/errorCode.ts): a code, a member, a word.
    const named = errorCodesOf(jsonBody(x), x.response.bodyText).includes(INVALID_ID);
    if (refused && named) return pass(`HTTP ${status} with InvalidId`, { status });
    const body = named
      ? 'InvalidId in the body'
      : x.response.bodyText.trim() === ''
        ? 'an empty body'
        : `body ${bodyStart(x)}`;
    return fail(`Expected a 4xx status with InvalidId in the body, received HTTP ${status} with ${body}`, { status });
  },
};
