/**
 * Reference consumer pacts (issue 12, item 2): one Pact file per service, consumer
 * `reference-consumer`, generated from the operation table (spec/operations.ts) and the JSON
 * Schemas, never written interaction by interaction. Per operation: its documented success
 * interaction under each catalogue state that names it (pacts/providerStates.ts), and where the
 * table documents a missing-parameter error for a required query or form parameter, that error.
 *
 * The files are produced by Pact itself (PactV3 + executeTest, each request sent to the mock
 * server), so they are valid by construction; then read back, sorted and re-serialised with sorted
 * keys, so the output is byte-for-byte stable. PactV3, not V4: V4's body builder sends text bodies
 * through its binary path and mis-detects `application/x-www-form-urlencoded` and
 * `application/fhir+json` (pinned in generate.test.ts).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MatchersV3, PactV3, type V3Request, type V3Response } from '@pact-foundation/pact';
import { addressOf } from '../server/router/addresses.ts';
import { operations } from '../spec/operations.ts';
import type { Operation, ServiceId } from '../spec/types.ts';
import { PROVIDER_STATES, type ProviderStateDefinition, stateExamples } from './providerStates.ts';
import { templateFromSchema } from './schemaMatchers.ts';

export const REFERENCE_CONSUMER = 'reference-consumer';
/** Provider states that lead to a documented error rather than the success answer. */
export const ERROR_STATES: Readonly<Record<string, { status: number; code: string }>> = {
  'a member who matches several times': { status: 400, code: 'MULTIPLE_MATCH_FOUND' },
};
/** Stands in for a credential the request filter puts into the request (pacts/verify.ts). */
export const CREDENTIAL_PLACEHOLDER = 'credential-from-the-request-filter';
export const MULTIPART_BOUNDARY = 'reference-consumer-boundary';

/** One planned interaction and the request the generator sends to the mock server for it. */
export interface PlannedInteraction {
  operation: Operation;
  description: string;
  state: ProviderStateDefinition;
  request: V3Request;
  response: V3Response;
  send: { method: string; path: string; headers: Record<string, string>; body?: string };
}

const examplesDir = new URL('../schemas/examples/', import.meta.url);
const exampleOf = (schemaFile: string): unknown =>
  JSON.parse(readFileSync(new URL(schemaFile.replace('.schema.json', '.valid.json'), examplesDir), 'utf8'));

const SITE = 'SITE001';
const fromState = MatchersV3.fromProviderState;
/** A provider-state expression naming a state value (`${name}`), as Pact writes it. */
const ps = (name: string): string => `\${${name}}`;

/** Request bodies (Document 3, 4.4 and 4.5): the schemas' valid examples, with the state's ids. */
function requestBody(op: Operation, values: Record<string, string>): unknown {
  const site = { reference: fromState(`Site/${ps('siteId')}`, `Site/${values.siteId ?? values.site ?? SITE}`) };
  const withSite = (file: string) => ({ ...(exampleOf(file) as object), subject: [site] });
  const price = (items: { system: string; code: string; fee?: number }[]) => ({
    resourceType: 'Contract',
    subject: [{ reference: fromState(`Site/${ps('site')}`, `Site/${values.site ?? SITE}`) }],
    term: [
      {
        asset: [
          {
            type: { coding: [{ code: 'PriceGroupAssignment' }] },
            context: [{ reference: { reference: 'Payor/I-bup' } }],
            valuedItem: items.map((i) => ({
              entityCodeableConcept: { coding: [{ system: i.system, code: i.code, display: i.code }] },
              ...(i.fee === undefined ? {} : { net: { value: i.fee } }),
            })),
          },
        ],
      },
    ],
  });
  const procedure = 'https://sandbox.example/ref/procedure';
  switch (op.id) {
    case 'create-patient':
      return exampleOf('patient-create-request.schema.json');
    case 'update-patient':
      return {
        ...(exampleOf('patient-create-request.schema.json') as object),
        id: fromState(ps('patient_id'), values.patient_id),
      };
    case 'create-condition': {
      const c = exampleOf('condition-create-request.schema.json') as { note: { text: string }[] };
      return {
        ...c,
        note: [
          {
            text: c.note[0].text,
            authorReference: { reference: fromState(`patient/${ps('patient_id')}`, `patient/${values.patient_id}`) },
          },
        ],
      };
    }
    case 'upsert-payor':
      return withSite('contract-payor-request.schema.json');
    case 'upsert-contact-payor':
      return { ...(withSite('contract-payor-request.schema.json') as object), ...contactAuthority() };
    case 'set-contract-service':
      return price([{ system: 'ISC', code: 'REF-SVC' }]);
    case 'set-contract-service-with-procedure':
      return price([
        { system: 'ISC', code: 'REF-SVC2' },
        { system: procedure, code: 'REF-PROC' },
      ]);
    case 'set-contract-price':
      return price([
        { system: 'ISC', code: 'REF-SVC3' },
        { system: procedure, code: 'REF-PROC', fee: 99 },
      ]);
    default:
      throw new Error(`Expected a request body for ${op.id}, received none in the generator`);
  }
}

