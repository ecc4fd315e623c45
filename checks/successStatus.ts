import { fail, pass, type Check } from '../core/check.ts';

/**
 * The response has the documented success status, or any 2xx where the document does not show
 * it (DEC-D1-03, e.g. Find Member 4.1/4.2; 4.8 documents 200).
 */
export function successStatus(expected?: number): Check {
  return {
    id: 'success-status',
    summary: expected === undefined ? 'Response status is a 2xx success' : `Response status is HTTP ${expected}`,
    run: (x) => {
      const status = x.response.status;
      if (expected === undefined) {
        return status >= 200 && status <= 299
          ? pass(`HTTP ${status}`, { status })
          : fail(`Expected HTTP 2xx, received HTTP ${status}`, { status });
      }
      return status === expected
        ? pass(`HTTP ${status}`, { status })
        : fail(`Expected HTTP ${expected}, received HTTP ${status}`, { status });
    },
  };
}
