import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { describe, readObject } from './readJson.ts';
import { briefValue, kindOf } from './valueKind.ts';

/**
 * Token details of an identity-provider sign-in answer HTTP 200 with `{status: 'success', data:
 * {access_token, refresh_token, expires_in, token_type}}` (document 3, 4.2): `access_token`
 * non-empty text, `refresh_token` and `token_type` text, `expires_in` a positive whole number of
 * seconds. Token values never appear in messages or evidence, only their kind.
 */
export const tokenDetailsAnswer: Check = {
  id: 'token-details-answer',
  summary: 'Token details answer HTTP 200 with status success and the token data (4.2)',
  run: (x) => {
    const status = x.response.status;
    if (status !== 200) return fail(`Expected HTTP 200, received HTTP ${status}`, { status });
    const body = readObject(x);
    if (!body.ok) return body.finding;
    const data = body.value.data;
    const problems: string[] = [];
    if (body.value.status !== 'success') problems.push(`status ${show(body.value.status, 40)}`);
    if (!isRecord(data)) {
      problems.push(`data ${describe(data)}`);
    } else {
      const { access_token: access, refresh_token: refresh, expires_in: expiresIn, token_type: tokenType } = data;
      if (typeof access !== 'string' || access.trim() === '') problems.push(`access_token ${kindOf(access)}`);
      if (typeof refresh !== 'string') problems.push(`refresh_token ${kindOf(refresh)}`);
      if (!(Number.isSafeInteger(expiresIn) && (expiresIn as number) > 0))
        problems.push(`expires_in ${show(expiresIn, 40)}`);
      if (typeof tokenType !== 'string') problems.push(`token_type ${show(tokenType, 40)}`);
    }
    const d = isRecord(data) ? data : {};
    const evidence = {
      status,
      bodyStatus: briefValue(body.value.status, 40),
      accessToken: kindOf(d.access_token),
      refreshToken: kindOf(d.refresh_token),
      expiresIn: briefValue(d.expires_in, 40),
      tokenType: briefValue(d.token_type, 40),
    };
    if (problems.length === 0)
      return pass(`status success, ${show(d.token_type, 40)} token expiring in ${d.expires_in as number} s`, evidence);
    return fail(
      `Expected {status: "success", data: {access_token: non-empty text, refresh_token: text, expires_in: positive integer, token_type: text}} (4.2), received ${problems.join('; ')}`,
      evidence,
    );
  },
};
