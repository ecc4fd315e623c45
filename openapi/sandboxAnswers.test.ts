/**
 * Every example answer the sandbox gives validates against the OpenAPI documents it serves
 * (issue 12, item 1): the example calls of server/exampleCalls.ts (success and error cases of
 * every operation) plus the operations without a response schema, over real HTTP. Each request
 * is matched to its OpenAPI operation by method and path (the most literal path wins, as in the
 * sandbox); the answer's status must be listed (exactly, or by its `4XX`-style range), its media
 * type must be one of that response's, and its body must validate (Ajv 2020-12, ajv-formats)
 * against the response schema resolved inside the served document.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ACCOUNTS_ERRORS,
  type Call,
  OUTCOME_ERRORS,
  SUCCESS,
  SUCCESS_D3,
  tokenDetailsErrorCall,
} from '../server/exampleCalls.ts';
import { basicAuth, paths, type Answer, TestSandbox, withQuery } from '../server/testSupport.ts';
import { VARIANTS } from '../server/variants/catalog.ts';
import { operations } from '../spec/operations.ts';
import type { JsonObject } from './buildOpenApi.ts';
import { buildOpenApiDocument, NOT_SHOWN_BODY, SERVICES } from './buildOpenApi.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => Ajv2020;

type Op = JsonObject & { responses: Record<string, JsonObject>; parameters: JsonObject[] };

/** Calls of the operations that have no response schema (so not in the schema test's lists). */
const MORE_CALLS: [operationId: string, label: string, call: Call][] = [
  ['ack-remittance', 'unknown batch (InvalidId)', (s) => s.delete(paths.batch('BATCH-NOPE'))],
  ['ack-remittance', 'BATCH-1001', (s) => s.delete(paths.batch('BATCH-1001'))],
  ['logout', 'a fresh sign-in', async (s) => s.get(paths.logout, { token: (await s.signIn('carol')).access_token })],
  [
    'revoke-token',
    'a fresh access token',
    async (s) => {
      const { access_token } = await s.signIn('carol');
      return s.request('POST', paths.revoke, {
        headers: { authorization: basicAuth(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: access_token, token_type_hint: 'access_token' }).toString(),
      });
    },
  ],
  ['revoke-token', 'without client credentials', (s) => s.request('POST', paths.revoke, { body: '' })],
  ['list-episode-types', 'without token (401, no body)', (s) => s.get(paths.episodeTypes, { token: null })],
  ['find-member-v1', 'no match', (s) => s.findMember('1', { insurerIdentifier: 'bup', membershipNumber: 'NOPE' })],
  // Answers to records the target does not hold, which the suite does not judge against the success
  // schema (DEC-R-04): the export must allow them too (issue 22).
  [
    'get-insurer-control-parameters',
    'an unknown insurer (empty Bundle, D2 7)',
    (s) => s.get(withQuery(paths.controlParameters, { insurerId: 'NO-SUCH-INSURER' })),
  ],
  [
    'retrieve-address',
    'an id naming nothing (empty array, DEC-D2-50)',
    (s) => s.get(withQuery(paths.addressRetrieve, { id: 'GB|RM|A|NOPE' })),
  ],
];

const TOKEN_DETAILS: [string, string, Call][] = ['https://app.example/unlinked', ''].map((uri) => [
  'get-idp-token-details',
  `redirect_uri ${JSON.stringify(uri)}`,
  tokenDetailsErrorCall(uri),
]);

const CALLS: [operationId: string, label: string, call: Call][] = [
  ...SUCCESS,
  ...SUCCESS_D3,
  ...OUTCOME_ERRORS,
  ...ACCOUNTS_ERRORS,
  ...TOKEN_DETAILS,
  ...MORE_CALLS,
];

interface Exchange {
  method: string;
  path: string;
  headers: Record<string, string>;
  answer: Answer;
}

/** The exported document (the sandbox serves the same, its `servers` filled from the request). */
const family: JsonObject = buildOpenApiDocument();
let sb: TestSandbox;
/** Requests of the call running now, in order. */
let exchanges: Exchange[] = [];
const exercised = new Set<string>();

