import { fail, pass, type Check } from '../core/check.ts';

/**
 * The request is refused with a 4xx status (document 1, section 7; DEC-D1-13, -20, -21, -28, -31:
 * where the document shows no status, any 4xx refusal passes and the status is recorded).
 */
export const requestRefused: Check = {
  id: 'request-refused',
  summary: 'The request is refused with a 4xx status',
  run: (x) => {
    const status = x.response.status;
    if (status >= 400 && status <= 499) return pass(`HTTP ${status}`, { status });
    if (status >= 500 && status <= 599) {
      return fail(`Expected a 4xx refusal, received HTTP ${status} (a server error is not a refusal)`, { status });
    }
    return fail(`Expected a 4xx refusal, received HTTP ${status}`, { status });
  },
};
