import { fail, pass, type Check } from '../core/check.ts';
import { isRecord, parseJson } from '../core/exchange.ts';

/**
 * A refresh grant (`grant_type=refresh_token`) with a revoked refresh token is refused (document
 * 3, 4.2: revoking a refresh token ends it; DEC-D3-06: "the refresh token can no longer be
 * refreshed"): a 4xx status and no `access_token` in the answer. The OAuth error code is not judged.
 */
export const refreshTokenRefused: Check = {
  id: 'refresh-token-refused',
  summary: 'A revoked refresh token can no longer be refreshed',
  run: (x) => {
    const status = x.response.status;
    const parsed = parseJson(x);
    const issued =
      parsed.ok &&
      isRecord(parsed.value) &&
      typeof parsed.value.access_token === 'string' &&
      parsed.value.access_token !== '';
    if (status >= 400 && status < 500 && !issued) return pass(`refresh refused with HTTP ${status}`, { status });
    if (issued)
      return fail(`Expected the revoked refresh token to be refused, received HTTP ${status} with a new access_token`, {
        status,
      });
    return fail(`Expected the revoked refresh token to be refused with a 4xx status, received HTTP ${status}`, {
      status,
    });
  },
};
