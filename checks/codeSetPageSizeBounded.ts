import { fail, pass, type Check } from '../core/check.ts';
import type { RespondedExchange } from '../core/exchange.ts';
import { readValueSet } from './valueSet.ts';

export const CODE_SET_MAX_PAGE = 1000;

/**
 * A page size outside 1 to 1,000 (document 2, 4.1 and 8; DEC-D2-03) is refused with a 4xx status
 * or served as if clamped into the bounds: section 7 gives code sets no operation-specific error,
 * so both conform. A served page must then hold at most 1,000 codes, and at least one when the set
 * has codes (`setSize`, known from another request, or a positive `expansion.total`): a page of
 * zero codes from a non-empty set serves the out-of-bounds size itself. The `count` tag is recorded.
 */
export function codeSetPageSizeBounded(requested: string, setSize?: number): Check<RespondedExchange> {
  return {
    id: 'code-set-page-size-bounded',
    summary: 'A code-set page size outside 1 to 1,000 is refused or clamped into the bounds',
    run: (x) => {
      const status = x.response.status;
      if (status >= 400 && status < 500)
        return pass(`count=${requested} refused with HTTP ${status}`, { requested, status });
      const read = readValueSet(x);
      if (!read.ok) return read.finding;
      const n = read.value.contains.length;
      const total = typeof read.value.expansion.total === 'number' ? read.value.expansion.total : undefined;
      const hasCodes = (setSize ?? 0) > 0 || (total ?? 0) > 0;
      const evidence = { requested, codes: n, total, status };
      if (n > CODE_SET_MAX_PAGE)
        return fail(
          `Expected count=${requested} refused or clamped to at most ${CODE_SET_MAX_PAGE} codes, received ${n}`,
          evidence,
        );
      if (n === 0 && hasCodes)
        return fail(
          `Expected count=${requested} refused or clamped to at least 1 code, received an empty page of a set that has codes`,
          evidence,
        );
      return pass(`count=${requested} served with ${n} codes (clamped)`, evidence);
    },
  };
}
