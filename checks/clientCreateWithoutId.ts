import { fail, pass, show, type Check } from '../core/check.ts';
import { type ClientRequest, jsonOf } from '../core/clientRequest.ts';

/** The operations whose documented request body is a resource "without id" (Document 3, 4.4). */
const CREATES_WITHOUT_ID: ReadonlySet<string> = new Set(['create-patient']);

/**
 * A create sends the resource without an `id` of the client's own: Document 3, 4.4, Create
 * patient takes a "Patient body (2.4) without id" and answers "the created Patient with its new
 * `id` (to be stored by the caller)". The request schema (patient-create-request.schema.json)
 * leaves `id` allowed, so the client side judges its absence here. A body that does not parse is
 * `client-body-matches-schema`'s to fail.
 */
export const clientCreateWithoutId: Check<ClientRequest> = {
  id: 'client-create-without-id',
  summary: 'A create request sends the resource without an id of its own',
  appliesTo: (request) => CREATES_WITHOUT_ID.has(request.operation.id),
  run: (request) => {
    const body = jsonOf(request.body);
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return pass('The body is no JSON object: no id to judge (client-body-matches-schema judges the body)');
    const id = (body as Record<string, unknown>).id;
    return id === undefined
      ? pass(`The ${request.operation.id} body carries no id`)
      : fail(`Expected a body without id (the server gives the new id), received id ${show(id)}`, { id });
  },
};
