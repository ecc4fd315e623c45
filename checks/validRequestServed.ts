import { fail, pass, type Check } from '../core/check.ts';
import { jsonBody } from '../core/exchange.ts';
import { PARAMETER_CODES } from '../generators/parameterValueInvalid.ts';
import { errorCodesOf } from '../core/readers/errorCode.ts';

/**
 * A request whose every parameter has its documented form and value (the derivation of
 * generators/requestArbitrary.ts) is served, or answered with a data-dependent outcome (no match,
 * several matches, an unknown id): never with a server error, never refused with one of the codes
 * the error tables give to bad parameters (Document 1, 4 and 7; Document 2, 4 and 7; Document 3,
 * 4; D1-4-03, D2-4-04, D3-4-06; DEC-D1-76, DEC-D2-65, DEC-D3-65). A 4xx without one of those
 * codes passes: the documents do not say which other refusals depend on the data.
 * `requiredOpen`: the operation has fields whose requiredness the documents leave open;
 * `unknownRecord`: the request names a record (a path segment, an id) the target may not hold.
 */
export function validRequestServed(options: { requiredOpen?: boolean; unknownRecord?: boolean } = {}): Check {
  // Where the documents leave which fields are required open ("depends on insurer", DEC-D1-18), a
  // refusal for a missing one is a data-dependent outcome; so is refusing, as invalid, a value
  // that names no record the target holds (an unknown id).
  const refusing = options.unknownRecord
    ? []
    : [...PARAMETER_CODES].filter((c) => !(options.requiredOpen && c === 'MSG_MISSING_MANDATORY_PARAM'));
  return {
    id: 'valid-request-served',
    summary: 'A request of documented form is served or answered with a data-dependent outcome',
    run: (x) => {
      const status = x.response.status;
      if (status >= 500) return fail(`Expected a request of documented form to be served, received HTTP ${status}`);
      const refusedFor = status >= 400 ? errorCodesOf(jsonBody(x)).filter((c) => refusing.includes(c)) : [];
      if (refusedFor.length > 0)
        return fail(
          `Expected a request of documented form to be served, received HTTP ${status} ${refusedFor.join(', ')} (a refusal of its parameters)`,
          { status, codes: refusedFor },
        );
      return pass(`HTTP ${status}`, { status });
    },
  };
}