/** The served document's id inside Ajv (any absolute URI; response schemas are pointers into it). */
const DOC_ID = 'https://openapi.local/openapi.json';
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
// The document's own members are annotations for Ajv: it compiles the root when it resolves a
// pointer into it, and strict mode refuses unknown keywords. The schemas inside stay strict.
for (const keyword of ['openapi', 'jsonSchemaDialect', 'info', 'servers', 'tags', 'paths', 'components'])
  ajv.addKeyword({ keyword });
const validators = new Map<string, ValidateFunction>();

ajv.addSchema(family, DOC_ID);

/** A sandbox whose requests are recorded for the judge. */
async function recorded(variants: readonly string[]): Promise<TestSandbox> {
  const s = await TestSandbox.start([], variants);
  const request = s.request.bind(s);
  s.request = async (method, path, init = {}) => {
    const answer = await request(method, path, init);
    exchanges.push({ method, path, headers: init.headers ?? {}, answer });
    return answer;
  };
  return s;
}

beforeAll(async () => {
  sb = await recorded([]);
});
afterAll(() => sb.close());

const segments = (path: string) =>
  path
    .split('?')[0]
    .split('/')
    .slice(1)
    .map((s) => decodeURIComponent(s));

/** The OpenAPI operation a request reaches: method and path, the most literal template winning. */
function operationFor(method: string, path: string): { template: string; op: Op } | undefined {
  const actual = segments(path);
  const fits = Object.entries(family.paths as Record<string, Record<string, Op>>)
    .filter(([template, item]) => {
      const parts = template.split('/').slice(1);
      return (
        item[method.toLowerCase()] !== undefined &&
        parts.length === actual.length &&
        parts.every((p, i) => /^\{.+\}$/.test(p) || p === actual[i])
      );
    })
    .map(([template, item]) => ({
      template,
      op: item[method.toLowerCase()],
      literal: template.split('/').filter((p) => p !== '' && !p.startsWith('{')).length,
    }))
    .sort((a, b) => b.literal - a.literal);
  return fits[0];
}

