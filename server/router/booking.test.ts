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
const all = async (path: string, query: Record<string, string> = {}) =>
  resources((await get(path, { count: '100', ...query })).json) as J[];
const bookingId = (r: J) => r.identifier.find((i: J) => i.id === 'booking_identifier')?.value;

describe('Get booking practitioner (4.12)', () => {
  test('BP-0001: a Bundle with one entry whose booking_identifier is the id (DEC-D2-23)', async () => {
    const a = await sb.get(paths.bookingPractitioner('BP-0001'));
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    const b: J = a.json;
    expect(b).toMatchObject({ resourceType: 'Bundle', total: 1 });
    expect(b.entry).toHaveLength(1);
    const p = b.entry[0].resource;
    expect(p).toMatchObject({
      resourceType: 'Practitioner',
      id: 'BP-0001',
      meta: { lastUpdated: expect.any(String) },
      active: true,
      gender: 'female',
      name: [{ family: 'Price', given: ['Anna'] }],
    });
    expect(p.identifier).toEqual([{ id: 'booking_identifier', system: `${REF_URL}/booking-id`, value: 'BP-0001' }]);
    expect(extension(p, 'site')).toEqual({ reference: 'Site/SITE001', display: expect.any(String) });
    expect(extension(p, 'registeredNumber')).toEqual(expect.any(String));
  });

  test('an unknown id is 404 MSG_ENTITY_NOT_FOUND_IN_DATABASE; no token is 401', async () => {
    const a = await sb.get(paths.bookingPractitioner('BP-9999'));
    expect([a.status, errorCode(a.json)]).toEqual([404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE']);
    expect(a.json).toMatchObject({ resourceType: 'OperationOutcome' });
    expect((await sb.get(paths.bookingPractitioner('BP-0001'), { token: null })).status).toBe(401);
  });
});

describe('Search booking practitioners (4.12)', () => {
  test('unfiltered: at least 20 practitioners BP-0001.. in id order, paged, lastUpdated over 2025-2026', async () => {
    const b: J = (await get(paths.bookingPractitioners)).json;
    expect(b).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    expect(b.total).toBeGreaterThanOrEqual(20);
    expect(tags(b)).toEqual({ page: '1', count: '10', maxCount: String(b.total) });
    const every = await all(paths.bookingPractitioners);
    expect(every.map(bookingId)).toEqual(every.map((p) => p.id));
    expect(every.map((p) => p.id)).toEqual(
      Array.from({ length: every.length }, (_, k) => `BP-${String(k + 1).padStart(4, '0')}`),
    );
    expect(new Set(every.map((p) => p.meta.lastUpdated.slice(0, 4)))).toEqual(new Set(['2025', '2026']));
    const p3 = ids((await get(paths.bookingPractitioners, { page: '3', count: '5' })).json);
    expect(p3).toEqual(every.slice(10, 15).map((p) => p.id));
  });

  test.each([
    [{ family: 'pri' }, (p: J) => p.name[0].family.toLowerCase().startsWith('pri')],
    [{ given: 'An' }, (p: J) => p.name[0].given[0].startsWith('An')],
    [{ gender: 'FEMALE' }, (p: J) => p.gender === 'female'],
    [{ id: 'BP-0007' }, (p: J) => p.id === 'BP-0007'],
    [{ site: 'SITE002' }, (p: J) => (extension(p, 'site') as J).reference === 'Site/SITE002'],
    [{ registeredno: 'gmc5007331' }, (p: J) => extension(p, 'registeredNumber') === 'GMC5007331'],
  ] as [Record<string, string>, (p: J) => boolean][])(
    '%j keeps exactly the matching practitioners (DEC-D2-59)',
    async (q, matches) => {
      const every = await all(paths.bookingPractitioners);
      const filtered = await all(paths.bookingPractitioners, q);
      expect(filtered.length).toBeGreaterThan(0);
      expect(filtered.map((p) => p.id)).toEqual(every.filter(matches).map((p) => p.id));
    },
  );

  test('profession, channel, location, postcode and near are subsets naming the practitioners of the seed', async () => {
    const every = (await all(paths.bookingPractitioners)).map((p) => p.id);
    const roles = await all(paths.bookingRoles);
    const atLocation = (loc: string) =>
      [
        ...new Set(
          roles
            .filter((r) => r.location[0].reference === `Location/${loc}`)
            .map((r) => r.practitioner.reference.split('/')[1]),
        ),
      ].sort();
    for (const [q, expected] of [
      [{ location: 'BL-04' }, atLocation('BL-04')],
      [{ postcode: 'wd180jp' }, atLocation('BL-04')],
      [{ near: '51.6534:-0.4026:1:km' }, atLocation('BL-04')],
      [{ near: '51.5074:-0.1278:1:mi' }, []],
    ] as [Record<string, string>, string[]][]) {
      expect((await all(paths.bookingPractitioners, q)).map((p) => p.id).sort(), JSON.stringify(q)).toEqual(expected);
    }
    for (const q of [{ profession: 'CON' }, { channel: 'CH-WEB' }] as Record<string, string>[]) {
      const found = (await all(paths.bookingPractitioners, q)).map((p) => p.id);
      expect(found.length).toBeGreaterThan(0);
      expect(found.length).toBeLessThan(every.length);
      expect(every).toEqual(expect.arrayContaining(found));
    }
    expect((await all(paths.bookingPractitioners, { profession: 'CON' })).map((p) => p.id)).toContain('BP-0001');
  });

  test('_since keeps practitioners updated at or after it; a malformed one is 422 MSG_DATE_FORMAT (DEC-D2-22)', async () => {
    const since = '2026-01-01T00:00:00Z';
    const every = await all(paths.bookingPractitioners);
    const recent = await all(paths.bookingPractitioners, { _since: since });
    const expected = every.filter((p) => Date.parse(p.meta.lastUpdated) >= Date.parse(since)).map((p) => p.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(every.length);
    expect(recent.map((p) => p.id)).toEqual(expected);
    for (const bad of ['yesterday', '2026-13-01', '01.01.2026']) {
      const a = await get(paths.bookingPractitioners, { _since: bad });
      expect([a.status, errorCode(a.json)], bad).toEqual([422, 'MSG_DATE_FORMAT']);
    }
  });

  test('empty values, malformed near and paging are 400 MSG_INVALID_FORMAT (DEC-D2-30)', async () => {
    for (const q of [
      { family: '' },
      { near: 'north:west' },
      { page: 'x' },
      { count: '-1' },
      { near: '51.5:-0.1:5:ft' },
    ] as Record<string, string>[]) {
      const a = await get(paths.bookingPractitioners, q);
      expect([a.status, errorCode(a.json)], JSON.stringify(q)).toEqual([400, 'MSG_INVALID_FORMAT']);
    }
    expect((await get(paths.bookingPractitioners, {}, { token: null })).status).toBe(401);
  });
});

describe('Booking practitioner roles (4.13)', () => {
  test('get BR-0001: one entry with booking and external identifiers, practitioner and location references', async () => {
    const a = await sb.get(paths.bookingRole('BR-0001'));
    expect(a.status).toBe(200);
    const b: J = a.json;
    expect(b).toMatchObject({ resourceType: 'Bundle', total: 1 });
    expect(b.entry).toHaveLength(1);
    const r = b.entry[0].resource;
    expect(r).toMatchObject({
      resourceType: 'PractitionerRole',
      id: 'BR-0001',
      meta: { lastUpdated: expect.any(String) },
      active: true,
      practitioner: { reference: 'Practitioner/BP-0001', display: 'Dr Anna Price' },
      location: [{ reference: 'Location/BL-01', display: expect.any(String) }],
    });
    expect(r.identifier.map((i: J) => [i.id, i.use])).toEqual([
      ['booking_identifier', 'official'],
      ['external_identifier', 'official'],
    ]);
    expect(bookingId(r)).toBe('BR-0001');
  });

  test('an unknown role id is 404 MSG_ENTITY_NOT_FOUND_IN_DATABASE', async () => {
    const a = await sb.get(paths.bookingRole('BR-9999'));
    expect([a.status, errorCode(a.json)]).toEqual([404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE']);
  });

  test('search: at least 20 roles in id order, referencing booking practitioners; practitioner and location filters', async () => {
    const every = await all(paths.bookingRoles);
    expect(every.length).toBeGreaterThanOrEqual(20);
    expect(every.map((r) => r.id)).toEqual(
      Array.from({ length: every.length }, (_, k) => `BR-${String(k + 1).padStart(4, '0')}`),
    );
    const practitioners = new Set((await all(paths.bookingPractitioners)).map((p) => `Practitioner/${p.id}`));
    for (const r of every) expect(practitioners.has(r.practitioner.reference)).toBe(true);
    expect((await all(paths.bookingRoles, { practitioner: 'BP-0001' })).map((r) => r.id)).toEqual([
      'BR-0001',
      'BR-0002',
    ]);
    const atBl3 = await all(paths.bookingRoles, { location: 'BL-03' });
    expect(atBl3.map((r) => r.id)).toEqual(
      every.filter((r) => r.location[0].reference === 'Location/BL-03').map((r) => r.id),
    );
    expect(atBl3.length).toBeGreaterThan(1);
    expect(tags((await get(paths.bookingRoles, { page: '2', count: '5' })).json)).toEqual({
      page: '2',
      count: '5',
      maxCount: String(every.length),
    });
  });

  test('_since keeps roles updated at or after it; malformed is 422 MSG_DATE_FORMAT', async () => {
    const since = '2026-01-01T00:00:00+00:00';
    const every = await all(paths.bookingRoles);
    const recent = await all(paths.bookingRoles, { _since: since });
    const expected = every.filter((r) => Date.parse(r.meta.lastUpdated) >= Date.parse(since)).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(every.length);
    expect(recent.map((r) => r.id)).toEqual(expected);
    const a = await get(paths.bookingRoles, { _since: 'yesterday' });
    expect([a.status, errorCode(a.json)]).toEqual([422, 'MSG_DATE_FORMAT']);
    const empty = await get(paths.bookingRoles, { practitioner: '' });
    expect([empty.status, errorCode(empty.json)]).toEqual([400, 'MSG_INVALID_FORMAT']);
    expect((await get(paths.bookingRoles, {}, { token: null })).status).toBe(401);
  });
});