function contactAuthority() {
  const contact = JSON.parse(
    readFileSync(new URL('contract-payor-request.valid-contact.json', examplesDir), 'utf8'),
  ) as { authority: unknown; subType: unknown };
  return { authority: contact.authority, subType: contact.subType };
}

/** Headers the operation requires, with matchers for the credentials the verifier's filter supplies. */
function requestHeaders(
  op: Operation,
  values: Record<string, string>,
): { template: V3Request['headers']; sent: Record<string, string> } {
  const template: Record<string, string | ReturnType<typeof MatchersV3.regex> | ReturnType<typeof MatchersV3.string>> =
    {};
  const sent: Record<string, string> = {};
  for (const h of op.headers) {
    // SU-UserId goes with a client-credentials token only (Document 3, 4.1); the reference consumer signs in as the user.
    if (h.name === 'SU-UserId') continue;
    if (h.name === 'Authorization') {
      const scheme = h.value.split(' ')[0];
      const example = `${scheme} ${CREDENTIAL_PLACEHOLDER}`;
      template[h.name] = MatchersV3.regex(`^${scheme} \\S+$`, example);
      sent[h.name] = example;
    } else if (h.value === '{siteId}') {
      const site = values.siteId ?? values.site ?? SITE;
      template[h.name] = MatchersV3.string(site);
      sent[h.name] = site;
    } else {
      template[h.name] = h.value;
      sent[h.name] = h.value;
    }
  }
  return { template, sent };
}

const successStatus = (op: Operation): V3Response['status'] =>
  op.successStatus ??
  MatchersV3.matchStatus(
    op.method === 'POST' && op.id.startsWith('create-') ? 201 : 200,
    'success' as Parameters<typeof MatchersV3.matchStatus>[1],
  );

const JSON_CONTENT = MatchersV3.regex('^application/(fhir\\+)?json(\\s*;.*)?$', 'application/json');

function successResponse(op: Operation): V3Response {
  if (op.responseMediaType === 'none' || !op.responseSchema) return { status: successStatus(op) };
  return {
    status: successStatus(op),
    headers: { 'Content-Type': JSON_CONTENT },
    body: templateFromSchema(op.responseSchema, exampleOf(op.responseSchema)),
  };
}

function errorResponse(status: number, code: string): V3Response {
  const pins = code === '' ? {} : { '$.issue[*].details.coding[*].code': code };
  const example = exampleOf('operation-outcome.schema.json');
  return {
    status,
    headers: { 'Content-Type': JSON_CONTENT },
    body: templateFromSchema('operation-outcome.schema.json', example, pins),
  };
}

