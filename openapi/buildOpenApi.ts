/**
 * The OpenAPI 3.1 export (issue 12, item 1): one document per service and one for the whole
 * family, generated from the operation table (spec/operations.ts), the requirement table and the
 * JSON Schemas (schemas/), never written by hand. Pure and deterministic: the same table and
 * schemas give the same document, key for key.
 *
 * Choices (docs/openapi.md says them to users):
 * - Paths are the sandbox's reference addresses (server/router/addresses.ts plus the operation's
 *   `pathSuffix`); a real target's addresses come from its discovery documents, so each
 *   operation names its discovery key (`x-discovery-key`) and the documents' path
 *   (`x-documented-path`).
 * - OpenAPI allows one operation per method and path. Table operations that share both (Find
 *   Member v1/v2, told apart by `SVC-API-Version`; the contract upserts, deletes and price
 *   settings, told apart by their body or query) become one OpenAPI operation listing their ids
 *   in `x-conformance-operations`, with the union (`anyOf`) of their bodies and answers.
 * - An optional trailing path parameter (`get-code-set`'s `scheme`) gives a second path without
 *   it, as the sandbox serves it: OpenAPI path parameters are always required.
 * - A success status the documents do not show is `2XX`; refusals whose status the documents
 *   leave open (they require "a 4xx") are the `4XX` answer, with the operation's error body.
 */
import { readFileSync } from 'node:fs';
import { addressOf, DISCOVERY_PATHS } from '../server/router/addresses.ts';
import { operations } from '../spec/operations.ts';
import { loadRequirements } from '../spec/requirements.ts';
import { REQUEST_BODY_SCHEMAS } from '../spec/requestBodies.ts';
import type { FeatureName, HeaderRequirement, HttpMethod, Operation, Parameter, ServiceId } from '../spec/types.ts';
import { componentRef, type Json, type JsonObject, schemaComponentsFor } from './schemaComponents.ts';

export type { Json, JsonObject } from './schemaComponents.ts';

/** An OpenAPI 3.1 document as plain JSON. */
export type OpenApiDocument = JsonObject;

export interface OpenApiOptions {
  /** The base URL of the server that serves the operations (the sandbox fills it from the request). */
  serverUrl?: string;
}

/** Every service of the table, in table order. */
export const SERVICES: readonly ServiceId[] = [...new Set(operations.map((o) => o.service))];

/**
 * Services whose answers are `application/fhir+json` (DEC-D2-26; Document 3 patients and
 * contracts), the others `application/json`: the sandbox's FHIR_SERVICES
 * (server/router/routes.ts). Not imported from there: routes.ts serves these documents, so the
 * import would be a cycle; buildOpenApi.test.ts pins the two lists equal.
 */
export const FHIR_JSON_SERVICES: ReadonlySet<ServiceId> = new Set([
  'claims',
  'reference',
  'register',
  'booking',
  'patients',
  'contracts',
]);

export { REQUEST_BODY_SCHEMAS } from '../spec/requestBodies.ts';

const TITLE = 'Membership, claims, reference data and accounts API family';
const METHOD_ORDER: readonly HttpMethod[] = ['GET', 'PUT', 'POST', 'DELETE'];

/**
 * Error bodies the schemas/ folder does not hold, because the documents give no JSON shape for
 * them; defined here so that every answer the sandbox gives has a schema to meet.
 */
const GENERATED_SCHEMAS: Readonly<Record<string, JsonObject>> = {
  InvalidId: {
    type: 'object',
    description:
      'Document 1, 4.7, 4.8 and 7: "an object of type id plus the id" (DEC-D1-11: a 4xx status and the text InvalidId in the body are what is required). The sandbox answers {"code": "InvalidId", "type": "id", "id": "<id>"}.',
    properties: { code: { type: 'string' }, type: { type: 'string' }, id: { type: 'string' } },
  },
  OAuthError: {
    type: 'object',
    description:
      'An OAuth error body (RFC 6749, 5.2), as the sandbox answers a revocation it refuses; Document 3 does not show the answer (DEC-D3-39).',
    required: ['error'],
    properties: { error: { type: 'string' }, error_description: { type: 'string' } },
  },
};

