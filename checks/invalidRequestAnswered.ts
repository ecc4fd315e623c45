import { fail, pass, type Check } from '../core/check.ts';
import { isRecord, jsonBody } from '../core/exchange.ts';
import { type AllowedAnswers, answerAllowed } from '../generators/parameterValueInvalid.ts';
import { errorCodesOf } from '../core/readers/errorCode.ts';

/** The answers of `allowed` in the words of a failure message. */
function describeAllowed(allowed: AllowedAnswers): string {
  const served = allowed.mayServe ? ' (or served)' : '';
  switch (allowed.refusal) {
    case 'any-4xx':
      return `a 4xx refusal${served}`;
    case 'status':
      return `HTTP ${[...new Set(allowed.errors.map((e) => e.status))].join(' or ')}${served}`;
    case 'documented-code':
      return `${allowed.errors.map((e) => `HTTP ${e.status} ${e.code}`).join(' or ')}${served}`;
  }
}

/**
 * A request made invalid for one reason (one parameter missing, empty, malformed, out of range or
 * outside its listed values; generators/parameterValueInvalid.ts) gets one of the answers the
 * documents allow for it: the code the error table ties to the trigger, else any documented code
 * at its status, else any 4xx, and a success only where the documents leave refusing open
 * (Document 1, 2, 3, section 7; D1-7-26, D1-7-27, D2-7-31, D2-7-32, D3-7-45, D3-7-46; DEC-D1-24,
 * DEC-D2-58, DEC-D1-76). Never stricter than the table: never cry wolf.
 */
export function invalidRequestAnswered(allowed: AllowedAnswers): Check {
  const wanted = describeAllowed(allowed);
  return {
    id: 'invalid-request-answered',
    summary: `An invalid request is answered with ${wanted}`,
    run: (x) => {
      const status = x.response.status;
      const body = jsonBody(x);
      // Accounts and token-details errors carry their documented text in `message` (Document 3, 7).
      const message = isRecord(body) && typeof body.message === 'string' ? [body.message] : [];
      const codes = [...errorCodesOf(body), ...message];
      const ok = answerAllowed(allowed, status) || codes.some((c) => answerAllowed(allowed, status, c));
      const received = `HTTP ${status}${codes.length > 0 ? ` ${codes.join(', ')}` : ''}`;
      return ok
        ? pass(received, { status, codes })
        : fail(`Expected ${wanted}, received ${received}`, { status, codes, basis: allowed.basis });
    },
  };
}
