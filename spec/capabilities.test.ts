import { describe, expect, test } from 'vitest';
import { CAPABILITY_ROWS, capabilityRowsOf } from './capabilities.ts';
import { operations } from './operations.ts';
import { requirementById } from './requirements.ts';

describe('the capability rows (what each service offers)', () => {
  test('each is a server row of section 1 whose operations lie in one service', () => {
    for (const id of CAPABILITY_ROWS) {
      const row = requirementById(id);
      expect(row?.section, id).toBe('1');
      expect(row?.party, id).toBe('server');
      const services = new Set(row?.operations.map((o) => operations.find((op) => op.id === o)?.service));
      expect(services.size, id).toBe(1);
    }
  });

  test('every operation of the table is offered by exactly one of them', () => {
    for (const op of operations) {
      const offering = CAPABILITY_ROWS.filter((id) => requirementById(id)?.operations.includes(op.id));
      expect(offering, op.id).toHaveLength(1);
    }
  });

  test('an operation cites its testable capability row only', () => {
    expect(capabilityRowsOf('lookup-practitioners')).toEqual(['D2-1-02']);
    expect(capabilityRowsOf('create-patient')).toEqual(['D3-1-04']);
    // Hospital claims and bills: descriptive only (D1-1-05, INFO).
    expect(capabilityRowsOf('search-bills')).toEqual([]);
  });
});
