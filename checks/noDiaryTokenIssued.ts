import { fail, pass, type Check } from '../core/check.ts';
import { isRecord, parseJson } from '../core/exchange.ts';

/**
 * A refused diary refresh issues no token (document 3, 4.3; DEC-D3-51): the answer is not
 * `response` 2 with a non-empty `access_token`. Its status and body are otherwise not judged.
 */
export const noDiaryTokenIssued: Check = {
  id: 'no-diary-token-issued',
  summary: 'A refused diary refresh issues no access token',
  run: (x) => {
    const parsed = parseJson(x);
    const body = parsed.ok ? parsed.value : undefined;
    const issued =
      isRecord(body) && body.response === 2 && typeof body.access_token === 'string' && body.access_token !== '';
    return issued
      ? fail(`Expected no response 2 with an access token, received one (HTTP ${x.response.status})`)
      : pass(`no access token issued (HTTP ${x.response.status})`);
  },
};
