import { fail, pass, show, type Check } from '../core/check.ts';
import { readObject } from './readJson.ts';

export interface PostcodeExpectation {
  /** The postcode sent. */
  postcode: string;
  /** Whether it is a valid postcode. */
  valid: boolean;
}

const normalise = (postcode: string): string => postcode.replace(/\s+/g, '').toUpperCase();

/**
 * Postcode validation answers with a verdict, never an error (document 2, 4.8; DEC-D2-15):
 * HTTP 200 with a body `{ postcode, status }` where `status` is the Boolean verdict (not a
 * string) and `postcode` echoes the postcode sent, ignoring letter case and spaces.
 */
export function postcodeValidationAnswer(expect: PostcodeExpectation): Check {
  const wanted = `HTTP 200 with status ${expect.valid} for postcode ${show(expect.postcode)}`;
  return {
    id: 'postcode-validation-answer',
    summary: `Validating ${show(expect.postcode)} answers HTTP 200 with status ${expect.valid}`,
    run: (x) => {
      const status = x.response.status;
      if (status !== 200) return fail(`Expected ${wanted}, received HTTP ${status}`, { status });
      const body = readObject(x);
      if (!body.ok) return body.finding;
      const verdict = body.value.status;
      const echoed = body.value.postcode;
      const evidence = { status, verdict, postcode: echoed };
      if (verdict !== expect.valid) {
        const kind =
          typeof verdict === 'boolean' || verdict === undefined
            ? ''
            : ` (a ${verdict === null ? 'null' : typeof verdict}, not a Boolean)`;
        return fail(`Expected status ${expect.valid}, received ${show(verdict, 40)}${kind}`, evidence);
      }
      if (typeof echoed !== 'string' || normalise(echoed) !== normalise(expect.postcode)) {
        return fail(
          `Expected postcode ${show(expect.postcode)} echoed (ignoring case and spaces), received ${show(echoed, 60)}`,
          evidence,
        );
      }
      return pass(`status ${verdict} for ${show(echoed)}`, evidence);
    },
  };
}
