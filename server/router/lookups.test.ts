import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REF_URL } from '../resources/urls.ts';
import { TestSandbox, errorCode, extension, ids, paths, resources, tags, withQuery } from '../testSupport.ts';

type J = any;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await TestSandbox.start();
});
afterAll(() => sb.close());

const get = (path: string, query: Record<string, string> = {}, options = {}) => sb.get(withQuery(path, query), options);

describe('Practitioner lookup (4.2)', () => {
  test('text Smith finds the practitioners whose name contains it, with bundle id and fullUrl (DEC-D2-34)', async () => {
    const a = await get(paths.lookupPractitioners, { text: 'Smith', count: '50' });
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    const b: J = a.json;
    expect(b).toMatchObject({ resourceType: 'Bundle', id: expect.any(String), type: 'searchset', total: 5 });
    expect(ids(b)).toEqual(['PR-0001', 'PR-0005', 'PR-0012', 'PR-0020', 'PR-0021']);
    for (const e of b.entry) {
      expect(e.fullUrl).toBe(`${sb.url}/reference/Practitioner/${e.resource.id}`);
      const p = e.resource;
      expect(p).toMatchObject({
        resourceType: 'Practitioner',
        meta: { id: p.id, lastUpdated: expect.any(String) },
        active: expect.any(Boolean),
        gender: expect.any(String),
      });
      expect(`${p.name[0].given.join(' ')} ${p.name[0].family}`.toLowerCase()).toContain('smith');
      expect(p.extension[0].url).toMatch(new RegExp(`^${REF_URL}/valueset/profession/[A-Z]+$`));
      expect(p.extension[0].url.endsWith(`/${p.extension[0].valueCodeableConcept.coding[0].code}`)).toBe(true);
    }
  });

  test('matching ignores letter case and covers given names', async () => {
    expect(ids((await get(paths.lookupPractitioners, { text: 'sMiTh', count: '50' })).json)).toHaveLength(5);
    expect(ids((await get(paths.lookupPractitioners, { text: 'alice' })).json)).toEqual(['PR-0001']);
    expect((await get(paths.lookupPractitioners, { text: 'Nobody' })).json).toMatchObject({ total: 0, entry: [] });
  });

  test('pages with digit-string tags, total = matches (DEC-D2-27)', async () => {
    const all = ids((await get(paths.lookupPractitioners, { text: 'a', count: '50' })).json);
    expect(all.length).toBeGreaterThanOrEqual(25);
    const collected: string[] = [];
    for (let page = 1; page <= Math.ceil(all.length / 4); page++) {
      const b: J = (await get(paths.lookupPractitioners, { text: 'a', page: String(page), count: '4' })).json;
      expect(tags(b)).toEqual({ page: String(page), count: '4', maxCount: String(all.length) });
      expect(b.total).toBe(all.length);
      collected.push(...ids(b));
    }
    expect(collected).toEqual(all);
    expect((await get(paths.lookupPractitioners, { text: 'Smith' })).json).toMatchObject({
      meta: {
        tag: [
          { code: 'page', display: '1' },
          { code: 'count', display: '10' },
          { code: 'maxCount', display: '5' },
        ],
      },
    });
  });

  test('without text (or with an empty one) it is 400 MSG_MISSING_MANDATORY_PARAM (DEC-D2-07, -31)', async () => {
    for (const q of [{}, { text: '' }, { text: '  ' }, { count: '5' }] as Record<string, string>[]) {
      const a = await get(paths.lookupPractitioners, q);
      expect([a.status, errorCode(a.json)]).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
      expect(a.json).toMatchObject({ resourceType: 'OperationOutcome' });
    }
  });

  test('bad paging is 400 MSG_INVALID_FORMAT; no token is 401', async () => {
    const a = await get(paths.lookupPractitioners, { text: 'Smith', count: 'x' });
    expect([a.status, errorCode(a.json)]).toEqual([400, 'MSG_INVALID_FORMAT']);
    expect((await get(paths.lookupPractitioners, { text: 'Smith' }, { token: null })).status).toBe(401);
    expect((await get(paths.lookupPractitioners, { text: 'Smith' }, { token: 'unknown' })).status).toBe(401);
  });
});

describe('Location lookup (4.3)', () => {
  test('text London with type P: several practices, each named London', async () => {
    const b: J = (await get(paths.lookupLocations, { text: 'London', type: 'P', count: '50' })).json;
    expect(b).toMatchObject({ resourceType: 'Bundle', id: expect.any(String), type: 'searchset' });
    expect(b.total).toBeGreaterThanOrEqual(3);
    for (const e of b.entry) {
      expect(e.fullUrl).toBe(`${sb.url}/reference/Location/${e.resource.id}`);
      expect(e.resource).toMatchObject({
        resourceType: 'Location',
        name: expect.stringMatching(/london/i),
        address: { line: expect.any(Array), postalCode: expect.any(String) },
      });
    }
  });

  test('type narrows: P is a subset of the unfiltered text search (DEC-D2-47)', async () => {
    const all = ids((await get(paths.lookupLocations, { text: 'London', count: '50' })).json);
    const practices = ids((await get(paths.lookupLocations, { text: 'London', type: 'P', count: '50' })).json);
    expect(all).toEqual(expect.arrayContaining(practices));
    expect(practices.length).toBeLessThan(all.length);
    expect(ids((await get(paths.lookupLocations, { text: 'London', type: 'p', count: '50' })).json)).toEqual(practices);
  });

  test('text also matches a postcode, ignoring spaces and case', async () => {
    expect(ids((await get(paths.lookupLocations, { text: 'se12pr' })).json)).toEqual(['LOC-003']);
    expect(ids((await get(paths.lookupLocations, { text: 'SE1 2PR' })).json)).toEqual(['LOC-003']);
  });

  test('at least 15 locations; positions are numbers where known', async () => {
    const all = resources((await get(paths.lookupLocations, { text: 'o', count: '50' })).json) as J[];
    expect(all.length).toBeGreaterThanOrEqual(15);
    for (const l of all.filter((x) => x.position))
      expect(l.position).toEqual({ longitude: expect.any(Number), latitude: expect.any(Number) });
  });

  test('without text it is 400', async () => {
    const a = await get(paths.lookupLocations, { type: 'P' });
    expect([a.status, errorCode(a.json)]).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
  });
});

