import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { readObject } from './readJson.ts';

/**
 * The OperationOutcome explains itself: `issue[0].diagnostics` is non-empty text (document 1,
 * 2.3 and 4.2; DEC-D1-34: the wording is recorded, not judged).
 */
export const outcomeHasDiagnostics: Check = {
  id: 'outcome-has-diagnostics',
  summary: 'The OperationOutcome carries non-empty diagnostics text',
  run: (x) => {
    const body = readObject(x);
    if (!body.ok) return body.finding;
    const issue = Array.isArray(body.value.issue) ? body.value.issue[0] : undefined;
    const diagnostics = isRecord(issue) ? issue.diagnostics : undefined;
    if (typeof diagnostics === 'string' && diagnostics.trim() !== '') return pass(show(diagnostics), { diagnostics });
    const received = Array.isArray(body.value.issue)
      ? isRecord(issue)
        ? show(diagnostics)
        : 'no issue[0]'
      : 'no issue[]';
    return fail(`Expected issue[0].diagnostics to be non-empty text, received ${received}`);
  },
};
