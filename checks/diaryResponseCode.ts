import { fail, pass, show, type Check } from '../core/check.ts';
import { readObject } from './readJson.ts';
import { briefValue, kindOf } from './valueKind.ts';

const MEANING: Record<number, string> = { 1: 'Unauthorized', 2: 'Ok', 3: 'SiteNotMapped' };

const named = (code: unknown): string =>
  typeof code === 'number' && MEANING[code] !== undefined ? `${code} (${MEANING[code]})` : show(code, 40);

/**
 * Diary post-authorisation and refresh answer `{access_token, response}` (document 3, 4.3;
 * DEC-D3-10): `response` is the expected integer (1 Unauthorized, 2 Ok, 3 SiteNotMapped, a
 * numeric string does not pass), and `access_token` is non-empty text with 2 and absent, null or
 * empty otherwise. The HTTP status is recorded, not judged; the token's value is never shown.
 */
export function diaryResponseCode(expected: 1 | 2 | 3): Check {
  return {
    id: 'diary-response-code',
    summary: `The diary answer has response ${named(expected)}${expected === 2 ? ' and an access_token' : ' and no access_token'}`,
    run: (x) => {
      const body = readObject(x);
      if (!body.ok) return body.finding;
      const { response, access_token: token } = body.value;
      const evidence = { status: x.response.status, response: briefValue(response, 40), accessToken: kindOf(token) };
      if (response !== expected)
        return fail(`Expected response ${named(expected)}, received ${named(response)}`, evidence);
      if (expected === 2) {
        if (typeof token !== 'string' || token.trim() === '')
          return fail(`Expected a non-empty access_token with response 2 (Ok), received ${kindOf(token)}`, evidence);
        return pass(`response 2 (Ok) with an access_token, HTTP ${x.response.status}`, evidence);
      }
      if (!(token === undefined || token === null || token === '')) {
        return fail(`Expected no access_token with response ${named(expected)}, received ${kindOf(token)}`, evidence);
      }
      return pass(`response ${named(expected)} without an access_token, HTTP ${x.response.status}`, evidence);
    },
  };
}