const pointerOf = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** Problems of one exchange against the document; empty when it conforms. */
function judge(x: Exchange): string[] {
  const found = operationFor(x.method, x.path);
  if (!found) return [`${x.method} ${x.path}: no OpenAPI operation`];
  const { template, op } = found;
  const status = String(x.answer.status);
  const key = status in op.responses ? status : `${status[0]}XX`;
  const response = op.responses[key];
  const where = `${x.method} ${template} -> ${status}`;
  if (!response) return [`${where}: status not listed (${Object.keys(op.responses).join(', ')})`];
  const content = response.content as Record<string, JsonObject> | undefined;
  // A body the documents do not show (DEC-D3-19: logout and revoke) may be absent as well.
  const unshown = (c: Record<string, JsonObject>) =>
    Object.values(c).every((m) => JSON.stringify(m.schema) === JSON.stringify(NOT_SHOWN_BODY));
  if (x.answer.text === '')
    return content && !unshown(content) ? [`${where}: empty body, the document shows a body`] : [];
  if (!content) return [`${where}: a body, the document shows none`];
  // Media types are case-insensitive (RFC 9110 8.3.1); a tool compares them so.
  const mediaType = (x.answer.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (!(mediaType in content)) return [`${where}: media type ${mediaType}, the document lists ${Object.keys(content)}`];
  const ref = `${DOC_ID}#/${pointerOf('paths', template, x.method.toLowerCase(), 'responses', key, 'content', mediaType, 'schema')}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  if (validate(x.answer.json)) return [];
  return (validate.errors ?? []).slice(0, 10).map((e) => `${where}: ${e.instancePath || '/'} ${e.message}`);
}

/** The request's SVC-API-Version must be the value the operation's schema gives the called table operation. */
function versionProblems(x: Exchange, operationId: string, op: Op): string[] {
  const sent = Object.entries(x.headers).find(([k]) => k.toLowerCase() === 'svc-api-version')?.[1];
  const schema = op.parameters.find((p) => p.name === 'SVC-API-Version')?.schema as JsonObject | undefined;
  if (sent === undefined || !schema) return [];
  const allowed = schema.oneOf
    ? (schema.oneOf as JsonObject[])
        .filter((b) => String(b.description).startsWith(`${operationId}:`))
        .map((b) => b.const)
    : [schema.const];
  return allowed.includes(sent) ? [] : [`${operationId}: SVC-API-Version ${sent}, the document gives ${allowed}`];
}

describe('every sandbox answer validates against the served OpenAPI document', () => {
  test.each(CALLS)('%s: %s', async (operationId, _label, call) => {
    exchanges = [];
    await call(sb);
    const documented = exchanges.filter((x) => !x.path.startsWith('/oauth/token'));
    expect(documented.length).toBeGreaterThan(0);
    expect(documented.flatMap(judge)).toEqual([]);
    const last = documented[documented.length - 1];
    const found = operationFor(last.method, last.path);
    expect(found?.op['x-conformance-operations']).toContain(operationId);
    expect(versionProblems(last, operationId, found?.op as Op)).toEqual([]);
    exercised.add(operationId);
  });

  test('the judge refuses a body off its schema, an unlisted status, another media type and an unknown path', () => {
    const answer = (status: number, body: unknown, contentType = 'application/fhir+json'): Answer => ({
      status,
      headers: new Headers({ 'content-type': contentType }),
      text: JSON.stringify(body),
      json: body,
    });
    const at = (a: Answer, path = '/claims/claim/search'): Exchange => ({
      method: 'GET',
      path,
      headers: {},
      answer: a,
    });
    expect(judge(at(answer(200, { resourceType: 'Bundle' }))).join('\n')).toMatch(
      /^GET \/claims\/claim\/search -> 200: \/ must have required property/,
    );
    expect(judge(at(answer(500, {})))).toEqual([expect.stringContaining('status not listed')]);
    expect(judge(at(answer(200, {}, 'text/plain')))).toEqual([expect.stringContaining('media type text/plain')]);
    expect(judge(at(answer(200, {}), '/claims/nowhere'))).toEqual(['GET /claims/nowhere: no OpenAPI operation']);
  });

  test('every operation of the table was exercised', () => {
    expect(operations.map((o) => o.id).filter((id) => !exercised.has(id))).toEqual([]);
  });

  test('the sandbox serves the exported document, its server filled from the request', async () => {
    const a = await sb.request('GET', '/openapi.json');
    expect(a.status).toBe(200);
    expect({ ...(a.json as JsonObject), servers: undefined }).toEqual({ ...family, servers: undefined });
  });

  test.each(SERVICES)('the sandbox serves the %s document at /openapi/<service>.json', async (service) => {
    const a = await sb.request('GET', `/openapi/${service}.json`);
    expect(a.status).toBe(200);
    const doc = a.json as JsonObject;
    expect(doc.servers).toEqual([{ url: sb.url, description: 'The reference sandbox that served this document.' }]);
    expect(Object.keys(doc.paths as JsonObject).length).toBeGreaterThan(0);
  });
});

/**
 * Never cry wolf: a server making every choice the documents allow (the sandbox under all its
 * variants: other serialisations, the other JSON media type, null optional members, extra
 * members, other documented codes) answers only what the exported document allows, so a tool
 * reading it (Schemathesis, Prism, a client generator) does not refuse a conforming server.
 */
describe('every answer of the sandbox under every variant validates against the exported document', () => {
  let varied: TestSandbox;
  beforeAll(async () => {
    // Not load-shed-429: a 429 is load, not an answer of the operation (DEC-R-05); the documents
    // list none and neither does the export.
    // Nor transient-503-once: a passing 503 is a gateway's refusal, sent again (DEC-R-07).
    const refusals = new Set(['load-shed-429', 'transient-503-once']);
    varied = await recorded(VARIANTS.map((v) => v.name).filter((n) => !refusals.has(n)));
  });
  afterAll(() => varied?.close());

  test.each(CALLS)('%s: %s', async (_operationId, _label, call) => {
    exchanges = [];
    await call(varied);
    const documented = exchanges.filter((x) => !x.path.startsWith('/oauth/token'));
    expect(documented.length).toBeGreaterThan(0);
    expect(documented.flatMap(judge)).toEqual([]);
  });

  test('the served documents are the export itself: no variant changes them (extra-members included)', async () => {
    const a = await varied.request('GET', '/openapi.json');
    expect(a.status).toBe(200);
    expect(a.text).not.toContain('x-sandbox-note');
    expect({ ...(a.json as JsonObject), servers: undefined }).toEqual({ ...family, servers: undefined });
  });
});
