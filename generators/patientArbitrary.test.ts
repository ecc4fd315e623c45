import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { validateAgainst } from '../core/schemaRegistry.ts';
import { patientArbitrary } from './patientArbitrary.ts';

const hasSchema = (() => {
  try {
    validateAgainst('patient-create-request.schema.json', {});
    return true;
  } catch {
    return false;
  }
})();

describe('patientArbitrary', () => {
  test('generated patients carry no id and only the documented members', () => {
    fc.assert(
      fc.property(patientArbitrary(), (p) => {
        expect(p.id).toBeUndefined();
        expect(Object.keys(p).sort()).toEqual([
          'address',
          'birthDate',
          'extension',
          'gender',
          'name',
          'resourceType',
          'telecom',
        ]);
        expect(p.birthDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }),
      { seed: 5, numRuns: 100 },
    );
  });

  test.runIf(hasSchema)('generated patients are valid create requests (and a broken one is not)', () => {
    fc.assert(
      fc.property(patientArbitrary(), (p) => validateAgainst('patient-create-request.schema.json', p).valid),
      { seed: 6, numRuns: 100 },
    );
    const [p] = fc.sample(patientArbitrary(), { seed: 1, numRuns: 1 });
    expect(validateAgainst('patient-create-request.schema.json', { ...p, birthDate: '12/04/1980' }).valid).toBe(false);
  });
});
