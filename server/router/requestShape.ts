/**
 * The documented shape of a JSON request body (Document 3, 2.4, 2.5, 4.4, 4.5): the request schema
 * of the operation (spec/requestBodies.ts). The handlers check what they read first, with their
 * own codes; a body they would take but whose shape the documents refuse (a member of the wrong
 * type, outside its listed values, an item without its required members) is refused last, before
 * anything is stored, with a code of the operation's table (DEC-D3-67).
 */
import { validateAgainst } from '../../core/schemaRegistry.ts';
import { ApiError } from './errors.ts';

/** The status and code of a refused shape: a required member missing, or anything else. */
export interface ShapeRefusals {
  missing: readonly [number, string];
  invalid: readonly [number, string];
}

/** Throws the table's refusal when the body does not validate against the schema file. */
export function requireShape(schemaFile: string, body: unknown, refusals: ShapeRefusals): void {
  const result = validateAgainst(schemaFile, body);
  if (result.valid) return;
  const first = result.errors[0] ?? 'invalid';
  const [status, code] = /must have required property/.test(first) ? refusals.missing : refusals.invalid;
  throw new ApiError(status, code, `The body is not of the documented shape: ${first}`);
}
