import fc from 'fast-check';
import { arbitraryFromSchema } from './generators/fromSchema.ts';
import { schemaFiles, validateAgainst } from './core/schemaRegistry.ts';
for (const f of schemaFiles().filter((f) => f !== 'common.schema.json')) {
  const t0 = Date.now();
  const arb = arbitraryFromSchema(f);
  const t1 = Date.now();
  const values = fc.sample(arb, { numRuns: 30, seed: 1 });
  const bad = values.map((v) => validateAgainst(f, v)).filter((r) => !r.valid);
  console.log(f, 'build', t1 - t0, 'ms sample', Date.now() - t1, 'ms invalid', bad.length, bad[0]?.errors.slice(0, 5));
  if (process.argv[2] === f) console.log(JSON.stringify(values[3], null, 1));
}
