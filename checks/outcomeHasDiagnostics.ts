import { fail, pass, show, type Check } from '../core/check.ts';
import { issuesOf } from '../core/readers/errorCode.ts';
import { readObject } from './readJson.ts';

/**
 * The OperationOutcome explains itself: an issue carries non-empty `diagnostics` text (document 1,
 * 2.3 and 4.2; DEC-D1-34: the wording is recorded, not judged). Any issue, as every reading of an
 * OperationOutcome (core/readers/errorCode.ts): which one comes first is not fixed.
 */
export const outcomeHasDiagnostics: Check = {
  id: 'outcome-has-diagnostics',
  summary: 'The OperationOutcome carries non-empty diagnostics text',
  run: (x) => {
    const body = readObject(x);
    if (!body.ok) return body.finding;
    const issues = issuesOf(body.value);
    const diagnostics = issues.map((i) => i.diagnostics).find((d) => typeof d === 'string' && d.trim() !== '');
    if (typeof diagnostics === 'string') return pass(show(diagnostics), { diagnostics });
    const received = !Array.isArray(body.value.issue)
      ? 'no issue[]'
      : issues.length === 0
        ? 'no issue'
        : issues.map((i) => show(i.diagnostics)).join(', ');
    return fail(`Expected an issue with non-empty diagnostics text, received ${received}`);
  },
};