const HEADER_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'SU-SiteId':
    'The site the request acts for (Document 1, 1 and 5; Document 3, 5). The token must be allowed to act for it.',
  'SVC-API-Version':
    'The API version the caller states: Find Member takes 1 (deprecated) or 2 (Document 1, 9); the patient operations take a version-id header whose name is not shown, sent as SVC-API-Version: 1 (DEC-D3-07).',
  'SU-UserId': 'The user a client-credentials token asks about (Document 3, 4.1).',
};

const SECURITY_SCHEMES: JsonObject = {
  clientToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A client token: the client-credentials grant of the authorisation server (the sandbox: POST /oauth/token with grant_type=client_credentials).',
  },
  userToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A user token: the password grant of the authorisation server with the client credentials (the sandbox: POST /oauth/token with grant_type=password).',
  },
  diaryToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The diary token that post authorisation (Document 3, 4.3) returns.',
  },
  basicAuth: {
    type: 'http',
    scheme: 'basic',
    description: 'The client id and secret (token revocation and token details, Document 3, 4.2).',
  },
};

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const isDeprecated = (op: Operation) => /deprecated/i.test(op.summary); // the table marks it in the summary only
const jsonKey = (value: Json) => JSON.stringify(value);

function distinct<T extends Json>(values: readonly T[]): T[] {
  const seen = new Map<string, T>();
  for (const v of values) if (!seen.has(jsonKey(v))) seen.set(jsonKey(v), v);
  return [...seen.values()];
}

/** One value when every merged operation has it, otherwise the value of each by operation id. */
function uniform(ops: readonly Operation[], value: (op: Operation) => Json): Json {
  const values = ops.map(value);
  if (distinct(values).length === 1) return values[0];
  return Object.fromEntries(ops.map((o, i) => [o.id, values[i]]));
}

/** `anyOf` of distinct schemas, or the one schema. */
function union(schemas: readonly JsonObject[]): JsonObject {
  const unique = distinct(schemas);
  return unique.length === 1 ? unique[0] : { anyOf: unique };
}

// ---------------------------------------------------------------------------------------------
// Parameters and bodies

function parameterSchema(p: Parameter): JsonObject {
  if (p.values) return { type: 'string', enum: [...p.values] };
  switch (p.format) {
    case 'date':
      return { type: 'string', format: 'date' };
    case 'date-time':
      return { type: 'string', format: 'date-time' };
    case 'date-range':
      return { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}_\\d{4}-\\d{2}-\\d{2}$' };
    case 'datetime-range':
      return {
        type: 'string',
        pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(_\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2})?$',
      };
    case 'comparator-decimal':
      return { type: 'string', pattern: '^(le|ge|eq)\\d+(\\.\\d+)?$' };
    case 'boolean':
      return { type: 'boolean' };
    case 'positive-integer':
      return { type: 'integer', minimum: 1 };
    case 'near':
      return { type: 'string', pattern: '^-?\\d+(\\.\\d+)?:-?\\d+(\\.\\d+)?(:\\d+(\\.\\d+)?(:(km|mi|m))?)?$' };
    case 'distance':
      return { type: 'string', pattern: '^\\d+(\\.\\d+)?(km|mi|m)?$' };
    default:
      return { type: 'string' };
  }
}

const featureNote = (features: readonly FeatureName[] | undefined) =>
  features?.length ? ` Needs feature ${features.join(' and ')}.` : '';

function formSchema(op: Operation, location: 'form' | 'multipart'): JsonObject | undefined {
  const fields = op.parameters.filter((p) => p.in === location);
  if (fields.length === 0) return undefined;
  const required = fields.filter((p) => p.required).map((p) => p.name);
  return {
    type: 'object',
    title: op.id,
    ...(required.length ? { required } : {}),
    properties: Object.fromEntries(
      fields.map((p) => [
        p.name,
        { ...parameterSchema(p), description: `${p.description}.${featureNote(p.features)}`.replace('..', '.') },
      ]),
    ),
  };
}

