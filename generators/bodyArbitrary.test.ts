import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type JsonSchema, schemaFor, validateAgainst } from '../core/schemaRegistry.ts';
import { REQUEST_BODY_SCHEMAS } from '../spec/requestBodies.ts';
import { paths, TestSandbox } from '../server/testSupport.ts';
import {
  INVALID_REASONS,
  type InvalidBody,
  invalidBodies,
  invalidCasesOf,
  refusedFor,
  validBody,
} from './bodyArbitrary.ts';
import { schemaErrors } from './schemaOracle.ts';

const REQUEST_SCHEMAS = [...new Set(Object.values(REQUEST_BODY_SCHEMAS))].sort();

/** The case is refused by the registry too, and Ajv names its keyword at its place. */
function expectRefusedFor(file: string | JsonSchema, c: InvalidBody): void {
  if (typeof file === 'string') expect(validateAgainst(file, c.body).valid).toBe(false);
  const errors = schemaErrors(file, c.body);
  expect(errors.some((e) => e.keyword === c.keyword && e.instancePath === c.instancePath)).toBe(true);
  expect(refusedFor(file, c)).toBe(true);
}

describe.each(REQUEST_SCHEMAS)('%s', (file) => {
  test('1000 generated bodies are all accepted by the schema', () => {
    fc.assert(
      fc.property(validBody(file), (body) => {
        const result = validateAgainst(file, body);
        if (!result.valid) throw new Error(`Expected a valid body, received ${result.errors.join('; ')}`);
      }),
      { seed: 14, numRuns: 1000 },
    );
  });

  test('every negative case is refused for its stated reason at its stated place', () => {
    fc.assert(
      fc.property(invalidBodies(file), (c) => expectRefusedFor(file, c)),
      { seed: 15, numRuns: 100 },
    );
  });

  test('the negative cases cover every reason, each one change away from a valid body', () => {
    const bodies = fc.sample(validBody(file), { seed: 16, numRuns: 10 });
    const cases = bodies.flatMap((b) => invalidCasesOf(file, b));
    expect(new Set(cases.map((c) => c.reason))).toEqual(new Set(INVALID_REASONS));
    for (const c of cases) expectRefusedFor(file, c);
  });
});

