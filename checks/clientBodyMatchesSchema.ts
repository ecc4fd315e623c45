import { fail, pass, type Check } from '../core/check.ts';
import type { ClientRequest } from '../core/clientRequest.ts';
import { validateAgainst } from '../core/schemaRegistry.ts';

/**
 * The JSON body the client sends is the resource the documents describe for its operation (a
 * Patient without id to create, a Condition, a Contract): it validates against the operation's
 * request schema (schemas/*-request.schema.json, spec/requestBodies.ts).
 */
export const clientBodyMatchesSchema = (schemaFile: string): Check<ClientRequest> => ({
  id: 'client-body-matches-schema',
  summary: `The request body validates against ${schemaFile}`,
  run: (request) => {
    let body: unknown;
    try {
      body = JSON.parse(request.body ?? '');
    } catch (e) {
      return fail(`Expected a JSON body (${schemaFile}), received text that does not parse: ${(e as Error).message}`);
    }
    const v = validateAgainst(schemaFile, body);
    return v.valid
      ? pass(`The body validates against ${schemaFile}`)
      : fail(`Expected a body valid against ${schemaFile}, received ${v.errors.slice(0, 3).join('; ')}`, {
          errors: v.errors,
        });
  },
});
