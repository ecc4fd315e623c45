import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REF_URL } from '../resources/urls.ts';
import {
  TestSandbox,
  entriesOf,
  errorCode,
  extension,
  ids,
  paths,
  resources,
  tags,
  withQuery,
} from '../testSupport.ts';
import { distanceKm } from './geo.ts';

type J = any;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await TestSandbox.start();
});
afterAll(() => sb.close());

const get = (path: string, query: Record<string, string> = {}, options = {}) => sb.get(withQuery(path, query), options);
const practitioners = async (query: Record<string, string> = {}) =>
  resources((await get(paths.registerPractitioners, { count: '100', ...query })).json) as J[];
const nested = (p: J, name: string): J[] => p.extension.filter((e: J) => e.url === `${REF_URL}/extension/${name}`);
const codesIn = (p: J, outer: string, inner: string): string[] =>
  nested(p, outer).flatMap((e: J) =>
    e.extension
      .filter((x: J) => x.url === inner)
      .map((x: J) => x.valueCodeableConcept?.coding?.[0]?.code ?? x.valueString),
  );

const CENTRE = { latitude: 51.5074, longitude: -0.1278 };
const AT = '51.5074:-0.1278';

describe('Search practitioners (4.9)', () => {
  test('unfiltered: a paged searchset of at least 30 register practitioners', async () => {
    const a = await get(paths.registerPractitioners);
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    const b: J = a.json;
    expect(b).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    expect(b.total).toBeGreaterThanOrEqual(30);
    expect(tags(b)).toEqual({ page: '1', count: '10', maxCount: String(b.total) });
    expect(ids(b)).toEqual(Array.from({ length: 10 }, (_, k) => `PR-${String(k + 1).padStart(4, '0')}`));
    const collected: string[] = [];
    for (let page = 1; page <= Math.ceil(b.total / 7); page++)
      collected.push(...ids((await get(paths.registerPractitioners, { page: String(page), count: '7' })).json));
    expect(new Set(collected).size).toBe(b.total);
  });

  test('each practitioner carries the members of 2.3', async () => {
    const all = await practitioners();
    for (const p of all) {
      expect(p).toMatchObject({
        resourceType: 'Practitioner',
        id: expect.stringMatching(/^PR-\d{4}$/),
        active: expect.any(Boolean),
        gender: expect.any(String),
      });
      expect(p.birthDate).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
      expect(typeof extension(p, 'indemnityStatus')).toBe('string');
      expect(typeof extension(p, 'onlineBookingStatus')).toBe('boolean');
      expect(codesIn(p, 'profession', 'profession')).toHaveLength(1);
      expect(codesIn(p, 'profession', 'specialty').length).toBeGreaterThanOrEqual(1);
      const reg = nested(p, 'registrationnumbers')[0].extension;
      expect(reg.map((x: J) => x.url)).toEqual(['regulatorybody', 'regulatorreference', 'registrationdate']);
      expect(reg[2].valueString).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
      for (const ins of nested(p, 'insurers')) {
        expect(ins.extension.map((x: J) => x.url)).toEqual(['insurer', 'insurerprovidercode', 'recognitionstatus']);
        const status = ins.extension[2].valueCodeableConcept.coding[0];
        if (status.code === 'Y') expect(status.display).toBe('Recognised');
      }
      expect(p.name[0]).toMatchObject({
        family: expect.any(String),
        given: expect.any(Array),
        prefix: expect.any(Array),
      });
      expect(p.telecom.map((t: J) => t.id)).toEqual(['phone', 'email']);
      expect(p.address[0]).toMatchObject({
        type: expect.any(String),
        text: expect.any(String),
        line: expect.any(Array),
        postalCode: expect.any(String),
      });
      expect(p.qualification[0]).toMatchObject({
        id: expect.any(String),
        code: { coding: [expect.anything()] },
        period: { start: expect.any(String) },
      });
    }
    expect(new Set(all.map((p) => p.gender))).toEqual(new Set(['female', 'male', 'other', 'unknown']));
    expect(new Set(all.map((p) => codesIn(p, 'profession', 'profession')[0])).size).toBeGreaterThanOrEqual(5);
    expect(new Set(all.map((p) => extension(p, 'onlineBookingStatus')))).toEqual(new Set([true, false]));
  });

  test.each([
    ['gender', 'female', (p: J) => p.gender === 'female'],
    ['gender', 'MALE', (p: J) => p.gender === 'male'],
    ['profession', 'con', (p: J) => codesIn(p, 'profession', 'profession').includes('CON')],
    ['specialty', 'ORTH', (p: J) => codesIn(p, 'profession', 'specialty').includes('ORTH')],
    ['subspecialty', 'knee', (p: J) => codesIn(p, 'profession', 'subspecialty').includes('KNEE')],
    ['insurer', 'bup', (p: J) => codesIn(p, 'insurers', 'insurer').includes('bup')],
    ['insurer-recognition-status', 'P', (p: J) => codesIn(p, 'insurers', 'recognitionstatus').includes('P')],
    ['family', 'smi', (p: J) => p.name[0].family.toLowerCase().startsWith('smi')],
    ['given', 'ra', (p: J) => p.name[0].given.some((g: string) => g.toLowerCase().startsWith('ra'))],
    ['is-onlinebooking-available', 'true', (p: J) => extension(p, 'onlineBookingStatus') === true],
    ['is-onlinebooking-available', 'false', (p: J) => extension(p, 'onlineBookingStatus') === false],
  ] as const)('%s=%s keeps exactly the matching practitioners (DEC-D2-21, -52, -53)', async (param, value, matches) => {
    const all = await practitioners();
    const filtered = await practitioners({ [param]: value });
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.map((p) => p.id)).toEqual(all.filter(matches).map((p) => p.id));
  });

  test('provider number, regulator reference and postcode (spaces and case ignored) find their practitioner', async () => {
    const [p] = await practitioners({ family: 'Patel' });
    const providerNumber = nested(p, 'insurers')[1].extension[1].valueString;
    expect((await practitioners({ 'insurer-provider-number': providerNumber.toLowerCase() })).map((x) => x.id)).toEqual(
      [p.id],
    );
    const reference = nested(p, 'registrationnumbers')[0].extension[1].valueString;
    expect((await practitioners({ 'regulator-reference': reference })).map((x) => x.id)).toEqual([p.id]);
    const byPostcode = await practitioners({
      'address-postalcode': p.address[0].postalCode.replace(' ', '').toLowerCase(),
    });
    expect(byPostcode.map((x) => x.id)).toContain(p.id);
    for (const x of byPostcode) expect(x.address[0].postalCode).toBe(p.address[0].postalCode);
  });

  test('filters combine; nothing found is an empty searchset', async () => {
    for (const p of await practitioners({ gender: 'female', profession: 'CON' })) {
      expect(p.gender).toBe('female');
      expect(codesIn(p, 'profession', 'profession')).toEqual(['CON']);
    }
    expect((await get(paths.registerPractitioners, { family: 'Zzz' })).json).toMatchObject({
      type: 'searchset',
      total: 0,
      entry: [],
    });
  });

  test('empty values are 400 MSG_PARAM_EMPTY; bad Booleans and paging 400 MSG_INVALID_FORMAT (DEC-D2-30)', async () => {
    for (const [q, code] of [
      [{ gender: '' }, 'MSG_PARAM_EMPTY'],
      [{ family: ' ' }, 'MSG_PARAM_EMPTY'],
      [{ 'is-onlinebooking-available': 'maybe' }, 'MSG_INVALID_FORMAT'],
      [{ page: 'abc' }, 'MSG_INVALID_FORMAT'],
      [{ count: '0' }, 'MSG_INVALID_FORMAT'],
    ] as const) {
      const a = await get(paths.registerPractitioners, q);
      expect([a.status, errorCode(a.json)], JSON.stringify(q)).toEqual([400, code]);
      expect(a.json).toMatchObject({ resourceType: 'OperationOutcome' });
    }
  });

  test('no token is 401', async () => {
    expect((await get(paths.registerPractitioners, {}, { token: null })).status).toBe(401);
  });
});

