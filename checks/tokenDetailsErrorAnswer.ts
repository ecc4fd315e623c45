import { fail, pass, show, skip, type Check } from '../core/check.ts';
import { isRecord, jsonBody } from '../core/exchange.ts';
import { briefValue, kindOf } from './valueKind.ts';

export interface TokenDetailsErrorExpectation {
  /** The HTTP status of the row (document 3, section 7, token-details operation). */
  status: number;
  /** The row's message, compared exactly apart from surrounding white space. */
  message: string;
}

/**
 * The token-details operation answers the documented error (document 3, section 7): exactly
 * the row's HTTP status and a body `{status: 'fail', message, code}` whose `message` is the
 * row's (exact, surrounding white space aside) and whose `code` is the HTTP status, as a number
 * or as a numeric string; which of the two is recorded (evidence `codeType`).
 */
export function tokenDetailsErrorAnswer(expected: TokenDetailsErrorExpectation): Check {
  const message = expected.message.trim();
  const wanted = `HTTP ${expected.status} with {status: "fail", message: ${show(message)}, code: ${expected.status}}`;
  return {
    id: 'token-details-error-answer',
    summary: `The token-details error answer is ${wanted}`,
    run: (x) => {
      const status = x.response.status;
      if (status === expected.status && x.response.truncated)
        return skip('Body truncated at the size cap, cannot judge it');
      const body = jsonBody(x);
      const b = isRecord(body) ? body : {};
      const codeType =
        b.code === expected.status ? 'number' : b.code === String(expected.status) ? 'string' : undefined;
      const evidence = {
        status,
        bodyStatus: briefValue(b.status, 40),
        message: briefValue(b.message),
        code: briefValue(b.code, 40),
        codeType,
      };
      const problems: string[] = [];
      if (!isRecord(body)) {
        problems.push(
          x.response.bodyText.trim() === ''
            ? 'an empty body'
            : body === undefined
              ? 'a body that is not JSON'
              : `a body that is ${kindOf(body)}`,
        );
      } else {
        if (b.status !== 'fail') problems.push(`status ${show(b.status, 40)}`);
        if (!(typeof b.message === 'string' && b.message.trim() === message))
          problems.push(`message ${show(typeof b.message === 'string' ? b.message.trim() : b.message, 100)}`);
        if (codeType === undefined) problems.push(`code ${show(b.code, 40)}`);
      }
      if (status === expected.status && problems.length === 0) {
        return pass(
          `HTTP ${status} with message ${show(message)} and code ${show(b.code)} (a ${codeType as string})`,
          evidence,
        );
      }
      return fail(
        `Expected ${wanted}, received HTTP ${status}${problems.length > 0 ? ` with ${problems.join(', ')}` : ''}`,
        evidence,
      );
    },
  };
}
