/**
 * The OpenAPI export (issue 12, item 1): every document passes Redocly's recommended ruleset
 * (@redocly/openapi-core, pinned) without errors, is deterministic and self-contained, and
 * carries every operation of the table, every error code of its table, and its flags.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, test } from 'vitest';
import { FHIR_SERVICES } from '../server/router/routes.ts';
import { operations } from '../spec/operations.ts';
import { loadRequirements } from '../spec/requirements.ts';
import type { ServiceId } from '../spec/types.ts';
import {
  buildOpenApiDocument,
  FHIR_JSON_SERVICES,
  type Json,
  type JsonObject,
  openApiFileName,
  REQUEST_BODY_SCHEMAS,
  SERVICES,
} from './buildOpenApi.ts';
import { openApiText, writeOpenApi } from './writeOpenApi.ts';

/**
 * Warnings of the recommended ruleset that the documents keep, each with its reason. Anything
 * else (and any error) fails.
 */
const ALLOWED_WARNINGS: Readonly<Record<string, string>> = {
  'info-license':
    'The project states no licence (package.json is private, there is no LICENSE file); naming one would be invented.',
};

const DOCUMENTS: [label: string, service: ServiceId | undefined][] = [
  ['family', undefined],
  ...SERVICES.map((s): [string, ServiceId] => [s, s]),
];

type Op = JsonObject & { responses: Record<string, JsonObject> };

/** Every OpenAPI operation of a document with its path and method. */
function operationsOf(doc: JsonObject): { path: string; method: string; op: Op }[] {
  return Object.entries(doc.paths as Record<string, Record<string, Op>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
}

function refsIn(node: Json, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) refsIn(n, found);
  else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') found.push(v);
      else refsIn(v, found);
    }
  }
  return found;
}

function resolvePointer(doc: JsonObject, ref: string): Json | undefined {
  let node: Json | undefined = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = node !== null && typeof node === 'object' && !Array.isArray(node) ? node[key] : undefined;
  }
  return node;
}

