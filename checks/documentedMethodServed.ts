import { fail, pass, type Check } from '../core/check.ts';

/** The statuses by which a server says it does not serve the request's method (RFC 9110 15.5.6, 15.6.2). */
const METHOD_REFUSED = [405, 501];

/**
 * The discovered address serves the operation's documented method: the answer to a request of
 * that method is not 405 Method Not Allowed nor 501 Not Implemented (each operation "is addressed
 * by the key ..., POST", D1 4.1 ff., D2 4.1 ff., D3 4.5). Any other answer, a refusal of the
 * parameters included, says nothing of the method and passes.
 */
export const documentedMethodServed: Check = {
  id: 'documented-method-served',
  summary: "The operation's address serves its documented method (no 405 or 501)",
  run: (x) => {
    const { status, headers } = x.response;
    const allow = headers.allow;
    return METHOD_REFUSED.includes(status)
      ? fail(
          `Expected ${x.request.method} to be served at the discovered address, received HTTP ${status}${allow === undefined ? '' : ` (Allow: ${allow})`}`,
          { status, ...(allow === undefined ? {} : { allow }) },
        )
      : pass(`${x.request.method} answered HTTP ${status}`, { status });
  },
};
