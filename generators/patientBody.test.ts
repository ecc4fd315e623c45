import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { validateAgainst } from '../core/schemaRegistry.ts';
import { PATIENT_EXTENSIONS, patientBody } from './patientBody.ts';

const REF = 'https://ref.example';

describe('patientBody', () => {
  const bodies = fc.sample(patientBody(REF), { seed: 31, numRuns: 1000 });

  test('1000 bodies are accepted by the create request schema', () => {
    expect(bodies.filter((b) => !validateAgainst('patient-create-request.schema.json', b).valid)).toEqual([]);
  });

  test('they follow the decisions: one name with one given and one title, one address, one telecom per system (DEC-D3-32)', () => {
    for (const b of bodies) {
      const names = (b.name ?? []) as { given?: unknown[]; prefix?: unknown[] }[];
      expect(names.length).toBeLessThanOrEqual(1);
      for (const n of names) {
        expect((n.given ?? []).length).toBeLessThanOrEqual(1);
        expect((n.prefix ?? []).length).toBeLessThanOrEqual(1);
      }
      expect(((b.address ?? []) as unknown[]).length).toBeLessThanOrEqual(1);
      const systems = ((b.telecom ?? []) as { system: string }[]).map((t) => t.system);
      expect(new Set(systems).size).toBe(systems.length);
    }
  });

  test('no server-owned member, no table spelling, no empty text or list, documented extensions only', () => {
    const urls = new Set(PATIENT_EXTENSIONS.map((n) => `${REF}/extension/patient/${n}`));
    for (const b of bodies) {
      expect(['id', 'meta', 'birthdate'].filter((m) => m in b)).toEqual([]);
      const text = JSON.stringify(b);
      expect(text).not.toContain('""');
      expect(text).not.toContain('[]');
      expect(text).not.toMatch(/"id":/);
      for (const e of (b.extension ?? []) as { url: string }[]) expect(urls.has(e.url)).toBe(true);
    }
  });
});
