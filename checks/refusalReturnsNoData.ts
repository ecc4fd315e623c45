import { fail, pass, skip, type Check } from '../core/check.ts';
import { isRecord, parseJson } from '../core/exchange.ts';
import { validateAgainst } from '../core/schemaRegistry.ts';

/** Members of a message answer (D3 2.2 `{message, code}`, or Get users by site's 200 `{message}`). */
const MESSAGE_MEMBERS = new Set(['message', 'code']);

/** True for a body that holds nothing: an empty array or object, or only a message and a code. */
function holdsNothing(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (isRecord(value)) return Object.keys(value).every((k) => MESSAGE_MEMBERS.has(k));
  return value === null;
}

/**
 * A refusal returns no data (D3 5: a request without a token, or with an unknown one, "is refused
 * with a 4xx status and returns no data", DEC-D3-39): the refused answer's body is not the
 * operation's success answer. "Data" is read as a body that validates against the operation's
 * success schema and holds something (an empty list, or a body of a message and a code only, is no
 * data); an empty body, an error body of any other shape, or text that is not JSON passes. Judged
 * on refusals only: a success status is request-refused's to judge.
 */
export function refusalReturnsNoData(successSchema: string): Check {
  return {
    id: 'refusal-returns-no-data',
    summary: 'A refused request returns none of the data its success answer carries',
    appliesTo: (x) => x.response.status >= 400 && x.response.status <= 499,
    run: (x) => {
      if (x.response.truncated) return skip('the body was cut at the size cap');
      if (x.response.bodyText.trim() === '') return pass(`HTTP ${x.response.status} with an empty body`);
      const parsed = parseJson(x);
      if (!parsed.ok) return pass(`HTTP ${x.response.status} with a body that is not JSON`);
      if (holdsNothing(parsed.value) || !validateAgainst(successSchema, parsed.value).valid)
        return pass(`HTTP ${x.response.status} without the success answer's data`);
      return fail(
        `Expected a refusal without data, received HTTP ${x.response.status} whose body is a success answer (valid against ${successSchema})`,
        { status: x.response.status, schema: successSchema },
      );
    },
  };
}
