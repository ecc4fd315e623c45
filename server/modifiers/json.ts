/**
 * Small helpers the variants use to rewrite requests and JSON answers by meaning: walk every
 * object, find the resources of a bundle, give an absent optional member the value null, read an
 * error code, edit a query or a form.
 */
import type { SandboxRequest, WireReply } from '../router/types.ts';

import { arr, isObject, type JsonObject } from '../router/json.ts';

export { arr, isObject, type JsonObject };

/** A deep copy with `visit` applied to every object, children first; `visit` returns the replacement. */
export function mapObjects(
  value: unknown,
  visit: (o: JsonObject, path: readonly string[]) => JsonObject,
  path: readonly string[] = [],
): unknown {
  if (Array.isArray(value)) return value.map((v) => mapObjects(v, visit, path));
  if (!isObject(value)) return value;
  const copy: JsonObject = {};
  for (const [k, v] of Object.entries(value)) copy[k] = mapObjects(v, visit, [...path, k]);
  return visit(copy, path);
}

/** Every object with the given `resourceType`, wherever it is (bundle entries, contained, included). */
export function mapResources(value: unknown, resourceType: string, visit: (r: JsonObject) => JsonObject): unknown {
  return mapObjects(value, (o) => (o.resourceType === resourceType ? visit(o) : o));
}

/** A 2xx answer with a JSON object body, each resource of the type rewritten by `visit`; any other reply is kept. */
export function mapAnsweredResources<R extends { status: number; body?: unknown }>(
  reply: R,
  resourceType: string,
  visit: (r: JsonObject) => JsonObject,
): R {
  return reply.status >= 200 && reply.status < 300 && isObject(reply.body)
    ? { ...reply, body: mapResources(reply.body, resourceType, visit) }
    : reply;
}

/** The answer on the wire with `application/fhir+json` written as `application/json` (another JSON media type). */
export function fhirJsonAsPlainJson(wire: WireReply): WireReply {
  const ct = wire.headers['content-type'];
  return ct === undefined
    ? wire
    : {
        ...wire,
        headers: { ...wire.headers, 'content-type': ct.replace(/application\/fhir\+json/i, 'application/json') },
      };
}

/** The object with each named member that is absent given the value null (present members are kept). */
export function nullWhereAbsent(o: JsonObject, members: readonly string[]): JsonObject {
  const copy = { ...o };
  for (const m of members) if (!(m in copy)) copy[m] = null;
  return copy;
}

/** The object with each named member set to null, whether present or not. */
export function nullMembers(o: JsonObject, members: readonly string[]): JsonObject {
  const copy = { ...o };
  for (const m of members) copy[m] = null;
  return copy;
}

/** The object with its members in reverse order (JSON objects are unordered, RFC 8259 4). */
export function reverseMembers(o: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(o).reverse());
}

/** The first error code of an OperationOutcome body (`issue[0].details.coding[0].code`). */
export function errorCodeOf(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const issue = arr(body.issue)[0];
  const coding = isObject(issue) && isObject(issue.details) ? arr(issue.details.coding)[0] : undefined;
  return isObject(coding) && typeof coding.code === 'string' ? coding.code : undefined;
}

/** The request with its query rewritten (a copy: the reference handler sees the new query only). */
export function withQuery(req: SandboxRequest, edit: (q: URLSearchParams) => void): SandboxRequest {
  const query = new URLSearchParams(req.query);
  edit(query);
  return { ...req, query };
}

/** The request with its form rewritten, raw body included (a copy); a request without a form is kept. */
export function withForm(req: SandboxRequest, edit: (form: URLSearchParams) => void): SandboxRequest {
  if (!req.form) return req;
  const form = new URLSearchParams(req.form);
  edit(form);
  return { ...req, form, rawBody: form.toString() };
}

/** The request without the named query parameters and form fields (a server that ignores them). */
export function withoutParameters(req: SandboxRequest, names: readonly string[]): SandboxRequest {
  const drop = (p: URLSearchParams) => {
    for (const n of names) p.delete(n);
  };
  return withForm(withQuery(req, drop), drop);
}

/** The request with one query parameter or form field rewritten where present (`undefined` removes it). */
export function withParameter(
  req: SandboxRequest,
  name: string,
  rewrite: (value: string) => string | undefined,
): SandboxRequest {
  const edit = (p: URLSearchParams) => {
    const v = p.get(name);
    if (v === null) return;
    const next = rewrite(v);
    if (next === undefined) p.delete(name);
    else p.set(name, next);
  };
  return withForm(withQuery(req, edit), edit);
}

/** A query parameter or form field of the request. */
export const parameterOf = (req: SandboxRequest, name: string): string | undefined =>
  req.form?.get(name) ?? req.query.get(name) ?? undefined;
