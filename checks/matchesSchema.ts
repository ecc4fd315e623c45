import { fail, pass, type Check } from '../core/check.ts';
import { validateAgainst } from '../core/schemaRegistry.ts';
import { readJson } from './readJson.ts';

/** At most this many schema errors in a failure message. */
const SHOWN_ERRORS = 5;

/**
 * The response body has the documented shape: it parses as JSON and validates against the
 * schema file of the operation's response (document 1, section 2 per resource: 2.1 Bundles,
 * 2.2 Coverage, 2.3 OperationOutcome, 2.4-2.8). An unknown schema file is a suite bug and throws.
 */
export function matchesSchema(schemaFile: string): Check {
  return {
    id: 'matches-schema',
    summary: `The body validates against ${schemaFile}`,
    run: (x) => {
      const json = readJson(x);
      if (!json.ok) return json.finding;
      const result = validateAgainst(schemaFile, json.value);
      if (result.valid) return pass(`valid against ${schemaFile}`, { schema: schemaFile });
      const shown = result.errors.slice(0, SHOWN_ERRORS).join('; ');
      const more = result.errors.length > SHOWN_ERRORS ? `; and ${result.errors.length - SHOWN_ERRORS} more` : '';
      return fail(`Expected a body valid against ${schemaFile}, received ${shown}${more}`, {
        schema: schemaFile,
        errors: result.errors,
      });
    },
  };
}