/** The request of an operation filled from a state's values, as a Pact template and as sent. */
function requestOf(
  op: Operation,
  values: Record<string, string>,
  omit?: string,
): Omit<PlannedInteraction, 'operation' | 'description' | 'state' | 'response'> {
  const base = addressOf(op.service, op.discoveryKey);
  const present = (name: string) => name !== omit && values[name] !== undefined;
  let expression = op.pathSuffix;
  let example = op.pathSuffix;
  // An optional trailing path parameter without a value is left out (get-code-set's scheme).
  for (const param of op.parameters.filter((x) => x.in === 'path').reverse()) {
    if (present(param.name)) {
      expression = expression.replace(`{${param.name}}`, `\${${param.name}}`);
      example = example.replace(`{${param.name}}`, encodeURIComponent(values[param.name]));
    } else if (!param.required) {
      expression = expression.replace(`/{${param.name}}`, '');
      example = example.replace(`/{${param.name}}`, '');
    } else throw new Error(`Expected a value for path parameter ${param.name} of ${op.id}, received none`);
  }
  const path = expression.includes('${') ? fromState(`${base}${expression}`, `${base}${example}`) : `${base}${example}`;
  const query: Record<string, ReturnType<typeof fromState<string>>> = {};
  const queryText = new URLSearchParams();
  const form: Record<string, unknown> = {};
  const formText = new URLSearchParams();
  for (const param of op.parameters) {
    const value = param.name === 'token' && op.id === 'revoke-token' ? CREDENTIAL_PLACEHOLDER : values[param.name];
    if (param.name === omit || value === undefined) continue;
    if (param.in === 'query') {
      query[param.name] = fromState(`\${${param.name}}`, value);
      queryText.set(param.name, value);
    } else if (param.in === 'form') {
      form[param.name] = param.name === 'token' ? value : fromState(`\${${param.name}}`, value);
      formText.set(param.name, value);
    }
  }
  const headers = requestHeaders(op, values);
  const request: V3Request = { method: op.method, path, headers: headers.template };
  if (Object.keys(query).length > 0) request.query = query;
  const send = {
    method: op.method,
    path: `${base}${example}${queryText.size > 0 ? `?${queryText}` : ''}`,
    headers: { ...headers.sent },
  } as PlannedInteraction['send'];
  const multipart = op.parameters.filter((x) => x.in === 'multipart' && present(x.name));
  if (Object.keys(form).length > 0) {
    request.body = form;
    request.contentType = 'application/x-www-form-urlencoded';
    send.body = formText.toString();
  } else if (multipart.length > 0) {
    const b = MULTIPART_BOUNDARY;
    const text = `${multipart.map((x) => `--${b}\r\nContent-Disposition: form-data; name="${x.name}"\r\n\r\n${values[x.name]}\r\n`).join('')}--${b}--\r\n`;
    const type = `multipart/form-data; boundary=${b}`;
    request.body = text;
    request.contentType = type;
    (request.headers as Record<string, string>)['Content-Type'] = type;
    send.headers['Content-Type'] = type;
    send.body = text;
  } else if (op.parameters.some((x) => x.in === 'body')) {
    const body = requestBody(op, values);
    request.body = body;
    request.contentType = headers.sent['Content-Type'] ?? 'application/json';
    send.body = JSON.stringify(MatchersV3.reify(body));
  }
  return { request, send };
}

/** Every interaction of the reference pacts, in table order. */
export function planInteractions(): PlannedInteraction[] {
  const planned: PlannedInteraction[] = [];
  for (const op of operations) {
    const states = PROVIDER_STATES.filter((s) => s.operations.includes(op.id));
    if (states.length === 0) throw new Error(`Expected a provider state for ${op.id}, received none in the catalogue`);
    for (const state of states) {
      const values = stateExamples(state);
      const error = ERROR_STATES[state.name];
      planned.push({
        operation: op,
        description: error
          ? `${op.id}: ${state.name} -> ${error.status} ${error.code}`
          : `${op.id}: success given ${state.name}`,
        state,
        ...requestOf(op, values),
        response: error ? errorResponse(error.status, error.code) : successResponse(op),
      });
    }
    const missing = op.errors.find(
      (e) => e.status === 400 && (e.code === 'MSG_MISSING_MANDATORY_PARAM' || e.code === ''),
    );
    const required = op.parameters.find((x) => x.required && (x.in === 'query' || x.in === 'form'));
    const state = states.find((s) => !ERROR_STATES[s.name]);
    if (missing && required && state) {
      planned.push({
        operation: op,
        description: `${op.id}: without ${required.name} -> ${missing.status}${missing.code ? ` ${missing.code}` : ''}`,
        state,
        ...requestOf(op, stateExamples(state), required.name),
        response: errorResponse(missing.status, missing.code),
      });
    }
  }
  return planned;
}