/** The request body of the merged operations, by media type. */
function requestBodyOf(ops: readonly Operation[]): JsonObject | undefined {
  const content: Record<string, JsonObject[]> = {};
  const add = (mediaType: string, schema: JsonObject | undefined) => {
    if (schema) content[mediaType] = [...(content[mediaType] ?? []), schema];
  };
  let required = false;
  for (const op of ops) {
    add('application/x-www-form-urlencoded', formSchema(op, 'form'));
    add('multipart/form-data', formSchema(op, 'multipart'));
    const body = op.parameters.find((p) => p.in === 'body');
    if (body) {
      const file = REQUEST_BODY_SCHEMAS[op.id];
      if (!file) throw new Error(`Expected a request body schema for ${op.id}, received none`);
      const type = op.headers.find((h) => h.name === 'Content-Type')?.value ?? 'application/json';
      add(type, { $ref: componentRef(file) });
    }
    required ||= op.parameters.some((p) => (p.in === 'body' || p.in === 'form' || p.in === 'multipart') && p.required);
  }
  const types = Object.keys(content);
  if (types.length === 0) return undefined;
  const descriptions = ops.flatMap((o) => o.parameters.filter((p) => p.in === 'body').map((p) => p.description));
  return {
    ...(descriptions.length ? { description: distinct(descriptions).join('; ') } : {}),
    required,
    content: Object.fromEntries(types.map((t) => [t, { schema: union(content[t]) }])),
  };
}

function headerParameterSchema(ops: readonly Operation[], name: string): JsonObject {
  const uses = ops.flatMap((op) => {
    const h = op.headers.find((x) => x.name === name);
    return h ? [{ op, h }] : [];
  });
  const fixed = uses.filter(({ h }) => !h.value.includes('{'));
  if (fixed.length === 0) return { type: 'string', minLength: 1 };
  if (distinct(fixed.map(({ h }) => h.value)).length === 1) return { type: 'string', const: fixed[0].h.value };
  // Merged operations told apart by this header's fixed value (Find Member v1/v2).
  return {
    oneOf: fixed.map(({ op, h }) => ({
      const: h.value,
      description: `${op.id}: ${op.summary}`,
      ...(isDeprecated(op) ? { deprecated: true } : {}),
    })),
  };
}

