import { fail, pass, type Check } from '../core/check.ts';

/**
 * The response has exactly the given HTTP status, where the document gives a status without an
 * error code (document 2, section 7: HTTP 400 when the search parameter is absent; DEC-D2-07,
 * DEC-D2-31).
 */
export function statusIs(status: number): Check {
  return {
    id: 'status-is',
    summary: `Response status is HTTP ${status}`,
    run: (x) => {
      const actual = x.response.status;
      return actual === status
        ? pass(`HTTP ${actual}`, { status: actual })
        : fail(`Expected HTTP ${status}, received HTTP ${actual}`, { status: actual });
    },
  };
}
