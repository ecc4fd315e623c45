import { fail, pass, show, type Check } from '../core/check.ts';
import { readObject } from './readJson.ts';
import { briefValue, kindOf } from './valueKind.ts';

/**
 * An accounts error body is `{message, code}` (document 3, 2.2 and section 7; DEC-D3-04):
 * `message` is non-empty text and `code` is the HTTP status of the response as an integer number
 * (a numeric string does not pass).
 */
export const accountsErrorBody: Check = {
  id: 'accounts-error-body',
  summary: 'The accounts error body is {message, code} with code the HTTP status as a number',
  run: (x) => {
    const status = x.response.status;
    const body = readObject(x);
    if (!body.ok) return body.finding;
    const { message, code } = body.value;
    const evidence = { status, code: briefValue(code, 60), message: briefValue(message) };
    const problems: string[] = [];
    if (typeof message !== 'string')
      problems.push(`message ${message === undefined ? '<absent>' : `${show(message, 40)} (${kindOf(message)})`}`);
    else if (message.trim() === '') problems.push(`message ${show(message, 40)}`);
    if (!Number.isSafeInteger(code)) {
      const kind = typeof code === 'number' || code === undefined ? '' : ` (${kindOf(code)}, not a number)`;
      problems.push(`code ${show(code, 40)}${kind}`);
    } else if (code !== status) problems.push(`code ${code as number} with HTTP ${status}`);
    if (problems.length === 0) return pass(`{message, code: ${status}}`, evidence);
    return fail(
      `Expected {message: non-empty text, code: ${status}} (DEC-D3-04), received ${problems.join(' and ')}`,
      evidence,
    );
  },
};