describe('validBody', () => {
  test('a seed gives the same bodies', () => {
    const arb = validBody('contract-price-request.schema.json');
    expect(fc.sample(arb, { seed: 42, numRuns: 20 })).toEqual(fc.sample(arb, { seed: 42, numRuns: 20 }));
  });

  test('a failing property shrinks to a small body', () => {
    const run = fc.check(
      fc.property(
        validBody('patient-create-request.schema.json'),
        (p) => !Array.isArray(p.telecom) || p.telecom.length === 0,
      ),
      { seed: 7, numRuns: 200 },
    );
    expect(run.failed).toBe(true);
    const [smallest] = run.counterexample ?? [];
    // One telecom with its two required members; nothing else but what the property needs.
    expect(smallest).toEqual({ resourceType: 'Patient', telecom: [{ system: 'phone', value: '' }] });
  });

  test('overrides pin members to fixture values, in every array item', () => {
    const conditions = validBody('condition-create-request.schema.json', {
      overrides: { 'note.authorReference.reference': 'patient/P-0001' },
    });
    const payors = validBody('contract-payor-request.schema.json', {
      overrides: { 'subject.reference': fc.constantFrom('Site/SITE001', 'Site/SITE002') },
    });
    fc.assert(
      fc.property(conditions, payors, (condition, payor) => {
        expect(validateAgainst('condition-create-request.schema.json', condition).valid).toBe(true);
        expect(validateAgainst('contract-payor-request.schema.json', payor).valid).toBe(true);
        const notes = condition.note as { authorReference: { reference: string } }[];
        expect(notes.every((n) => n.authorReference.reference === 'patient/P-0001')).toBe(true);
        const subjects = payor.subject as { reference: string }[];
        expect(subjects.every((s) => /^Site\/SITE00[12]$/.test(s.reference))).toBe(true);
      }),
      { seed: 17, numRuns: 200 },
    );
  });

  test('an optional member pinned by an override is always present', () => {
    const [patient] = fc.sample(
      validBody('patient-create-request.schema.json', {
        optionalMembers: 'never',
        overrides: { gender: 'female', 'name.family': 'Smith' },
      }),
      { seed: 1, numRuns: 1 },
    );
    expect(patient).toEqual({ resourceType: 'Patient', gender: 'female', name: expect.any(Array) });
    expect((patient.name as { family: string }[]).every((n) => n.family === 'Smith')).toBe(true);
  });

  test('optionalMembers: never gives the bare required body, always every member named', () => {
    const [bare] = fc.sample(validBody('patient-create-request.schema.json', { optionalMembers: 'never' }), {
      seed: 2,
      numRuns: 1,
    });
    expect(bare).toEqual({ resourceType: 'Patient' });
    const [full] = fc.sample(validBody('patient-create-request.schema.json', { optionalMembers: 'always' }), {
      seed: 2,
      numRuns: 1,
    });
    expect(Object.keys(full)).toEqual(
      expect.arrayContaining(['meta', 'extension', 'name', 'telecom', 'gender', 'birthDate', 'address']),
    );
    expect(validateAgainst('patient-create-request.schema.json', full).valid).toBe(true);
  });

  test('a member added to a cloned schema is generated and mutated, with no suite touched', () => {
    const clone = structuredClone(schemaFor('patient-create-request.schema.json'));
    (clone.properties as Record<string, unknown>).maritalStatus = { type: 'string', enum: ['M', 'S', 'W'] };
    const bodies = fc.sample(validBody(clone), { seed: 3, numRuns: 200 });
    expect(bodies.some((b) => b.maritalStatus !== undefined)).toBe(true);
    expect(bodies.some((b) => b.maritalStatus === undefined)).toBe(true);
    for (const b of bodies) expect(schemaErrors(clone, b)).toEqual([]);
    // The original schema does not know the member: nothing here named it.
    expect(fc.sample(validBody('patient-create-request.schema.json'), { seed: 3, numRuns: 200 })).not.toContainEqual(
      expect.objectContaining({ maritalStatus: expect.anything() }),
    );
    const withStatus = bodies.find((b) => b.maritalStatus !== undefined) as Record<string, unknown>;
    const cases = invalidCasesOf(clone, withStatus);
    expect(cases).toContainEqual(expect.objectContaining({ reason: 'not-in-enum', path: '/maritalStatus' }));
    expect(cases).toContainEqual(expect.objectContaining({ reason: 'wrong-type', path: '/maritalStatus' }));
  });

  test('optional members marked readOnly (server-owned) are not sent', () => {
    const clone = structuredClone(schemaFor('patient-create-request.schema.json'));
    (clone.properties as Record<string, unknown>).id = { readOnly: true };
    (clone.properties as Record<string, unknown>).active = { readOnly: true };
    const bodies = fc.sample(validBody(clone, { optionalMembers: 'always' }), { seed: 4, numRuns: 50 });
    expect(bodies.every((b) => !('id' in b) && !('active' in b) && 'gender' in b)).toBe(true);
  });

  test('itemLimits, uniqueBy, omit and nonEmpty shape the bodies and keep them valid', () => {
    const bodies = fc.sample(
      validBody('patient-create-request.schema.json', {
        optionalMembers: 'always',
        itemLimits: { name: 1, 'name.given': 1 },
        uniqueBy: { telecom: 'system' },
        omit: ['meta', 'telecom.id'],
        nonEmpty: true,
      }),
      { seed: 12, numRuns: 300 },
    );
    for (const b of bodies) {
      expect(validateAgainst('patient-create-request.schema.json', b).valid).toBe(true);
      const names = b.name as { given?: string[] }[];
      expect(names).toHaveLength(1);
      expect(names[0].given).toHaveLength(1);
      const telecom = b.telecom as { system?: string; id?: string }[];
      expect(new Set(telecom.map((t) => t.system)).size).toBe(telecom.length);
      expect(telecom.every((t) => !('id' in t))).toBe(true);
      expect('meta' in b).toBe(false);
      const strings = JSON.stringify(b).match(/"[^"]*"/g) ?? [];
      expect(strings).not.toContain('""');
      // Lists are non-empty above the depth limit (a recursive extension ends empty there).
      for (const list of [b.name, b.telecom, b.address, names[0].given]) expect(list).not.toEqual([]);
    }
  });

  test('formats, patterns, maxItems and oneOf exclusivity of a schema outside the registry', () => {
    const schema: JsonSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      required: ['day', 'at', 'mail', 'link', 'code', 'tags', 'pick'],
      properties: {
        day: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
        mail: { type: 'string', format: 'email' },
        link: { type: 'string', format: 'uri' },
        code: { type: 'string', pattern: '^[A-Z]{3}-\\d{2}$' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2 },
        // Every "a..." string matches both branches: oneOf must keep them out of the first.
        pick: { oneOf: [{ type: 'string' }, { type: 'string', pattern: '^a' }] },
        period: { $ref: 'common.schema.json#/$defs/period' },
      },
      additionalProperties: false,
    };
    fc.assert(
      fc.property(validBody(schema), (b) => {
        expect(schemaErrors(schema, b)).toEqual([]);
      }),
      { seed: 18, numRuns: 300 },
    );
    const picks = fc.sample(validBody(schema), { seed: 19, numRuns: 300 }).map((b) => String(b.pick));
    expect(picks.some((p) => p.startsWith('a'))).toBe(false);
  });

  test('an unsupported keyword, an unknown file and a non-object schema throw', () => {
    expect(() =>
      validBody({ type: 'object', properties: { x: { type: 'array', uniqueItems: true } }, required: ['x'] }),
    ).toThrow(/uniqueItems/);
    expect(() => validBody('no-such.schema.json')).toThrow(/Unknown schema file/);
    expect(() => validBody({ type: 'string' })).toThrow(/object schema/);
  });
});

