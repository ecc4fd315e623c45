import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { operations } from '../spec/operations.ts';
import { operationsD3 } from '../spec/operationsD3.ts';
import {
  MAX_ERRORS,
  SCHEMA_BASE_URI,
  compileAll,
  compileAllInMemory,
  formatErrors,
  schemaFiles,
  schemaFor,
  validateAgainst,
} from './schemaRegistry.ts';

const examplesDir = fileURLToPath(new URL('../schemas/examples/', import.meta.url));
const examples = readdirSync(examplesDir)
  .filter((f) => f.endsWith('.json'))
  .sort();
const read = (file: string): unknown => JSON.parse(readFileSync(examplesDir + file, 'utf8'));
/** `coverage.invalid-no-policy-expired.json` -> `coverage.schema.json` */
const schemaOf = (example: string): string => `${example.slice(0, example.indexOf('.'))}.schema.json`;
const validExamples = examples.filter((f) => /\.valid(-[a-z0-9-]+)?\.json$/.test(f));
const invalidExamples = examples.filter((f) => /\.invalid-[a-z0-9-]+\.json$/.test(f));

/**
 * Every schema a success or error body is judged against: the operation table, plus Document 3's
 * rows (spec/operationsD3.ts, not yet in the table; deduplicated by schema file) and the error bodies.
 */
const responseSchemas = [
  ...new Set([
    ...[...operations, ...operationsD3].flatMap((o) => (o.responseSchema ? [o.responseSchema] : [])),
    'operation-outcome.schema.json',
    'accounts-error.schema.json',
    'token-details-error.schema.json',
  ]),
].sort();

describe('schema registry', () => {
  it('compiles every schema under strict mode', () => {
    expect(() => compileAll()).not.toThrow();
    expect(schemaFiles().length).toBeGreaterThanOrEqual(17);
  });

  it('gives every schema the $id of its file name', () => {
    for (const file of schemaFiles()) expect(schemaFor(file).$id).toBe(SCHEMA_BASE_URI + file);
  });

  it('knows the response schema of every operation', () => {
    for (const file of responseSchemas) expect(schemaFiles()).toContain(file);
  });

  it('throws for an unknown schema file (a suite bug)', () => {
    expect(() => validateAgainst('no-such.schema.json', {})).toThrow(/Unknown schema file no-such.schema.json/);
    expect(() => schemaFor('no-such.schema.json')).toThrow(/Unknown schema file/);
  });

  it('names every example after a known schema', () => {
    expect(validExamples.length + invalidExamples.length).toBe(examples.length);
    for (const example of examples) expect(schemaFiles()).toContain(schemaOf(example));
  });

  it('has a valid example of every response schema', () => {
    for (const file of responseSchemas) {
      expect(validExamples.map(schemaOf), `valid example of ${file}`).toContain(file);
    }
  });

  it.each(validExamples)('accepts %s', (example) => {
    const result = validateAgainst(schemaOf(example), read(example));
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('the precompiled validators (the cache in node_modules/.cache) judge every example as compiled ones do', () => {
    const compiled = compileAllInMemory();
    // Valid and invalid examples, and every example against every other schema: plenty of errors.
    for (const example of examples) {
      for (const file of [schemaOf(example), 'operation-outcome.schema.json', 'bundle.schema.json']) {
        if (!schemaFiles().includes(file)) continue;
        const reference = compiled.get(file);
        const expected = reference?.(read(example)) ? [] : formatErrors(reference?.errors ?? []);
        expect(validateAgainst(file, read(example)).errors, `${example} against ${file}`).toEqual(expected);
      }
    }
  });

  it.each(invalidExamples)('refuses %s', (example) => {
    const result = validateAgainst(schemaOf(example), read(example));
    expect(result.valid).toBe(false);
    expect(result.errors.length).toBeGreaterThan(0);
  });
});

describe('validateAgainst error lines', () => {
  it('writes one line per problem: instance path, then message', () => {
    const result = validateAgainst('coverage.schema.json', read('coverage.invalid-no-policy-expired.json'));
    expect(result.errors).toEqual([
      '/extension must contain at least 1 valid item(s): the policyExpired extension (url ending /extension/policyExpired)',
    ]);
  });

  it('uses / for the document root and quotes what was received', () => {
    const result = validateAgainst('operation-outcome.schema.json', { resourceType: 'Coverage' });
    expect(result.errors).toContain("/ must have required property 'issue'");
    expect(result.errors).toContain('/resourceType must be equal to constant "OperationOutcome", received "Coverage"');
  });

  it('names the rule a failed if/then, oneOf or not stands for', () => {
    const policy = validateAgainst('coverage.schema.json', read('coverage.invalid-policy-expired-value.json'));
    expect(policy.errors).toEqual([
      '/extension/1/valueString must be equal to one of the allowed values: "Yes", "No", received "Maybe"',
      '/extension/1 must match "then" schema: extension policyExpired takes valueString, one of Yes, No',
    ]);
    const names = validateAgainst('batch-detail.schema.json', read('batch-detail.invalid-both-patient-names.json'));
    expect(names.errors).toEqual([
      '/providers/0/claims/0 must match exactly one schema in oneOf: exactly one of patientName (structured) and patientNameUnstruct (text)',
    ]);
  });

  it('leads with the cause: a wrong type comes before the anyOf and if/then lines it explains (issue 24)', () => {
    const tags = [
      { code: 'page', display: 1 },
      { code: 'count', display: '5' },
    ];
    const result = validateAgainst('bundle.schema.json', { type: 'searchset', total: 1, meta: { tag: tags } });
    expect(result.valid).toBe(false);
    expect(result.errors[0]).toBe('/meta/tag/0/display must be string, received 1');
    const composite = result.errors.findIndex((l) => /anyOf|"then"/.test(l));
    // The alternatives are still listed (on demand, in the evidence), after the cause.
    expect(composite).toBeGreaterThan(0);
  });

  it('caps the lines at MAX_ERRORS and keeps each on one line', () => {
    const tags = Array.from({ length: 40 }, (_, i) => ({ code: 'page', display: i }));
    const result = validateAgainst('bundle.schema.json', { type: 'searchset', total: -1, meta: { tag: tags } });
    expect(result.valid).toBe(false);
    expect(result.errors).toHaveLength(MAX_ERRORS);
    for (const line of result.errors) {
      expect(line).toMatch(/^\/\S* \S/);
      expect(line).not.toContain('\n');
    }
  });

  it('reports nothing for a valid body', () => {
    expect(validateAgainst('bundle.schema.json', { type: 'collection', total: 0 })).toEqual({
      valid: true,
      errors: [],
    });
  });
});