describe('List insurers (4.4)', () => {
  const list = async (query: Record<string, string> = {}) => (await get(paths.insurers, query)).json as J;

  test('every insurer in one page without count; Organization members of 2.3', async () => {
    const b = await list();
    expect(b).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    expect(b.total).toBeGreaterThanOrEqual(10);
    expect(b.entry).toHaveLength(b.total);
    expect(tags(b)).toEqual({ page: '1', count: String(b.total), maxCount: String(b.total) });
    for (const { resource: o } of b.entry) {
      expect(o.resourceType).toBe('Organization');
      expect(o.identifier[0]).toMatchObject({ id: o.id, system: `${REF_URL}/insurer-id`, value: expect.any(String) });
      for (const name of ['live', 'insurerType', 'edi', 'category'])
        expect(typeof extension(o, name), name).toBe('string');
      expect(extension(o, 'lastUpdated')).toEqual(expect.any(String));
      expect(['MII', 'PMI']).toContain(extension(o, 'insurerType'));
      expect(['Yes', 'No']).toContain(extension(o, 'edi'));
    }
    const first = b.entry[0].resource;
    expect([first.id, first.identifier[0].value, first.name]).toEqual(['INS001', 'bup', 'Bupa']);
  });

  test('type edi and mii keep exactly the qualifying insurers; all equals no type (DEC-D2-08, -48)', async () => {
    const all = (await list()).entry.map((e: J) => e.resource);
    const edi = (await list({ type: 'edi' })).entry.map((e: J) => e.resource);
    const mii = (await list({ type: 'mii' })).entry.map((e: J) => e.resource);
    expect(edi.map((o: J) => o.id)).toEqual(all.filter((o: J) => extension(o, 'edi') === 'Yes').map((o: J) => o.id));
    expect(mii.map((o: J) => o.id)).toEqual(
      all.filter((o: J) => extension(o, 'insurerType') === 'MII').map((o: J) => o.id),
    );
    expect(edi.length).toBeGreaterThan(0);
    expect(edi.length).toBeLessThan(all.length);
    expect(mii.length).toBeGreaterThan(0);
    expect(mii.length).toBeLessThan(all.length);
    expect(await list({ type: 'all' })).toEqual(await list());
  });

  test('page and count page the list (DEC-D2-27)', async () => {
    const b = await list({ page: '2', count: '5' });
    expect(tags(b)).toEqual({ page: '2', count: '5', maxCount: String(b.total) });
    expect(ids(b)).toEqual(['INS006', 'INS007', 'INS008', 'INS009', 'INS010']);
  });

  test('an unknown type is 400 MSG_INVALID_FORMAT; no token is 401', async () => {
    const a = await get(paths.insurers, { type: 'pmi' });
    expect([a.status, errorCode(a.json)]).toEqual([400, 'MSG_INVALID_FORMAT']);
    expect((await get(paths.insurers, {}, { token: null })).status).toBe(401);
  });
});

describe('Insurer control parameters (4.5)', () => {
  test('INS001 (bup) has all four parameters, each once with an allowed value (DEC-D2-10)', async () => {
    const a = await get(paths.controlParameters, { insurerId: 'INS001' });
    expect(a.status).toBe(200);
    const o: J = a.json;
    expect(o).toMatchObject({
      resourceType: 'Organization',
      id: expect.any(String),
      identifier: [{ value: 'bup' }],
      name: 'Bupa',
    });
    const byName = Object.fromEntries(o.extension.map((e: J) => [e.url.split('/').pop(), e.valueString]));
    expect(byName).toEqual({ acceptsEDIClaims: 'Y', requiresDiagnosis: 'Y', synchronousME: 'Y', stvEnabled: 'E' });
    for (const e of o.extension)
      expect(e.url).toMatch(new RegExp(`^${REF_URL}/organization/ins/INS001/\\$control-parameters/`));
  });

  test('every insurer has the four parameters', async () => {
    for (const { resource } of ((await get(paths.insurers)).json as J).entry) {
      const o: J = (await get(paths.controlParameters, { insurerId: resource.id })).json;
      expect(
        o.extension.map((e: J) => e.url.split('/').pop()),
        resource.id,
      ).toEqual(['acceptsEDIClaims', 'requiresDiagnosis', 'synchronousME', 'stvEnabled']);
      for (const e of o.extension)
        expect(e.url.endsWith('stvEnabled') ? ['Y', 'N', 'E'] : ['Y', 'N']).toContain(e.valueString);
    }
  });

  test('an unknown insurer is an empty Bundle (DEC-D2-09); no insurerId is 400', async () => {
    const unknown = await get(paths.controlParameters, { insurerId: 'INS999' });
    expect(unknown.status).toBe(200);
    expect(unknown.json).toMatchObject({ resourceType: 'Bundle', total: 0, entry: [] });
    const missing = await get(paths.controlParameters);
    expect([missing.status, errorCode(missing.json)]).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
    expect((await get(paths.controlParameters, { insurerId: 'INS001' }, { token: null })).status).toBe(401);
  });
});