describe('generated Patient bodies against the sandbox', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await TestSandbox.start();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  /** The refusals among the answers to creating `bodies`: status, diagnostics and the body. */
  async function refusals(bodies: readonly Record<string, unknown>[]): Promise<string[]> {
    const refused: string[] = [];
    for (const body of bodies) {
      expect(validateAgainst('patient-create-request.schema.json', body).valid).toBe(true);
      const answer = await sandbox.patient('POST', paths.createPatient, body);
      if (answer.status === 201) {
        expect((answer.json as { id?: unknown }).id).toEqual(expect.any(String));
        continue;
      }
      const issue = (answer.json as { issue?: { diagnostics?: string }[] } | undefined)?.issue?.[0];
      refused.push(`${answer.status} ${issue?.diagnostics ?? answer.text.slice(0, 120)} for ${JSON.stringify(body)}`);
    }
    return refused;
  }

  // D3 2.4 names three Patient extensions and not what a server does with another (DEC-D3-63):
  // a schema-valid body is created, or refused for an extension it does not know, and for
  // nothing else. The sandbox refuses them (422 MSG_PARAM_INVALID).
  test('create-patient creates a generated schema-valid body, or refuses only an undocumented extension', async () => {
    const bodies = fc.sample(validBody('patient-create-request.schema.json'), { seed: 20, numRuns: 12 });
    const refused = await refusals(bodies);
    expect(refused.filter((r) => !/^422 Unknown Patient extension /.test(r))).toEqual([]);
  });

  test('with the documented extension urls pinned, generated bodies are created', async () => {
    const documented = ['insurer', 'registrationid', 'authorizationno'].map(
      (name) => `https://ref.example/extension/patient/${name}`,
    );
    const bodies = fc.sample(
      validBody('patient-create-request.schema.json', {
        overrides: { 'extension.url': fc.constantFrom(...documented) },
      }),
      { seed: 21, numRuns: 12 },
    );
    expect(bodies.some((b) => Array.isArray(b.extension) && b.extension.length > 0)).toBe(true);
    expect(await refusals(bodies)).toEqual([]);
  });
});
