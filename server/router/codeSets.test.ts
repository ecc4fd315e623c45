import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CODE_SET_NAMES } from '../../spec/operationsD2.ts';
import { REF_URL } from '../resources/urls.ts';
import { TestSandbox, errorCode, paths, tags, withQuery } from '../testSupport.ts';

type J = any;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await TestSandbox.start();
});
afterAll(() => sb.close());

const codeSet = async (
  setName: string,
  scheme?: string,
  query: Record<string, string> = {},
  options = {},
): Promise<{ status: number; headers: Headers; json: J }> =>
  sb.get(withQuery(paths.codeSet(setName, scheme), query), options);
const codes = (body: J): string[] => body.expansion.contains.map((i: J) => i.code);
const ext = (item: J, suffix: string) =>
  item.extension.find((e: J) => String(e.url).endsWith(`/${suffix}`) || e.id === suffix);

describe('Retrieve master code sets (4.1)', () => {
  test.each([...CODE_SET_NAMES])('%s is a ValueSet, served as fhir+json', async (name) => {
    const a = await codeSet(name);
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    const v: J = a.json;
    expect(v).toMatchObject({ resourceType: 'ValueSet', id: name, name, expansion: { offset: 0 } });
    expect(v.expansion.total).toBeGreaterThanOrEqual(5);
    for (const item of v.expansion.contains) {
      expect(item).toMatchObject({
        system: expect.stringContaining(`${REF_URL}/valueset/${name}`),
        code: expect.any(String),
        display: expect.any(String),
      });
      expect(ext(item, 'lastUpdated')).toMatchObject({
        id: 'lastUpdated',
        valueDateTime: expect.stringMatching(/^202[456]-/),
      });
    }
  });

  test('items carry requiresProcedure on some, lastUpdated on all, spread over 2024-2026', async () => {
    const items: J[] = [];
    for (const name of CODE_SET_NAMES)
      items.push(...(await codeSet(name, undefined, { count: '1000' })).json.expansion.contains);
    expect(items.some((i) => ext(i, 'requiresProcedure')?.valueString === 'Y')).toBe(true);
    expect(items.some((i) => ext(i, 'requiresProcedure') === undefined)).toBe(true);
    const years = new Set(items.map((i) => ext(i, 'lastUpdated').valueDateTime.slice(0, 4)));
    expect([...years].sort()).toEqual(['2024', '2025', '2026']);
  });

  test('schemes: ISC, CCSD and BUPA, ICD9 and ICD10 (DEC-D2-02, -40)', async () => {
    for (const [name, scheme, atLeast] of [
      ['service-category', 'ISC', 5],
      ['service-type', 'ISC', 5],
      ['procedure-code', 'CCSD', 10],
      ['procedure-code', 'BUPA', 5],
      ['condition-code', 'ICD9', 10],
      ['condition-code', 'ICD10', 40],
    ] as const) {
      const v: J = (await codeSet(name, scheme, { count: '1000' })).json;
      expect(v.id).toBe(`${name}-${scheme}`);
      expect(v.expansion.total, `${name}/${scheme}`).toBeGreaterThanOrEqual(atLeast);
      for (const item of v.expansion.contains) expect(item.system).toBe(`${REF_URL}/valueset/${name}/${scheme}`);
    }
    const all: J = (await codeSet('condition-code', undefined, { count: '1000' })).json;
    expect(all.expansion.total).toBe(
      (await codeSet('condition-code', 'ICD9')).json.expansion.total +
        (await codeSet('condition-code', 'ICD10')).json.expansion.total,
    );
  });

  test('a scheme is matched ignoring letter case; an unknown scheme is an empty expansion', async () => {
    expect(codes((await codeSet('condition-code', 'icd10', { count: '1000' })).json)).toEqual(
      codes((await codeSet('condition-code', 'ICD10', { count: '1000' })).json),
    );
    const none = await codeSet('condition-code', 'SNOMED');
    expect(none.status).toBe(200);
    expect(none.json).toMatchObject({ expansion: { total: 0, offset: 0, contains: [] } });
  });

  test('practitioner-role holds CON, PHY, PSY and at least five professions', async () => {
    const v: J = (await codeSet('practitioner-role')).json;
    expect(codes(v)).toEqual(expect.arrayContaining(['CON', 'PHY', 'PSY']));
    expect(v.expansion.total).toBeGreaterThanOrEqual(5);
  });

  test('practitioner-specialty/{profession} narrows to that profession (DEC-D2-06)', async () => {
    const all: J = (await codeSet('practitioner-specialty', undefined, { count: '1000' })).json;
    expect(all.expansion.total).toBeGreaterThanOrEqual(20);
    for (const item of all.expansion.contains)
      expect(ext(item, 'practitioner-role')).toEqual({
        url: `${REF_URL}/extension/practitioner-role`,
        valueString: expect.any(String),
      });
    const con: J = (await codeSet('practitioner-specialty', 'CON', { count: '1000' })).json;
    expect(con.expansion.total).toBeGreaterThanOrEqual(6);
    for (const item of con.expansion.contains) expect(ext(item, 'practitioner-role').valueString).toBe('CON');
    expect(codes(all)).toEqual(expect.arrayContaining(codes(con)));
    const professions = new Set(all.expansion.contains.map((i: J) => ext(i, 'practitioner-role').valueString));
    expect(professions.size).toBeGreaterThanOrEqual(5);
    expect((await codeSet('practitioner-specialty', 'XYZ')).json.expansion.total).toBe(0);
  });

  test('paging: default 100, offset = (page - 1) x count, total on every page, no overlap (DEC-D2-04, -32)', async () => {
    const plain: J = (await codeSet('condition-code')).json;
    expect(tags(plain)).toEqual({ page: '1', count: '100', maxCount: String(plain.expansion.total) });
    const total = (await codeSet('condition-code', 'ICD10')).json.expansion.total;
    const seen: string[] = [];
    for (let page = 1; page <= Math.ceil(total / 7); page++) {
      const v: J = (await codeSet('condition-code', 'ICD10', { page: String(page), count: '7' })).json;
      expect(tags(v)).toEqual({ page: String(page), count: '7', maxCount: String(total) });
      expect(v.expansion).toMatchObject({ total, offset: (page - 1) * 7 });
      expect(v.expansion.contains.length).toBeLessThanOrEqual(7);
      seen.push(...codes(v));
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    const beyond: J = (await codeSet('condition-code', 'ICD10', { page: '99', count: '7' })).json;
    expect(beyond.expansion).toMatchObject({ total, offset: 98 * 7, contains: [] });
  });

  test('count 1 and 1000 are served; 0, 1001 and non-integers are 400 MSG_INVALID_FORMAT (DEC-D2-03)', async () => {
    expect((await codeSet('condition-code', undefined, { count: '1' })).json.expansion.contains).toHaveLength(1);
    const thousand: J = (await codeSet('condition-code', undefined, { count: '1000' })).json;
    expect(thousand.expansion.contains).toHaveLength(thousand.expansion.total);
    for (const count of ['0', '1001', '-1', 'ten', '2.5']) {
      const a = await codeSet('condition-code', undefined, { count });
      expect([a.status, errorCode(a.json)], count).toEqual([400, 'MSG_INVALID_FORMAT']);
    }
    const badPage = await codeSet('condition-code', undefined, { page: '0' });
    expect([badPage.status, errorCode(badPage.json)]).toEqual([400, 'MSG_INVALID_FORMAT']);
  });

  test('_since keeps codes updated at or after it (DEC-D2-05)', async () => {
    const since = '2025-06-01T00:00:00Z';
    const all: J = (await codeSet('condition-code', undefined, { count: '1000' })).json;
    const recent: J = (await codeSet('condition-code', undefined, { count: '1000', _since: since })).json;
    const expected = all.expansion.contains
      .filter((i: J) => Date.parse(ext(i, 'lastUpdated').valueDateTime) >= Date.parse(since))
      .map((i: J) => i.code);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.expansion.total);
    expect(codes(recent)).toEqual(expected);
    expect(recent.expansion.total).toBe(expected.length);
    const bad = await codeSet('condition-code', undefined, { _since: 'yesterday' });
    expect([bad.status, errorCode(bad.json)]).toEqual([400, 'MSG_INVALID_FORMAT']);
  });

  test('an unknown set name is 404 MSG_NOT_FOUND; no set name is 400 MSG_MISSING_MANDATORY_PARAM', async () => {
    const unknown = await codeSet('no-such-set');
    expect([unknown.status, errorCode(unknown.json)]).toEqual([404, 'MSG_NOT_FOUND']);
    expect(unknown.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    const none = await sb.get('/reference/valueset');
    expect([none.status, errorCode(none.json)]).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
  });

  test('no token is 401', async () => {
    const a = await codeSet('service-category', undefined, {}, { token: null });
    expect([a.status, errorCode(a.json)]).toEqual([401, 'MSG_UNAUTHORIZED']);
  });
});
