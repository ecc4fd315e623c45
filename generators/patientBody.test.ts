import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { validateAgainst } from '../core/schemaRegistry.ts';
import {
  CONDITION_PATIENT_PLACEHOLDER,
  conditionBody,
  PATIENT_EXTENSIONS,
  patientBody,
  withDocumentedForms,
} from './patientBody.ts';

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
      expect(['id', 'meta', 'birthdate', 'active', 'deceasedBoolean'].filter((m) => m in b)).toEqual([]);
      // Only the members 2.4 names: no HumanName use, text or suffix, no address use.
      for (const n of (b.name ?? []) as Record<string, unknown>[])
        expect(Object.keys(n).filter((k) => !['family', 'given', 'prefix'].includes(k))).toEqual([]);
      for (const a of (b.address ?? []) as Record<string, unknown>[]) expect('use' in a).toBe(false);
      const text = JSON.stringify(b);
      expect(text).not.toContain('""');
      expect(text).not.toContain('[]');
      expect(text).not.toMatch(/"id":/);
      for (const e of (b.extension ?? []) as { url: string }[]) expect(urls.has(e.url)).toBe(true);
    }
  });

  test('every value has the form its member names: e-mails, telephone numbers, past birth dates (DEC-D3-68)', () => {
    const telecoms = bodies.flatMap((b) => (b.telecom ?? []) as { system: string; value: string }[]);
    expect(new Set(telecoms.map((t) => t.system))).toEqual(new Set(['phone', 'email', 'sms']));
    for (const t of telecoms) {
      if (t.system === 'email') expect(t.value).toMatch(/^[a-z0-9]+@[a-z0-9]+(\.[a-z0-9]+)+$/);
      else expect(t.value).toMatch(/^0\d{4} \d{6}$/);
    }
    const births = bodies.flatMap((b) => (typeof b.birthDate === 'string' ? [b.birthDate] : []));
    expect(births.length).toBeGreaterThan(100);
    for (const d of births) {
      expect(d < '2020-01-01').toBe(true);
      expect(new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10)).toBe(d);
    }
  });

  test('the forms can fail: a text value under system email is made an e-mail, a future birth date a past one', () => {
    const fixed = withDocumentedForms({
      resourceType: 'Patient',
      telecom: [
        { system: 'email', value: 'Zbo' },
        { system: 'phone', value: 'nj4ArP' },
      ],
      birthDate: '2028-02-29',
    });
    expect(fixed.telecom).toEqual([
      { system: 'email', value: 'zbo@mail.example' },
      { system: 'phone', value: expect.stringMatching(/^07700 900\d{3}$/) },
    ]);
    expect(fixed.birthDate).toBe('1948-02-29');
    expect(withDocumentedForms({ resourceType: 'Patient', birthDate: '1999-12-31' }).birthDate).toBe('1999-12-31');
  });
});

describe('conditionBody', () => {
  const conditions = fc.sample(conditionBody(), { seed: 7, numRuns: 300 });

  test('300 bodies are accepted by the create request schema and name the patient placeholder', () => {
    expect(conditions.filter((c) => !validateAgainst('condition-create-request.schema.json', c).valid)).toEqual([]);
    for (const c of conditions) expect(JSON.stringify(c)).toContain(CONDITION_PATIENT_PLACEHOLDER);
  });

  test('nothing the server assigns: no id, no meta, no detail reference (DEC-D3-69); attachment locations are URLs', () => {
    for (const c of conditions) {
      expect(['id', 'meta'].filter((m) => m in c)).toEqual([]);
      for (const e of (c.evidence ?? []) as { detail: Record<string, unknown>[] }[])
        for (const d of e.detail) {
          expect(d).not.toHaveProperty('reference');
          expect((d.identifier as { value: string }).value).toMatch(/^https:\/\/files\.example\/attachments\/\S+$/);
        }
    }
    expect(conditions.some((c) => Array.isArray(c.evidence) && c.evidence.length > 0)).toBe(true);
  });
});