describe('Get profile photo (4.10)', () => {
  test('PR-0001: a real PNG whose decoded length is size (DEC-D2-25)', async () => {
    const a = await sb.get(paths.photo('PR-0001'));
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    const body: J = a.json;
    expect(body.resourceType).toBe('Parameters');
    expect(body.parameter).toHaveLength(1);
    const { name, valueAttachment: att } = body.parameter[0];
    expect(name).toBe('photo');
    expect(att).toMatchObject({
      contentType: 'image/png',
      data: expect.stringMatching(/^[A-Za-z0-9+/]+={0,2}$/),
      size: expect.any(Number),
      title: expect.any(String),
    });
    const bytes = Buffer.from(att.data, 'base64');
    expect(bytes.toString('base64')).toBe(att.data);
    expect(bytes.length).toBe(att.size);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([2, 2]);
    expect(bytes.subarray(bytes.length - 8, bytes.length - 4).toString('ascii')).toBe('IEND');
  });

  test('every register practitioner has a photo of the right size', async () => {
    for (const p of await practitioners()) {
      const att = ((await sb.get(paths.photo(p.id))).json as J).parameter[0].valueAttachment;
      expect(Buffer.from(att.data, 'base64').length, p.id).toBe(att.size);
    }
  });

  test('an unknown practitioner is 422 MSG_REFERENCE_ID_NOT_FOUND (DEC-D2-29); none is 400', async () => {
    const a = await sb.get(paths.photo('PR-9999'));
    expect([a.status, errorCode(a.json)]).toEqual([422, 'MSG_REFERENCE_ID_NOT_FOUND']);
    const bare = await sb.get('/register/practitioner-photo');
    expect([bare.status, errorCode(bare.json)]).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
    expect((await sb.get(paths.photo('PR-0001'), { token: null })).status).toBe(401);
  });
});

