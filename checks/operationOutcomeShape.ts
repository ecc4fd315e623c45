import { fail, pass, type Check } from '../core/check.ts';
import { outcomeCodesOf } from '../core/readers/errorCode.ts';
import { validateAgainst } from '../core/schemaRegistry.ts';
import { readJson } from './readJson.ts';

const SCHEMA = 'operation-outcome.schema.json';
const SHOWN_ERRORS = 5;

/**
 * The error body is an OperationOutcome as section 2.3 describes it (document 1): it validates
 * against `operation-outcome.schema.json` and an issue carries an error code in
 * `issue[].details.coding[].code` (any coding of any issue, DEC-D1-46; MUST for Find Member,
 * SHOULD for the remittance searches, DEC-D1-14).
 */
export const operationOutcomeShape: Check = {
  id: 'operation-outcome-shape',
  summary: 'The error body is an OperationOutcome with an error code (2.3)',
  run: (x) => {
    const json = readJson(x);
    if (!json.ok) return json.finding;
    const problems = validateAgainst(SCHEMA, json.value).errors.slice(0, SHOWN_ERRORS);
    const code = outcomeCodesOf(json.value)[0];
    if (code === undefined) problems.push('no issue[].details.coding[].code');
    if (problems.length === 0) return pass(`OperationOutcome with code ${code as string}`, { code });
    return fail(`Expected an OperationOutcome with an error code (2.3), received ${problems.join('; ')}`, { code });
  },
};