describe('the documents lint clean (Redocly recommended)', () => {
  test.each(DOCUMENTS)(
    '%s',
    async (_label, service) => {
      const config = await createConfig({ extends: ['recommended'] });
      const problems = await lintFromString({
        source: openApiText(service),
        absoluteRef: `/openapi/${openApiFileName(service)}`,
        config,
      });
      const lines = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`);
      expect(lines.filter((l) => l.startsWith('error'))).toEqual([]);
      expect(problems.filter((p) => !(p.ruleId in ALLOWED_WARNINGS)).map((p) => `${p.ruleId}: ${p.message}`)).toEqual(
        [],
      );
    },
    30000,
  );
});

describe('the export', () => {
  const family = buildOpenApiDocument();

  test('is deterministic: the same bytes twice, and what writeOpenApi writes', () => {
    expect(openApiText()).toBe(openApiText());
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    try {
      const written = writeOpenApi(dir);
      expect(written.map((f) => f.slice(dir.length + 1))).toEqual([
        'openapi.json',
        ...SERVICES.map((s) => `openapi-${s}.json`),
      ]);
      expect(readFileSync(written[0], 'utf8')).toBe(openApiText());
      expect(readFileSync(written[1], 'utf8')).toBe(openApiText(SERVICES[0]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('is OpenAPI 3.1 with the sandbox server filled in when given', () => {
    expect(family.openapi).toBe('3.1.0');
    expect(buildOpenApiDocument('claims', { serverUrl: 'http://127.0.0.1:1234' }).servers).toEqual([
      { url: 'http://127.0.0.1:1234', description: 'The reference sandbox that served this document.' },
    ]);
  });

  test.each(DOCUMENTS)('%s is self-contained: every $ref is local and resolves', (_label, service) => {
    const doc = buildOpenApiDocument(service);
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((r) => !r.startsWith('#/'))).toEqual([]);
    expect(refs.filter((r) => resolvePointer(doc, r) === undefined)).toEqual([]);
    expect(JSON.stringify(doc)).not.toMatch(/"\$id"|"\$schema"|conformance\.local/);
  });

  test('every operation of the table appears once per path it is served at, in its service document too', () => {
    const listed = operationsOf(family).flatMap(({ op }) => op['x-conformance-operations'] as string[]);
    expect(new Set(listed)).toEqual(new Set(operations.map((o) => o.id)));
    for (const service of SERVICES) {
      const own = operationsOf(buildOpenApiDocument(service)).flatMap(
        ({ op }) => op['x-conformance-operations'] as string[],
      );
      expect(new Set(own)).toEqual(new Set(operations.filter((o) => o.service === service).map((o) => o.id)));
    }
  });

  test('operations sharing a method and path are merged, the others are not', () => {
    const merged = operationsOf(family)
      .map(({ op }) => op['x-conformance-operations'] as string[])
      .filter((ids) => ids.length > 1);
    expect(merged).toEqual(
      expect.arrayContaining([
        ['find-member-v1', 'find-member-v2'],
        ['upsert-payor', 'upsert-contact-payor'],
        ['delete-payor', 'delete-contact-payor'],
        ['set-contract-service', 'set-contract-service-with-procedure', 'set-contract-price'],
        ['delete-contract-service', 'delete-contract-service-with-procedure'],
      ]),
    );
    expect(merged).toHaveLength(5);
  });

  test('every error code of each operation table appears under its status', () => {
    for (const { op } of operationsOf(family)) {
      for (const id of op['x-conformance-operations'] as string[]) {
        for (const e of operations.find((o) => o.id === id)?.errors ?? []) {
          const response = op.responses[String(e.status)];
          expect(response, `${id} ${e.status}`).toBeDefined();
          if (e.code !== '') expect(response['x-error-codes'], `${id} ${e.status}`).toContain(e.code);
        }
      }
    }
  });

  test('every success answer is listed with its schema and media type', () => {
    for (const { op } of operationsOf(family)) {
      for (const id of op['x-conformance-operations'] as string[]) {
        const row = operations.find((o) => o.id === id);
        if (!row) throw new Error(id);
        const response = op.responses[row.successStatus === undefined ? '2XX' : String(row.successStatus)];
        expect(response, id).toBeDefined();
        const mediaType = FHIR_JSON_SERVICES.has(row.service) ? 'application/fhir+json' : 'application/json';
        if (row.responseMediaType === 'none') expect(response.content, id).toBeUndefined();
        else {
          // The documented media type first; the other JSON one accepted too (DEC-D2-26).
          const listed = Object.keys(response.content as JsonObject);
          expect(listed[0], id).toBe(mediaType);
          expect([...listed].sort(), id).toEqual(['application/fhir+json', 'application/json']);
        }
        if (row.responseSchema) expect(JSON.stringify(response.content), id).toContain('#/components/schemas/');
      }
    }
  });

  test('the media types are the sandbox’s (FHIR_SERVICES of server/router/routes.ts)', () => {
    expect([...FHIR_JSON_SERVICES].sort()).toEqual([...FHIR_SERVICES].sort());
  });

  test('deprecated, reserved and destructive flags', () => {
    const byId = (id: string) =>
      operationsOf(family).find(({ op }) => (op['x-conformance-operations'] as string[]).includes(id))?.op as Op;
    const findMember = byId('find-member-v1');
    expect(findMember.deprecated).toBeUndefined();
    expect(findMember['x-deprecated-operations']).toEqual(['find-member-v1']);
    const version = (findMember.parameters as JsonObject[]).find((p) => p.name === 'SVC-API-Version') as JsonObject;
    expect(version.required).toBe(true);
    expect(version.schema).toEqual({
      oneOf: [
        { const: '1', description: 'find-member-v1: Find Member, version 1 (deprecated)', deprecated: true },
        { const: '2', description: 'find-member-v2: Find Member, version 2 (two-step flow)' },
      ],
    });
    for (const row of operations) {
      const op = byId(row.id);
      const reserved = op['x-reserved-for-operator'];
      const destructive = op['x-destructive'];
      expect(typeof reserved === 'boolean' ? reserved : (reserved as JsonObject)[row.id], row.id).toBe(
        row.reservedForOperator,
      );
      expect(typeof destructive === 'boolean' ? destructive : (destructive as JsonObject)[row.id], row.id).toBe(
        row.destructive,
      );
    }
  });

  test('requirement ids: every row citing an operation is linked from it', () => {
    for (const r of loadRequirements()) {
      for (const id of r.operations) {
        const found = operationsOf(family).filter(({ op }) =>
          (op['x-conformance-operations'] as string[]).includes(id),
        );
        for (const { op } of found) expect(op['x-requirements'], `${r.id} ${id}`).toContain(r.id);
      }
    }
  });

  test('parameters, headers, bodies and security follow the table', () => {
    const at = (path: string, method: string) => (family.paths as Record<string, Record<string, Op>>)[path][method];
    const search = at('/remittance/summary/search', 'post');
    const form = (search.requestBody as JsonObject).content as Record<string, { schema: JsonObject }>;
    const properties = form['application/x-www-form-urlencoded'].schema.properties as Record<string, JsonObject>;
    expect(properties.paymentAmount.pattern).toBeDefined();
    expect(properties._sort.enum).toEqual(['createdOn', '-createdOn']);
    expect((search['x-features'] as JsonObject).paymentAmount).toEqual(['Advanced_Filtering_And_Sorting_1_0']);
    expect(search.security).toEqual([{ clientToken: [] }]);
    const site = (search.parameters as JsonObject[]).find((p) => p.name === 'SU-SiteId');
    expect(site).toMatchObject({ in: 'header', required: true });
    const patient = at('/patients/patient', 'post');
    expect(patient.security).toEqual([{ userToken: [] }]);
    expect(JSON.stringify(patient.requestBody)).toContain('#/components/schemas/PatientCreateRequest');
    expect(at('/auth/oauth/{idp}/token-details', 'get').security).toEqual([{ basicAuth: [] }]);
    expect(at('/auth/logout', 'get').security).toEqual([]);
    const codeSets = Object.keys(family.paths as JsonObject).filter((p) => p.startsWith('/reference/valueset'));
    expect(codeSets).toEqual(['/reference/valueset/{set_name}/{scheme}', '/reference/valueset/{set_name}']);
    for (const id of Object.keys(REQUEST_BODY_SCHEMAS)) {
      expect(
        operations.find((o) => o.id === id)?.parameters.some((p) => p.in === 'body'),
        id,
      ).toBe(true);
    }
    for (const o of operations.filter((x) => x.parameters.some((p) => p.in === 'body'))) {
      expect(REQUEST_BODY_SCHEMAS[o.id], o.id).toBeDefined();
    }
  });
});