/** Path, query and header parameters of the merged operations (Authorization and Content-Type excluded: OpenAPI describes them elsewhere). */
function parametersOf(ops: readonly Operation[], pathParams: readonly string[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const name of pathParams) {
    const p = ops[0].parameters.find((x) => x.in === 'path' && x.name === name) as Parameter;
    out.push({ name, in: 'path', required: true, description: p.description, schema: parameterSchema(p) });
  }
  const queryNames = distinct(ops.flatMap((o) => o.parameters.filter((p) => p.in === 'query').map((p) => p.name)));
  for (const name of queryNames) {
    const uses = ops.flatMap((o) => {
      const p = o.parameters.find((x) => x.in === 'query' && x.name === name);
      return p ? [{ o, p }] : [];
    });
    const descriptions = distinct(uses.map(({ p }) => p.description));
    const description =
      ops.length === 1 || (descriptions.length === 1 && uses.length === ops.length)
        ? descriptions[0]
        : uses.map(({ o, p }) => `${o.id}: ${p.description}`).join('; ');
    const features = distinct(uses.flatMap(({ p }) => [...(p.features ?? [])]));
    out.push({
      name,
      in: 'query',
      required: uses.length === ops.length && uses.every(({ p }) => p.required),
      description: `${description}.${featureNote(features)}`.replace('..', '.'),
      schema: union(uses.map(({ p }) => parameterSchema(p))),
      ...(features.length ? { 'x-features': features } : {}),
    });
  }
  const headerNames = distinct(
    ops.flatMap((o) => o.headers.map((h) => h.name).filter((n) => n !== 'Authorization' && n !== 'Content-Type')),
  );
  for (const name of headerNames) {
    const uses: HeaderRequirement[] = ops.flatMap((o) => o.headers.filter((h) => h.name === name));
    out.push({
      name,
      in: 'header',
      required: uses.length === ops.length && uses.every((h) => h.enforced),
      description: HEADER_DESCRIPTIONS[name] ?? `The ${name} header.`,
      schema: headerParameterSchema(ops, name),
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Security and answers

function securityOf(op: Operation): JsonObject[] {
  const auth = op.headers.find((h) => h.name === 'Authorization');
  if (!auth) return [];
  // The table names the credential (Bearer or Basic, the diary token); which bearer token is
  // the documents' section 5: a user token for patients, a user or client token for accounts.
  const schemes = auth.value.startsWith('Basic')
    ? ['basicAuth']
    : auth.value.includes('{diaryToken}')
      ? ['diaryToken']
      : op.service === 'patients'
        ? ['userToken']
        : op.service === 'accounts'
          ? ['userToken', 'clientToken']
          : ['clientToken'];
  const alternatives: JsonObject[] = schemes.map((s) => ({ [s]: [] }));
  return auth.enforced ? alternatives : [...alternatives, {}];
}

type ErrorShape = 'outcome' | 'accounts' | 'token-details' | 'oauth' | 'invalid-id' | 'empty';

/**
 * Which error body an answer carries: the OperationOutcome (Document 1, 2.3; Document 2 and the
 * Document 3 patients and contracts alike), the accounts `{message, code}` (Document 3, 2.2 and
 * 7), the token-details `{status: 'fail', message, code}` (7), no body for the diary's 401 (4.3),
 * the batches' InvalidId object (Document 1, 7), the revocation's OAuth error (DEC-D3-39).
 */
function errorShapeOf(op: Operation, status: number, code?: string): ErrorShape {
  if (code === 'InvalidId') return 'invalid-id';
  if (op.service === 'accounts') return 'accounts';
  if (op.service === 'diary' && status === 401) return 'empty';
  if (op.service === 'auth' && op.errors.length > 0) return 'token-details';
  if (op.service === 'auth' && op.headers.some((h) => h.value.startsWith('Basic'))) return 'oauth';
  return 'outcome';
}

const SHAPE_SCHEMAS: Readonly<Record<Exclude<ErrorShape, 'empty'>, JsonObject>> = {
  outcome: { $ref: componentRef('operation-outcome.schema.json') },
  accounts: { $ref: componentRef('accounts-error.schema.json') },
  'token-details': { $ref: componentRef('token-details-error.schema.json') },
  oauth: { $ref: '#/components/schemas/OAuthError' },
  'invalid-id': { $ref: '#/components/schemas/InvalidId' },
};

/**
 * Error bodies whose shape the documents do not fix, by operation, with the decision that says so:
 * the exported document then shows the expected shape but accepts any JSON object, as the suite
 * does (never stricter than the suite's own judgement).
 */
const OPEN_ERROR_BODIES: Readonly<Record<string, string>> = {
  'search-remittance-summary': 'DEC-D1-14',
  'search-remittance-detail': 'DEC-D1-14',
  'lookup-practitioners': 'DEC-D2-07',
  'lookup-locations': 'DEC-D2-07',
  'diary-post-auth': 'DEC-D3-10',
  // An unknown address id may be refused with a body of the target's own (DEC-D2-50: "a 4xx ... passes").
  'retrieve-address': 'DEC-D2-50',
  // D2 7: "The shape of the error body: not shown." (DEC-D2-24).
  ...Object.fromEntries(
    operations.filter((o) => o.document === 'D2' && o.id !== 'retrieve-address').map((o) => [o.id, 'DEC-D2-24']),
  ),
  // D3 7: the body of patient errors is not shown (DEC-D3-55).
  ...Object.fromEntries(
    ['create-patient', 'get-patient', 'update-patient', 'delete-patient', 'create-condition', 'delete-condition'].map(
      (id) => [id, 'DEC-D3-55'],
    ),
  ),
};

/** The error body of an operation: its documented shape, or any object where the shape is open. */
function errorBody(op: Operation, shape: ErrorShape): JsonObject | undefined {
  if (shape === 'empty') return undefined;
  const decision = OPEN_ERROR_BODIES[op.id];
  return decision
    ? {
        description: `The documents do not fix this body (${decision}); the shape below is the expected one.`,
        anyOf: [SHAPE_SCHEMAS[shape], { type: 'object' }],
      }
    : SHAPE_SCHEMAS[shape];
}

/**
 * Success bodies a conforming server may answer besides the documented one, by operation, with the
 * decision that allows them.
 */
const OTHER_SUCCESS_BODIES: Readonly<Record<string, { decision: string; schema: JsonObject }>> = {
  'get-insurer-control-parameters': {
    decision: 'DEC-D2-41',
    schema: {
      description:
        'An unknown insurer: D2 7, "an empty result set is returned when nothing matches" (DEC-D2-41): a Bundle without entries.',
      type: 'object',
      required: ['resourceType'],
      properties: { resourceType: { const: 'Bundle' }, entry: { type: 'array', maxItems: 0 } },
    },
  },
  'retrieve-address': {
    decision: 'DEC-D2-50',
    schema: { description: 'An id that names no address: an empty array (DEC-D2-50).', type: 'array', maxItems: 0 },
  },
  'geocode-postcode': {
    decision: 'DEC-D2-51',
    schema: {
      description: 'An unknown or invalid postcode answered 200 without a position (DEC-D2-51).',
      type: 'object',
      required: ['latitude', 'longitude'],
      properties: { latitude: { type: 'null' }, longitude: { type: 'null' } },
    },
  },
};

const mediaTypeOf = (op: Operation) =>
  FHIR_JSON_SERVICES.has(op.service) ? 'application/fhir+json' : 'application/json';

/** One operation's contribution to one response key. */
interface Answer {
  key: string;
  op: Operation;
  description: string;
  /** Undefined: no body. */
  schema?: JsonObject;
  codes: string[];
}

/** Where spec/decisions.md settles the answer to a request without credentials, by document. */
const AUTH_DECISIONS: Readonly<Record<Operation['document'], string>> = {
  D1: 'DEC-D1-21',
  D2: 'DEC-D2-61',
  D3: 'DEC-D3-07, DEC-D3-39',
};

/** The schema of a success body the documents do not show (it may also be absent, DEC-D3-19). */
export const NOT_SHOWN_BODY: JsonObject = { description: 'The documents do not show this body.' };

function answersOf(op: Operation): Answer[] {
  const answers: Answer[] = [];
  const body = (shape: ErrorShape) => errorBody(op, shape);
  const other = OTHER_SUCCESS_BODIES[op.id];
  answers.push({
    key: op.successStatus === undefined ? '2XX' : String(op.successStatus),
    op,
    description:
      op.successStatus === undefined
        ? 'Success. The documents do not show the status: any 2xx.'
        : `Success (HTTP ${op.successStatus}).`,
    schema:
      op.responseMediaType === 'none'
        ? undefined
        : op.responseSchema
          ? other
            ? { anyOf: [{ $ref: componentRef(op.responseSchema) }, other.schema] }
            : { $ref: componentRef(op.responseSchema) }
          : NOT_SHOWN_BODY,
    codes: [],
  });
  const statuses = distinct(op.errors.map((e) => e.status)).sort((a, b) => a - b);
  for (const status of statuses) {
    const rows = op.errors.filter((e) => e.status === status);
    answers.push(
      ...distinct(rows.map((e) => errorShapeOf(op, status, e.code))).map((shape) => {
        const mine = rows.filter((e) => errorShapeOf(op, status, e.code) === shape);
        return {
          key: String(status),
          op,
          description: `Error table (section 7): ${mine.map((e) => (e.code ? `${e.code} (${e.meaning})` : e.meaning)).join('; ')}.`,
          schema: body(shape),
          codes: mine.map((e) => e.code).filter((c) => c !== ''),
        };
      }),
    );
  }
  const auth = op.headers.find((h) => h.name === 'Authorization' && h.enforced);
  if (auth && !statuses.includes(401)) {
    answers.push({
      key: '401',
      op,
      description: `Missing or unknown credentials. The documents require a refusal (${AUTH_DECISIONS[op.document]}); the sandbox answers 401.`,
      schema: body(errorShapeOf(op, 401)),
      codes: [],
    });
  }
  answers.push({
    key: '4XX',
    op,
    description:
      'Any other refusal: the documents require a 4xx status where they leave the status or code open (a missing or wrong SU-SiteId or version header, an unknown id, a value outside a list; see spec/decisions.md).',
    // Any of the operation's error bodies: a refusal whose status is open may carry any of them
    // (an unknown batch id answered 400 with InvalidId, DEC-D1-11).
    schema: anyBody(
      distinct(
        [400, ...statuses].flatMap((status) => [
          errorShapeOf(op, status),
          ...op.errors.filter((e) => e.status === status).map((e) => errorShapeOf(op, status, e.code)),
        ]),
      ).flatMap((shape): JsonObject[] => {
        const b = body(shape);
        return b ? [b] : [];
      }),
    ),
    codes: [],
  });
  return answers;
}

/** One schema, or the union of several (undefined when there is none: no body). */
function anyBody(schemas: readonly JsonObject[]): JsonObject | undefined {
  const unique = schemas.filter((x, i) => schemas.findIndex((y) => JSON.stringify(y) === JSON.stringify(x)) === i);
  return unique.length === 0 ? undefined : unique.length === 1 ? unique[0] : { anyOf: unique };
}

function responsesOf(ops: readonly Operation[]): JsonObject {
  const all = ops.flatMap(answersOf);
  const keys = distinct(all.map((a) => a.key)).sort((a, b) => byName(a, b));
  const responses: JsonObject = {};
  for (const key of keys) {
    const here = all.filter((a) => a.key === key);
    const descriptions = distinct(here.map((a) => a.description));
    const description =
      descriptions.length === 1 ? descriptions[0] : here.map((a) => `${a.op.id}: ${a.description}`).join(' ');
    const withBody = here.filter((a) => a.schema !== undefined);
    const codes = distinct(here.flatMap((a) => a.codes));
    const content: JsonObject = {};
    for (const mediaType of distinct(withBody.map((a) => mediaTypeOf(a.op)))) {
      const schemas = withBody.filter((a) => mediaTypeOf(a.op) === mediaType).map((a) => a.schema as JsonObject);
      content[mediaType] = { schema: union(schemas) };
    }
    // Any JSON media type conforms (DEC-D2-26: the specific one is SHOULD): the documented one
    // first, the other JSON one with the same schema, so a tool reading this document does not
    // refuse a server that answers a FHIR-style operation as `application/json`, or the reverse.
    for (const [documented, other] of [
      ['application/fhir+json', 'application/json'],
      ['application/json', 'application/fhir+json'],
    ] as const)
      if (content[documented] && !content[other]) content[other] = content[documented];
    responses[key] = {
      description,
      ...(withBody.length ? { content } : {}),
      ...(codes.length ? { 'x-error-codes': codes } : {}),
    };
  }
  return responses;
}

// ---------------------------------------------------------------------------------------------
// Paths

interface Placement {
  op: Operation;
  path: string;
  /** Path parameters, in path order. */
  pathParams: string[];
  /** Optional trailing path parameters left out of this path. */
  dropped: string[];
}

/** The paths an operation is served at: its full path, then without each optional trailing path parameter. */
function placementsOf(op: Operation): Placement[] {
  const base = addressOf(op.service, op.discoveryKey);
  const parts = op.pathSuffix.split('/');
  const placements: Placement[] = [];
  const dropped: string[] = [];
  for (let n = parts.length; ; n--) {
    const suffix = parts.slice(0, n).join('/');
    const path = `${base}${suffix}`;
    placements.push({
      op,
      path,
      pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
      dropped: [...dropped],
    });
    const last = /^\{(.+)\}$/.exec(parts[n - 1] ?? '')?.[1];
    if (last === undefined || op.parameters.some((p) => p.in === 'path' && p.name === last && p.required)) break;
    dropped.push(last);
  }
  return placements;
}

const requirementsByOperation = (): Map<string, string[]> => {
  const map = new Map<string, string[]>();
  for (const r of loadRequirements()) for (const id of r.operations) map.set(id, [...(map.get(id) ?? []), r.id]);
  return map;
};

function operationObject(group: readonly Placement[], requirements: Map<string, string[]>): JsonObject {
  const ops = group.map((g) => g.op);
  const ids = ops.map((o) => o.id);
  const dropped = group[0].dropped;
  const merged = ops.length > 1;
  const deprecated = ops.filter(isDeprecated).map((o) => o.id);
  const differingHeader = ['SVC-API-Version'].find(
    (h) => distinct(ops.map((o) => o.headers.find((x) => x.name === h)?.value ?? '')).length > 1,
  );
  const lines = [
    ...ops.map(
      (o) =>
        `${merged ? `- \`${o.id}\`: ${o.summary}. ` : ''}Document ${o.document}, section ${o.section}; documented path \`${o.documentedPath}\`; discovery key \`${o.discoveryKey}\`.${o.reservedForOperator ? ' Reserved for the operator.' : ''}${o.destructive ? ' Destructive: it creates, changes or deletes data.' : ''}${isDeprecated(o) ? ' Deprecated.' : ''}`,
    ),
  ];
  if (merged) {
    lines.unshift(
      `OpenAPI allows one operation per method and path, and these operations of the table share both; they are told apart by ${differingHeader ? `the ${differingHeader} header` : 'their request body or query parameters, as the documents describe'}. Bodies and answers are the union of theirs.`,
      '',
    );
  }
  if (dropped.length) lines.push('', `Served without the optional path parameter ${dropped.join(', ')} as well.`);
  const features = Object.fromEntries(
    ops.flatMap((o) => o.parameters.filter((p) => p.features?.length).map((p) => [p.name, [...(p.features ?? [])]])),
  );
  const operationId = `${ids.join('.')}${dropped.length ? `-without-${dropped.join('-')}` : ''}`;
  const requestBody = requestBodyOf(ops);
  return {
    operationId,
    summary: merged ? ops.map((o) => o.summary).join('; ') : ops[0].summary,
    description: lines.join('\n'),
    tags: distinct(ops.map((o) => o.service)),
    ...(deprecated.length === ops.length ? { deprecated: true } : {}),
    security: distinct(ops.flatMap(securityOf)),
    parameters: parametersOf(ops, group[0].pathParams),
    ...(requestBody ? { requestBody } : {}),
    responses: responsesOf(ops),
    'x-conformance-operations': ids,
    'x-discovery-key': uniform(ops, (o) => o.discoveryKey),
    'x-documented-path': uniform(ops, (o) => o.documentedPath),
    'x-document-section': uniform(ops, (o) => `${o.document} ${o.section}`),
    'x-reserved-for-operator': uniform(ops, (o) => o.reservedForOperator),
    'x-destructive': uniform(ops, (o) => o.destructive),
    ...(deprecated.length && deprecated.length < ops.length ? { 'x-deprecated-operations': deprecated } : {}),
    ...(ops.some((o) => o.apiVersion) ? { 'x-api-version': uniform(ops, (o) => o.apiVersion ?? null) } : {}),
    ...(Object.keys(features).length ? { 'x-features': features } : {}),
    'x-requirements': distinct(ids.flatMap((id) => requirements.get(id) ?? [])).sort(byName),
  };
}

function pathsOf(ops: readonly Operation[]): JsonObject {
  const requirements = requirementsByOperation();
  const groups = new Map<string, Map<HttpMethod, Placement[]>>();
  for (const op of ops) {
    for (const placement of placementsOf(op)) {
      const byMethod = groups.get(placement.path) ?? new Map<HttpMethod, Placement[]>();
      groups.set(placement.path, byMethod);
      byMethod.set(op.method, [...(byMethod.get(op.method) ?? []), placement]);
    }
  }
  const paths: JsonObject = {};
  for (const [path, byMethod] of groups) {
    const item: JsonObject = {};
    for (const method of METHOD_ORDER) {
      const group = byMethod.get(method);
      if (group) item[method.toLowerCase()] = operationObject(group, requirements);
    }
    paths[path] = item;
  }
  return paths;
}

// ---------------------------------------------------------------------------------------------
// The document

const packageVersion = (): string =>
  (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

function descriptionOf(service: ServiceId | undefined): string {
  return [
    `Generated from the conformance suite's operation table (spec/operations.ts), requirement table (spec/requirements.csv) and JSON Schemas (schemas/); do not edit: \`conformance openapi\` writes it again.`,
    '',
    `**Addresses.** The paths are the reference sandbox's addresses. The documents give no fixed paths: a real target publishes each operation's address in its discovery documents${service ? ` (this service's discovery document is served by the sandbox at \`${DISCOVERY_PATHS[service]}\`)` : ' (one per service)'}, under the key each operation names in \`x-discovery-key\`; \`x-documented-path\` is the path as the documents write it. Point a tool at another target by replacing the server URL only where its addresses match the sandbox's.`,
    '',
    '**Merged operations.** OpenAPI allows one operation per method and path. Where operations of the table share both (Find Member versions 1 and 2, told apart by `SVC-API-Version`; the contract payor upserts and deletes; the contract price settings and deletes), they are one OpenAPI operation whose `x-conformance-operations` lists the table ids; request bodies and answers are the union (`anyOf`) of theirs, and `x-deprecated-operations` names a deprecated member.',
    '',
    '**Headers.** `SU-SiteId` names the site a request acts for and `SVC-API-Version` the version the caller states (Find Member 1 or 2; the patient operations 1); both are header parameters, required where the documents require them. Tokens are the security schemes: a client or user bearer token, the diary token, or Basic client credentials.',
    '',
    "**Answers.** Each operation lists its success answer (`2XX` where the documents do not show the status), every row of its error table (codes in `x-error-codes`), 401 for missing credentials, and `4XX` for refusals whose status the documents leave open. Error bodies are the OperationOutcome, except the accounts' `{message, code}`, the token details' `{status, message, code}`, the batches' InvalidId and the diary's empty 401.",
    '',
    '**Extensions.** `x-conformance-operations`, `x-discovery-key`, `x-documented-path`, `x-document-section`, `x-reserved-for-operator`, `x-destructive`, `x-deprecated-operations`, `x-api-version`, `x-features` (feature gates by parameter) and `x-requirements` (ids of spec/requirements.csv rows citing the operation). Where merged operations differ, an extension holds the value of each by operation id.',
  ].join('\n');
}

const cache = new Map<string, OpenApiDocument>();

/**
 * The OpenAPI 3.1 document of one service, or of the whole family without an argument. The
 * server is the sandbox (its URL when given, otherwise a templated local address).
 */
export function buildOpenApiDocument(service?: ServiceId, options: OpenApiOptions = {}): OpenApiDocument {
  const key = service ?? '';
  let doc = cache.get(key);
  if (!doc) {
    doc = buildUncached(service);
    cache.set(key, doc);
  }
  const servers: Json = options.serverUrl
    ? [{ url: options.serverUrl, description: 'The reference sandbox that served this document.' }]
    : [
        {
          url: 'http://127.0.0.1:{port}',
          description: 'The reference sandbox (`conformance serve --port N`).',
          variables: { port: { default: '8080', description: 'The port the sandbox listens on.' } },
        },
      ];
  const { openapi, jsonSchemaDialect, info, ...rest } = doc;
  // A fresh copy: callers may change what they receive without touching the cache.
  return structuredClone({ openapi, jsonSchemaDialect, info, servers, ...rest });
}

function buildUncached(service: ServiceId | undefined): OpenApiDocument {
  if (service !== undefined && !SERVICES.includes(service)) {
    throw new Error(`Expected a service of ${SERVICES.join(', ')}, received ${String(service)}`);
  }
  const ops = operations.filter((o) => service === undefined || o.service === service);
  const paths = pathsOf(ops);
  const services = service ? [service] : SERVICES;
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: service ? `${TITLE}: ${service} service` : TITLE,
      version: packageVersion(),
      description: descriptionOf(service),
    },
    tags: services.map((s) => ({
      name: s,
      description: `The ${s} service (discovery document at \`${DISCOVERY_PATHS[s]}\` on the sandbox).`,
    })),
    paths,
    components: {
      schemas: schemaComponentsFor([paths], GENERATED_SCHEMAS),
      securitySchemes: Object.fromEntries(
        Object.entries(SECURITY_SCHEMES).filter(([name]) => ops.some((o) => securityOf(o).some((r) => name in r))),
      ),
    },
  };
}

/** The file a document is written to: `openapi.json` for the family, `openapi-<service>.json` per service. */
export function openApiFileName(service?: ServiceId): string {
  return service === undefined ? 'openapi.json' : `openapi-${service}.json`;
}
