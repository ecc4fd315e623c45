import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { issueCodes } from '../core/readers/errorCode.ts';
import { describe, readObject } from './readJson.ts';
import { briefValue } from './valueKind.ts';

/**
 * A contract delete answers an OperationOutcome (document 3, 4.5; DEC-D3-59) with an issue of
 * severity `information`, code `informational`, a `details.coding[]` code `MSG_DELETED_ID`, text
 * `diagnostics`, `location` `CONTRACTS` (as the text or among the list) and `expression` empty
 * (`[]`, `""` or absent, since FHIR JSON leaves empty arrays out). Judged on the issue carrying
 * `MSG_DELETED_ID` (else `issue[0]`); whether it is `issue[0]` is recorded.
 */
export const deletedIdOutcome: Check = {
  id: 'deleted-id-outcome',
  summary: 'The delete answers an informational OperationOutcome with MSG_DELETED_ID (4.5)',
  run: (x) => {
    const body = readObject(x);
    if (!body.ok) return body.finding;
    if (body.value.resourceType !== 'OperationOutcome')
      return fail(`Expected an OperationOutcome, received ${describe(body.value)}`);
    const issues = body.value.issue;
    if (!Array.isArray(issues) || !isRecord(issues[0])) {
      return fail(
        `Expected issue[0], received ${Array.isArray(issues) ? (issues.length === 0 ? 'no issue' : `issue[0] ${show(issues[0], 40)}`) : `issue ${describe(issues)}`}`,
      );
    }
    // The issue carrying MSG_DELETED_ID, read as every part of the suite reads codes (core/readers).
    const index = Math.max(
      0,
      issues.findIndex((i) => issueCodes(i).includes('MSG_DELETED_ID')),
    );
    const issue = issues[index] as Record<string, unknown>;
    const { severity, code, location, expression } = issue;
    const codes = issueCodes(issue);
    const evidence = {
      severity: briefValue(severity, 40),
      code: briefValue(code, 40),
      codes: codes.slice(0, 10).map((c) => briefValue(c, 60)),
      location: briefValue(location, 100),
      expression: expression === undefined ? 'absent' : briefValue(expression, 100),
      diagnostics: briefValue(issue.diagnostics),
      issueIndex: index,
    };
    const problems: string[] = [];
    if (severity !== 'information') problems.push(`severity ${show(severity, 40)}`);
    if (code !== 'informational') problems.push(`code ${show(code, 40)}`);
    if (!codes.includes('MSG_DELETED_ID'))
      problems.push(`detail codes ${codes.length === 0 ? '<none>' : show(codes, 80)}`);
    if (!(location === 'CONTRACTS' || (Array.isArray(location) && location.includes('CONTRACTS'))))
      problems.push(`location ${show(location, 60)}`);
    if (!(expression === undefined || expression === '' || (Array.isArray(expression) && expression.length === 0)))
      problems.push(`expression ${show(expression, 60)}`);
    if (typeof issue.diagnostics !== 'string') problems.push(`diagnostics ${show(issue.diagnostics, 40)}`);
    if (problems.length === 0) return pass('information / informational, MSG_DELETED_ID at CONTRACTS', evidence);
    return fail(
      `Expected an issue with severity "information", code "informational", detail code MSG_DELETED_ID, diagnostics text, location CONTRACTS and an empty expression (4.5), received ${problems.join('; ')}`,
      evidence,
    );
  },
};