describe('Search practitioner roles (4.11)', () => {
  const search = async (query: Record<string, string> = {}) => {
    const a = await get(paths.registerRoles, query);
    expect(a.status, a.text.slice(0, 300)).toBe(200);
    return a.json as J;
  };
  const roles = (b: J): J[] => entriesOf(b, 'PractitionerRole').map((e) => e.resource);
  const roleIds = (b: J) => roles(b).map((r) => r.id);
  /** Distances of the roles from the centre, read from the included Locations. */
  const distances = (b: J): number[] => {
    const at = new Map(entriesOf(b, 'Location').map((e) => [`Location/${e.resource.id}`, e.resource.position]));
    return roles(b).map((r) => distanceKm(CENTRE, at.get(r.location[0].reference)));
  };

  test('unfiltered: every role in one page, in id order, search.mode match, no included resources', async () => {
    const b = await search();
    expect(b).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    expect(b.total).toBeGreaterThanOrEqual(50);
    expect(tags(b)).toEqual({ page: '1', count: String(b.total), maxCount: String(b.total) });
    expect(roleIds(b)).toEqual([...roleIds(b)].sort());
    expect(b.entry).toHaveLength(b.total);
    for (const e of b.entry) {
      expect(e.search).toEqual({ mode: 'match' });
      expect(e.resource).toMatchObject({
        resourceType: 'PractitionerRole',
        practitioner: { reference: expect.stringMatching(/^Practitioner\/PR-/), display: expect.any(String) },
        location: [{ reference: expect.stringMatching(/^Location\/LOC-/) }],
      });
      expect(e.resource.specialty[0].coding[0].code).toEqual(expect.any(String));
      for (const age of e.resource.extension)
        expect(age).toMatchObject({
          url: `${REF_URL}/extension/agestreated`,
          valueCodeableConcept: {
            coding: [
              {
                system: `${REF_URL}/agestreated`,
                code: expect.stringMatching(/^C[0-4]$/),
                display: expect.stringMatching(/years/),
              },
            ],
          },
        });
    }
    expect(new Set(roles(b).map((r) => r.location[0].reference)).size).toBeGreaterThanOrEqual(20);
    const perPractitioner = new Map<string, number>();
    for (const r of roles(b))
      perPractitioner.set(r.practitioner.reference, (perPractitioner.get(r.practitioner.reference) ?? 0) + 1);
    expect([...perPractitioner.values()].some((n) => n >= 3)).toBe(true);
  });

  test('page and count page the roles when given', async () => {
    const all = roleIds(await search());
    const b = await search({ page: '2', count: '10' });
    expect(tags(b)).toEqual({ page: '2', count: '10', maxCount: String(all.length) });
    expect(roleIds(b)).toEqual(all.slice(10, 20));
  });

  test('near in every form keeps exactly the roles within the radius (DEC-D2-16)', async () => {
    const everything = await search({ near: `${AT}:1000:km`, _include: 'practitioner:location' });
    const d = new Map(roleIds(everything).map((id, k) => [id, distances(everything)[k]]));
    const within = (km: number) =>
      [...d.entries()]
        .filter(([, x]) => x <= km)
        .map(([id]) => id)
        .sort();
    expect(within(10).length).toBeGreaterThan(5);
    expect(d.size - within(10).length).toBeGreaterThan(within(10).length);
    const forms: Record<string, string>[] = [
      { near: `${AT}:10:km` },
      { near: `${AT}:10` },
      { near: `${AT}:10000:m` },
      { near: `${AT}:${10 / 1.609344}:mi` },
      { near: AT, 'near-distance': '10' },
      { near: AT, 'near-distance': '10km' },
      { near: `${AT}:10:km`, 'near-distance': '50' },
    ];
    for (const near of forms) {
      const b = await search({ ...near, _include: 'practitioner:location' });
      expect(roleIds(b).sort(), JSON.stringify(near)).toEqual(within(10));
      for (const x of distances(b)) expect(x).toBeLessThanOrEqual(10);
    }
    expect(roleIds(await search({ near: AT, 'near-distance': '10mi' })).sort()).toEqual(within(10 * 1.609344));
    expect(roleIds(await search({ near: `${AT}:500:m` }))).toEqual(within(0.5));
    expect(roleIds(await search({ near: `${AT}:0.6:km` })).length).toBeGreaterThan(0);
  });

  test('roles are spread from 0.5 km to 150 km of the centre; near without a radius does not restrict positioned roles', async () => {
    const b = await search({ near: AT, _include: 'practitioner:location' });
    const ds = distances(b);
    expect(Math.min(...ds)).toBeGreaterThanOrEqual(0.5);
    expect(Math.max(...ds)).toBeLessThanOrEqual(150);
    expect(Math.max(...ds)).toBeGreaterThan(100);
    expect(roleIds(b).length).toBe(roleIds(await search()).length);
  });

  test('_sort by distance in both directions (with near)', async () => {
    const asc = await search({ near: `${AT}:50:km`, _sort: 'distance:asc', _include: 'practitioner:location' });
    const desc = await search({ near: `${AT}:50:km`, _sort: 'distance:desc', _include: 'practitioner:location' });
    const da = distances(asc);
    expect(da).toEqual([...da].sort((x, y) => x - y));
    const dd = distances(desc);
    expect(dd).toEqual([...dd].sort((x, y) => y - x));
    expect(roleIds(desc)).toEqual([...roleIds(asc)].reverse());
  });

  test('_sort by distance without near is 400 MSG_INVALID_FORMAT (DEC-D2-17)', async () => {
    for (const _sort of ['distance:asc', 'distance:desc']) {
      const a = await get(paths.registerRoles, { _sort });
      expect([a.status, errorCode(a.json)]).toEqual([400, 'MSG_INVALID_FORMAT']);
    }
  });

  test('_sort by name (practitioner.display, letter case ignored) in both directions (DEC-D2-18)', async () => {
    const names = (b: J) => roles(b).map((r) => r.practitioner.display.toLowerCase());
    const asc = names(await search({ _sort: 'name:asc' }));
    const desc = names(await search({ _sort: 'name:desc' }));
    expect(asc).toEqual([...asc].sort());
    expect(desc).toEqual([...asc].reverse());
    expect(new Set(asc).size).toBeGreaterThan(20);
    expect(roles(await search())[0].practitioner.display).toBe('Dr Alice Smith');
  });

  test('_include=practitioner:location adds each referenced Practitioner and Location once, search.mode include (DEC-D2-19)', async () => {
    const b = await search({ _include: 'practitioner:location' });
    const rs = roles(b);
    const practitionerEntries = entriesOf(b, 'Practitioner');
    const locationEntries = entriesOf(b, 'Location');
    expect(new Set(practitionerEntries.map((e) => `Practitioner/${e.resource.id}`))).toEqual(
      new Set(rs.map((r) => r.practitioner.reference)),
    );
    expect(new Set(locationEntries.map((e) => `Location/${e.resource.id}`))).toEqual(
      new Set(rs.map((r) => r.location[0].reference)),
    );
    expect(practitionerEntries.length).toBe(new Set(rs.map((r) => r.practitioner.reference)).size);
    for (const e of [...practitionerEntries, ...locationEntries]) expect(e.search).toEqual({ mode: 'include' });
    expect(b.total).toBe(rs.length);
    expect(b.entry.slice(0, rs.length).every((e: J) => e.resource.resourceType === 'PractitionerRole')).toBe(true);
    expect(practitionerEntries[0].resource).toMatchObject({
      resourceType: 'Practitioner',
      birthDate: expect.any(String),
      qualification: expect.any(Array),
    });
    const paged = await search({ _include: 'practitioner:location', count: '3' });
    expect(entriesOf(paged, 'Practitioner').length).toBeLessThanOrEqual(3);
    expect(new Set(entriesOf(paged, 'Practitioner').map((e) => `Practitioner/${e.resource.id}`))).toEqual(
      new Set(roles(paged).map((r) => r.practitioner.reference)),
    );
  });

  test('distinct-by practitioner keeps the first role of each practitioner; location likewise (DEC-D2-20, -55)', async () => {
    const plain = roles(await search());
    for (const [field, keyOf] of [
      ['practitioner', (r: J) => r.practitioner.reference],
      ['location', (r: J) => r.location[0].reference],
    ] as const) {
      const distinct = roles(await search({ 'distinct-by': field }));
      const keys = distinct.map(keyOf);
      expect(new Set(keys).size).toBe(keys.length);
      expect(new Set(keys)).toEqual(new Set(plain.map(keyOf)));
      expect(distinct.length).toBeLessThan(plain.length);
      for (const r of distinct) expect(r.id).toBe(plain.find((p) => keyOf(p) === keyOf(r)).id);
    }
    const sorted = roles(await search({ 'distinct-by': 'practitioner', _sort: 'name:desc' }));
    const plainSorted = roles(await search({ _sort: 'name:desc' }));
    for (const r of sorted)
      expect(r.id).toBe(plainSorted.find((p) => p.practitioner.reference === r.practitioner.reference).id);
  });

  test('filters on the role and on its practitioner (DEC-D2-21)', async () => {
    const b = await search({ _include: 'practitioner:location' });
    const practitionerOf = new Map(
      entriesOf(b, 'Practitioner').map((e) => [`Practitioner/${e.resource.id}`, e.resource]),
    );
    const locationOf = new Map(entriesOf(b, 'Location').map((e) => [`Location/${e.resource.id}`, e.resource]));
    const all = roles(b);
    const cases: [Record<string, string>, (r: J) => boolean][] = [
      [{ practitioner: 'PR-0002' }, (r) => r.practitioner.reference === 'Practitioner/PR-0002'],
      [{ location: 'LOC-004' }, (r) => r.location[0].reference === 'Location/LOC-004'],
      [{ 'ages-treated': 'c0' }, (r) => r.extension.some((e: J) => e.valueCodeableConcept.coding[0].code === 'C0')],
      [
        { 'address-postalcode': 'sw33ax' },
        (r) => locationOf.get(r.location[0].reference).address.postalCode === 'SW3 3AX',
      ],
      [{ specialty: 'MSK' }, (r) => r.specialty.some((s: J) => s.coding[0].code === 'MSK')],
      [
        { subspecialty: 'KNEE' },
        (r) => codesIn(practitionerOf.get(r.practitioner.reference), 'profession', 'subspecialty').includes('KNEE'),
      ],
      [
        { profession: 'PSY' },
        (r) => codesIn(practitionerOf.get(r.practitioner.reference), 'profession', 'profession').includes('PSY'),
      ],
      [
        { 'is-onlinebooking-available': 'true' },
        (r) => extension(practitionerOf.get(r.practitioner.reference), 'onlineBookingStatus') === true,
      ],
      [
        { insurer: 'ppp' },
        (r) => codesIn(practitionerOf.get(r.practitioner.reference), 'insurers', 'insurer').includes('ppp'),
      ],
      [{ gender: 'female' }, (r) => practitionerOf.get(r.practitioner.reference).gender === 'female'],
      [
        { family: 'smith' },
        (r) => practitionerOf.get(r.practitioner.reference).name[0].family.toLowerCase().startsWith('smith'),
      ],
      [
        { given: 'Al' },
        (r) => practitionerOf.get(r.practitioner.reference).name[0].given.some((g: string) => g.startsWith('Al')),
      ],
    ];
    for (const [q, matches] of cases) {
      const expected = all.filter(matches).map((r) => r.id);
      expect(expected.length, JSON.stringify(q)).toBeGreaterThan(0);
      expect(roleIds(await search(q)), JSON.stringify(q)).toEqual(expected);
    }
    const both = new Set([...roleIds(await search({ insurer: 'bup' })), ...roleIds(await search({ insurer: 'cig' }))]);
    expect(new Set(roleIds(await search({ insurer: 'bup,cig' })))).toEqual(both);
  });

  test('malformed near, unknown values and empty values are refused (DEC-D2-30, -58)', async () => {
    for (const [q, code] of [
      [{ near: 'north:west' }, 'MSG_INVALID_FORMAT'],
      [{ near: `${AT}:5:ft` }, 'MSG_INVALID_FORMAT'],
      [{ near: AT, 'near-distance': 'far' }, 'MSG_INVALID_FORMAT'],
      [{ _sort: 'age:asc' }, 'MSG_INVALID_FORMAT'],
      [{ _include: 'practitioner' }, 'MSG_INVALID_FORMAT'],
      [{ 'distinct-by': 'insurer' }, 'MSG_INVALID_FORMAT'],
      [{ 'is-onlinebooking-available': 'yes' }, 'MSG_INVALID_FORMAT'],
      [{ specialty: '' }, 'MSG_PARAM_EMPTY'],
      [{ near: '' }, 'MSG_PARAM_EMPTY'],
    ] as const) {
      const a = await get(paths.registerRoles, q);
      expect([a.status, errorCode(a.json)], JSON.stringify(q)).toEqual([400, code]);
    }
    expect((await get(paths.registerRoles, {}, { token: null })).status).toBe(401);
  });
});