/**
 * Sends one request on a connection of its own: each interaction has its own mock server, and the
 * next one may listen on the port a pooled keep-alive connection still points at. The native mock
 * server may not accept connections the moment it reports its port (seen on a loaded machine):
 * a refused or reset connection is tried again, briefly.
 */
async function sendOnce(base: string, send: PlannedInteraction['send']): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await new Promise<number>((done, fail) => {
        const req = httpRequest(
          `${base}${send.path}`,
          { method: send.method, headers: send.headers, agent: false },
          (res) => {
            res.resume();
            res.on('end', () => done(res.statusCode ?? 0));
          },
        );
        req.on('error', fail);
        req.end(send.body);
      });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (attempt >= 40 || (code !== 'ECONNREFUSED' && code !== 'ECONNRESET')) throw e;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

/**
 * Registers one interaction on a PactV3 of its own and sends its request to the mock server, so
 * Pact writes it into the service's file. Tried again when the mock server judges it failed:
 * native mock servers of two processes generating at once were seen sharing a port, and the
 * request then reached the other process's server.
 */
async function recordInteraction(service: ServiceId, p: PlannedInteraction, dir: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const pact = new PactV3({ consumer: REFERENCE_CONSUMER, provider: service, dir, logLevel: 'error' });
    pact.addInteraction({
      states: [{ description: p.state.name, parameters: stateExamples(p.state) }],
      uponReceiving: p.description,
      withRequest: p.request,
      willRespondWith: p.response,
    });
    try {
      await pact.executeTest((mock) => sendOnce(mock.url, p.send));
      return;
    } catch (e) {
      // The other process's server may also have answered our request with a mismatch: any
      // failure is tried again; a generator bug still fails every attempt.
      if (attempt >= 5) throw e;
    }
  }
}

/** Object keys sorted at every level, so the files are stable whatever order Pact wrote them in. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
  );
}

/** The file name of a service's reference pact. */
export const pactFileName = (service: ServiceId): string => `${REFERENCE_CONSUMER}-${service}.json`;

/**
 * Writes the reference pacts into `outDir` (created when missing), one per service, and answers
 * their paths in service order.
 */
export async function generateReferencePacts(outDir: string): Promise<string[]> {
  process.env.PACT_DO_NOT_TRACK = 'true';
  const planned = planInteractions();
  const services = [...new Set(planned.map((p) => p.operation.service))];
  const work = mkdtempSync(join(tmpdir(), 'reference-pacts-'));
  mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  try {
    for (const service of services) {
      const own = planned.filter((p) => p.operation.service === service);
      // One mock server per interaction: two interactions of one operation may differ only in
      // values their matchers accept alike (a member who matches once, several times), and one
      // mock server could not tell which of them a request meant. Pact merges them into one file.
      for (const p of own) await recordInteraction(service, p, work);
      const produced = readdirSync(work).find((f) => f.endsWith(`-${service}.json`));
      if (!produced) throw new Error(`Pact wrote no file for service ${service}`);
      const doc = JSON.parse(readFileSync(join(work, produced), 'utf8')) as { interactions: { description: string }[] };
      doc.interactions.sort((a, b) => (a.description < b.description ? -1 : a.description > b.description ? 1 : 0));
      const file = join(outDir, pactFileName(service));
      writeFileSync(file, `${JSON.stringify(canonical(doc), null, 2)}\n`);
      written.push(file);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return written;
}
