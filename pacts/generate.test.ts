/**
 * The reference pacts: every operation has an interaction, the files are stable, every state is
 * in the catalogue, matchers stand where the documents fix only a type or a form, and the
 * V3-body lesson (form and fhir+json bodies as text and JSON with their content type) is pinned.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { operations } from '../spec/operations.ts';
import { generateReferencePacts } from './generate.ts';
import { providerState } from './providerStates.ts';
import { resolveOperation } from './resolveOperation.ts';

type Json = any;
let dir: string;
let first: string[];
let docs: Json[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pact-generate-test-'));
  first = await generateReferencePacts(join(dir, 'a'));
  docs = first.map((f) => JSON.parse(readFileSync(f, 'utf8')));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const interactions = () => docs.flatMap((d) => d.interactions as Json[]);
const named = (prefix: string) => interactions().find((i) => i.description.startsWith(prefix));

describe('generateReferencePacts', () => {
  test('one file per service, consumer reference-consumer, provider the service', () => {
    const services = [...new Set(operations.map((o) => o.service))];
    expect(docs.map((d) => d.provider.name)).toEqual(services);
    expect(docs.every((d) => d.consumer.name === 'reference-consumer')).toBe(true);
    expect(docs.every((d) => d.metadata.pactSpecification.version === '3.0.0')).toBe(true);
  });

  test('every operation of the table has a success interaction that resolves to it', () => {
    for (const op of operations) {
      const own = interactions().filter((i) => i.description.startsWith(`${op.id}: `));
      expect(
        own.some((i) => i.description.includes('success')),
        op.id,
      ).toBe(true);
      for (const i of own) {
        const q = new URLSearchParams(
          Object.entries(i.request.query ?? {}).flatMap(([k, v]) => (v as string[]).map((x) => [k, x])),
        );
        const path = `${i.request.path}${q.size ? `?${q}` : ''}`;
        const body =
          i.request.body === undefined
            ? undefined
            : typeof i.request.body === 'string'
              ? i.request.body
              : JSON.stringify(i.request.body);
        expect(resolveOperation(i.request.method, path, i.request.headers ?? {}, body)?.id, i.description).toBe(op.id);
      }
    }
  });

  test('the files are the same byte for byte when generated again', async () => {
    const again = await generateReferencePacts(join(dir, 'b'));
    expect(again.map((f) => readFileSync(f, 'utf8'))).toEqual(first.map((f) => readFileSync(f, 'utf8')));
  });

  test('every provider state used is in the catalogue, with its parameters', () => {
    for (const i of interactions())
      for (const s of i.providerStates) {
        const known = providerState(s.name);
        expect(known, s.name).toBeDefined();
        expect(Object.keys(s.params ?? {}).sort()).toEqual(known?.params.map((p) => p.name).sort());
      }
  });

  test('matchers where only a type or form is fixed, literals where a value is', () => {
    const v2 = named('find-member-v2: success')?.response;
    const rules = v2.matchingRules.body;
    expect(rules['$.resourceType'].matchers[0].match).toBe('equality');
    expect(rules['$.id'].matchers[0].match).toBe('type');
    expect(Object.values(rules).some((r: Json) => r.matchers[0].match === 'regex')).toBe(true);
    expect(v2.matchingRules.header['Content-Type'].matchers[0].match).toBe('regex');
    const error = named('search-bills: without insurerid')?.response;
    expect(error.status).toBe(400);
    expect(error.matchingRules.body['$.issue[*].details.coding[*].code'].matchers[0]).toEqual({ match: 'equality' });
    expect(error.body.issue[0].details.coding[0].code).toBe('MSG_MISSING_MANDATORY_PARAM');
    const batch = named('get-remittance-details: success')?.request;
    expect(batch.generators.path).toEqual({ expression: `/claims/claimresponse/$batch/\${id}`, type: 'ProviderState' });
    expect(batch.matchingRules.header.Authorization.matchers[0]).toEqual({ match: 'regex', regex: '^Bearer \\S+$' });
  });

  test('V3 bodies: a form body is form text, a fhir+json body is JSON, each with its content type', () => {
    // Pact V4's body builder sends text bodies through its binary path and mis-detects these two
    // media types (issue 12); the V3 interactions keep them as the consumer sent them.
    const form = named('find-member-v2: success')?.request;
    expect(form.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(form.body).toBe('dateOfBirth=1980-04-12&firstInitial=J&insurerIdentifier=ppp&lastName=Smith');
    expect(form.generators.body['$.lastName']).toEqual({ expression: `\${lastName}`, type: 'ProviderState' });
    const fhir = named('create-patient: success')?.request;
    expect(fhir.headers['Content-Type']).toBe('application/fhir+json');
    expect(fhir.body.resourceType).toBe('Patient');
    const created = named('create-patient: success')?.response;
    expect(created.matchingRules.status.$.matchers[0]).toEqual({ match: 'statusCode', status: 'success' });
  });
});
