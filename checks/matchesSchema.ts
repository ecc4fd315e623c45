import { fail, pass, type Check } from '../core/check.ts';
import { validateAgainst } from '../core/schemaRegistry.ts';
import { readJson } from './readJson.ts';

/** At most this many schema errors in a failure message. */
const SHOWN_ERRORS = 5;

/**
 * The JSON pointers of the members an error line is about: its instance path, and for a missing
 * required property that property below it.
 */
export function failedMembers(lines: readonly string[]): string[] {
  const members = new Set<string>();
  for (const line of lines) {
    const [path = '/'] = line.split(' ', 1);
    const missing = /must have required property '([^']+)'/.exec(line)?.[1];
    if (missing !== undefined) members.add(`${path === '/' ? '' : path}/${missing}`);
    else if (path !== '/') members.add(path);
  }
  return [...members];
}

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
      // The message leads with the causes; the alternatives they explain stay in the evidence.
      const causes = result.errors.slice(0, result.causes ?? result.errors.length);
      const shown = causes.slice(0, SHOWN_ERRORS).join('; ');
      const more = causes.length > SHOWN_ERRORS ? `; and ${causes.length - SHOWN_ERRORS} more` : '';
      return {
        ...fail(`Expected a body valid against ${schemaFile}, received ${shown}${more}`, {
          schema: schemaFile,
          errors: result.errors,
        }),
        members: failedMembers(causes),
      };
    },
  };
}
