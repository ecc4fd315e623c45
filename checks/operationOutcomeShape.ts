import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { validateAgainst } from '../core/schemaRegistry.ts';
import { readJson } from './readJson.ts';

const SCHEMA = 'operation-outcome.schema.json';
const SHOWN_ERRORS = 5;

/** `issue[0].details.coding[0].code`, or undefined anywhere along the way. */
function firstCode(body: unknown): unknown {
  if (!isRecord(body) || !Array.isArray(body.issue)) return undefined;
  const issue: unknown = body.issue[0];
  if (!isRecord(issue) || !isRecord(issue.details) || !Array.isArray(issue.details.coding)) return undefined;
  const coding: unknown = issue.details.coding[0];
  return isRecord(coding) ? coding.code : undefined;
}

/**
 * The error body is an OperationOutcome as section 2.3 describes it (document 1): it validates
 * against `operation-outcome.schema.json` and its first issue carries an error code in
 * `issue[0].details.coding[0].code` (MUST for Find Member, SHOULD for the remittance searches,
 * DEC-D1-14).
 */
export const operationOutcomeShape: Check = {
  id: 'operation-outcome-shape',
  summary: 'The error body is an OperationOutcome with an error code (2.3)',
  run: (x) => {
    const json = readJson(x);
    if (!json.ok) return json.finding;
    const problems = validateAgainst(SCHEMA, json.value).errors.slice(0, SHOWN_ERRORS);
    const code = firstCode(json.value);
    if (!(typeof code === 'string' && code.trim() !== ''))
      problems.push(`issue[0].details.coding[0].code is ${show(code, 40)}`);
    if (problems.length === 0) return pass(`OperationOutcome with code ${code as string}`, { code });
    return fail(`Expected an OperationOutcome with an error code (2.3), received ${problems.join('; ')}`, { code });
  },
};
