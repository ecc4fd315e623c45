import { fail, pass, type Check } from '../core/check.ts';
import type { RespondedExchange } from '../core/exchange.ts';
import { jsonBody } from '../core/exchange.ts';
import { errorCodesOf } from '../core/readers/errorCode.ts';
import type { Operation } from '../spec/types.ts';

/** The codes the error tables give a required parameter missing or empty (D1 7, D2 7). */
const MISSING_CODES = ['MSG_MISSING_MANDATORY_PARAM', 'MSG_PARAM_EMPTY'];

/**
 * The parameters a request carried where the documents send them: the form body of a POST, the
 * query of a GET. Every reader of a recorded request's parameters asks it (`conformance compare`
 * reads `_sort` with it).
 */
export function sentParameters(x: Pick<RespondedExchange, 'request'>, where: 'form' | 'query'): URLSearchParams {
  if (where === 'query') {
    try {
      return new URL(x.request.url).searchParams;
    } catch {
      return new URLSearchParams();
    }
  }
  const type = Object.entries(x.request.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  return /application\/x-www-form-urlencoded/i.test(type)
    ? new URLSearchParams(x.request.body ?? '')
    : new URLSearchParams();
}

/**
 * The parameters of a request are read where the documents send them: `application/x-www-form-urlencoded`
 * body fields for POST, query parameters for GET (D1 4: "All request parameters below are sent as
 * ... body fields for POST and as query parameters for GET"; D2 4). A request that carried every
 * required parameter there, answered with the tables' code for a missing or empty parameter, was
 * read elsewhere. Applies only to an operation whose required parameters the table fixes (none
 * whose need "depends on" the insurer, DEC-D1-18) and to a request that carried all of them.
 */
export function sentParametersRead(op: Operation): Check {
  const where = op.method === 'POST' ? 'form' : 'query';
  const required = op.parameters.filter((p) => p.required && p.in === where).map((p) => p.name);
  const open = op.parameters.some((p) => /depends on/i.test(p.description));
  const place = where === 'form' ? 'form body fields' : 'query parameters';
  return {
    id: 'sent-parameters-read',
    summary: `Required parameters sent as ${place} are read`,
    appliesTo: (x) =>
      !open &&
      required.length > 0 &&
      x.request.method.toUpperCase() === op.method &&
      required.every((name) => (sentParameters(x, where).get(name) ?? '').trim() !== ''),
    run: (x) => {
      const { status, bodyText } = x.response;
      const codes = status >= 400 && status < 500 ? errorCodesOf(jsonBody(x), bodyText) : [];
      const missing = codes.filter((c) => MISSING_CODES.includes(c));
      return missing.length > 0
        ? fail(
            `Expected the ${place} ${required.join(', ')} to be read, received HTTP ${status} ${missing[0]} (a required parameter missing or empty) to a request that carried each of them`,
            { status, codes },
          )
        : pass(`${required.join(', ')} sent as ${place}: HTTP ${status}`, { status });
    },
  };
}
