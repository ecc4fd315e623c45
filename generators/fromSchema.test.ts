import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schemaFiles, validateAgainst } from '../core/schemaRegistry.ts';
import { operationsD3 } from '../spec/operationsD3.ts';
import { arbitraryFromSchema } from './fromSchema.ts';

/**
 * Schemas excluded from the generation property, each with its reason (see schemas/README.md).
 * `common.schema.json` only holds $defs: it describes no value of its own.
 */
const EXCLUDED: Record<string, string> = {
  'common.schema.json': 'definitions only, no root shape',
};
/**
 * Every schema file, plus Document 3's response schemas (spec/operationsD3.ts, not yet in the
 * operation table), deduplicated by file: a D3 schema missing from schemas/ fails as unknown.
 */
const d3ResponseSchemas = operationsD3.flatMap((o) => (o.responseSchema ? [o.responseSchema] : []));
const generated = [...new Set([...schemaFiles(), ...d3ResponseSchemas])].filter((f) => !(f in EXCLUDED)).sort();

const SEED = 20251121;

describe('arbitraryFromSchema', () => {
  it.each(generated)('generates values valid against %s', (file) => {
    fc.assert(
      fc.property(arbitraryFromSchema(file), (value) => {
        const result = validateAgainst(file, value);
        if (!result.valid) throw new Error(`Expected a valid ${file}, received errors ${result.errors.join('; ')}`);
      }),
      { seed: SEED, numRuns: 30 },
    );
  });

  it('keeps generated arrays small', () => {
    const [batch] = fc.sample(arbitraryFromSchema('batch-detail.schema.json'), { numRuns: 1, seed: SEED }) as {
      providers: unknown[];
    }[];
    expect(batch.providers.length).toBeLessThanOrEqual(3);
  });

  it('steers named extensions to their documented value types', () => {
    const values = fc.sample(arbitraryFromSchema('coverage.schema.json'), { numRuns: 30, seed: SEED }) as {
      extension: { url: string; valueString?: string }[];
    }[];
    for (const coverage of values) {
      const policy = coverage.extension.find((e) => e.url.endsWith('/extension/policyExpired'));
      expect(['Yes', 'No']).toContain(policy?.valueString);
    }
  });

  it('would catch a generator that emits an invalid value', () => {
    // A generator mutated to drop the one mandatory extension: the property must fail.
    const broken = arbitraryFromSchema('coverage.schema.json').map((value) => ({
      ...(value as Record<string, unknown>),
      extension: [],
    }));
    expect(() =>
      fc.assert(
        fc.property(broken, (value) => {
          expect(validateAgainst('coverage.schema.json', value).valid).toBe(true);
        }),
        { seed: SEED, numRuns: 5 },
      ),
    ).toThrow(/policyExpired|Property failed/);
    // And a generator emitting a wrong type for a typed member.
    const mutated = fc.sample(arbitraryFromSchema('batch-detail.schema.json'), { numRuns: 1, seed: SEED })[0] as Record<
      string,
      unknown
    >;
    expect(validateAgainst('batch-detail.schema.json', { ...mutated, status: 'PROD' }).valid).toBe(false);
  });

  it('throws for an unknown schema file', () => {
    expect(() => arbitraryFromSchema('no-such.schema.json')).toThrow(/Unknown schema file/);
  });
});
