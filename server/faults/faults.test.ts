/**
 * Every named fault (Documents 1, 2 and 3) changes the sandbox's answer where the clean sandbox
 * follows the rule the fault breaks. Each case starts a clean and a faulty sandbox and asserts
 * both sides.
 */
import { describe, expect, test } from 'vitest';
import { distanceKm } from '../router/geo.ts';
import { REF_URL } from '../resources/urls.ts';
import {
  TestSandbox,
  basicAuth,
  introspectStatus,
  refreshStatus,
  revokeWith,
  entriesOf,
  errorCode,
  extension,
  ids,
  paths,
  resources,
  tags,
  withQuery,
  type Answer,
} from '../testSupport.ts';
import { FAULT_NAMES, type FaultName } from './catalog.ts';
import { priceRequest } from '../exampleCalls.ts';

type J = any;

type Scenario = (clean: TestSandbox, faulty: TestSandbox) => Promise<void>;

const v2Single = { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1980-04-12' };
const v2None = { insurerIdentifier: 'ppp', firstInitial: 'Z', lastName: 'Nobody', dateOfBirth: '1900-01-01' };
const v2Jones = { insurerIdentifier: 'nuh', firstInitial: 'A', lastName: 'Jones', dateOfBirth: '1975-09-30' };
const v1None = { insurerIdentifier: 'bup', membershipNumber: 'BUP999999' };
const createdOf = (a: Answer) => (resources(a.json) as J[]).map((r) => Date.parse(r.created));
const createdOnOf = (a: Answer) =>
  (resources(a.json) as J[]).map((r) => Date.parse(extension(r, 'createdOn') as string));
const isDescending = (xs: number[]) => xs.every((x, k) => k === 0 || xs[k - 1] >= x);
const claimCount = (a: Answer) => (resources(a.json) as J[]).filter((r) => r.resourceType === 'Claim').length;

// Document 2 helpers.
const AT = '51.5074:-0.1278';
const CENTRE = { latitude: 51.5074, longitude: -0.1278 };
const getQ = (s: TestSandbox, path: string, query: Record<string, string> = {}) => s.get(withQuery(path, query));
const roleIdsOf = (a: Answer) => entriesOf(a.json, 'PractitionerRole').map((e) => e.resource.id as string);
/** The farthest role of a near search with `_include`, by its included Location. */
const farthestKm = (a: Answer) => {
  const at = new Map(entriesOf(a.json, 'Location').map((e) => [`Location/${e.resource.id}`, e.resource.position]));
  return Math.max(
    0,
    ...entriesOf(a.json, 'PractitionerRole').map((e) => distanceKm(CENTRE, at.get(e.resource.location[0].reference))),
  );
};
const roleExt = (item: J, suffix: string) => item.extension.find((e: J) => String(e.url).endsWith(`/${suffix}`));

// Document 3 helpers.
const NEW_PATIENT = {
  resourceType: 'Patient',
  name: [{ family: 'Fault', given: ['Finn'] }],
  gender: 'male',
  birthDate: '1970-01-01',
};
const orphanCondition = {
  resourceType: 'Condition',
  note: [{ text: 'x', authorReference: { reference: 'patient/PAT-9999' } }],
};
/** Assets of effective-price Contracts that hold a procedure entry but no service entry. */
const orphanAssets = (a: Answer) =>
  (resources(a.json) as J[])
    .flatMap((c) => c.term[0].asset)
    .filter((asset: J) => {
      const systems = asset.valuedItem.map((v: J) => v.entityCodeableConcept.coding[0].system);
      return systems.includes(`${REF_URL}/procedure`) && !systems.includes('ISC');
    }).length;

const SCENARIOS: Record<FaultName, Scenario> = {
  'paging-tag-as-number': async (clean, faulty) => {
    for (const call of [
      (s: TestSandbox) => s.form(paths.summary, {}),
      (s: TestSandbox) => s.form(paths.authorisation, {}),
      (s: TestSandbox) => s.form(paths.detail('RS-0001'), {}),
    ]) {
      expect(tags((await call(clean)).json)).toMatchObject({ page: '1', count: '10' });
      expect(tags((await call(faulty)).json)).toMatchObject({ page: 1, count: 10 });
    }
  },
  'paging-ignores-page': async (clean, faulty) => {
    const p1 = ids((await clean.form(paths.summary, { page: '1' })).json);
    expect(ids((await clean.form(paths.summary, { page: '2' })).json)).not.toEqual(p1);
    const f2 = (await faulty.form(paths.summary, { page: '2' })).json;
    expect(ids(f2)).toEqual(p1);
    expect(tags(f2).page).toBe('2');
  },
  'site-header-not-enforced': async (clean, faulty) => {
    expect((await clean.findMember('2', v2Single, { site: null })).status).toBe(400);
    expect((await faulty.findMember('2', v2Single, { site: null })).status).toBe(200);
    for (const path of [paths.authorisation, paths.summary]) {
      expect((await clean.form(path, {}, { site: null })).status).toBe(400);
      expect((await faulty.form(path, {}, { site: null })).status).toBe(200);
    }
    expect((await faulty.findMember('2', v2Single, { site: 'SITE002' })).status).toBe(403);
  },
  'no-match-status-200': async (clean, faulty) => {
    for (const [version, fields] of [
      ['2', v2None],
      ['1', v1None],
    ] as const) {
      const c = await clean.findMember(version, fields);
      const f = await faulty.findMember(version, fields);
      expect([c.status, errorCode(c.json)]).toEqual([400, 'NO_MATCH_FOUND']);
      expect([f.status, errorCode(f.json)]).toEqual([200, 'NO_MATCH_FOUND']);
    }
  },
  'multiple-match-wrong-code': async (clean, faulty) => {
    expect(errorCode((await clean.findMember('2', v2Jones)).json)).toBe('MULTIPLE_MATCH_FOUND');
    const f = await faulty.findMember('2', v2Jones);
    expect([f.status, errorCode(f.json)]).toEqual([400, 'NO_MATCH_FOUND']);
  },
  'coverage-missing-policy-expired': async (clean, faulty) => {
    expect(extension((await clean.findMember('2', v2Single)).json, 'policyExpired')).toBe('No');
    const f = await faulty.findMember('2', v2Single);
    expect(f.status).toBe(200);
    expect(extension(f.json, 'policyExpired')).toBeUndefined();
    expect(
      extension(
        (await faulty.findMember('1', { insurerIdentifier: 'bup', membershipNumber: 'BUP100001' })).json,
        'policyExpired',
      ),
    ).toBeUndefined();
  },
  'insurer-filter-ignored': async (clean, faulty) => {
    const c = resources((await clean.form(paths.summary, { insurerIdentifier: 'bup', count: '100' })).json) as J[];
    const f = resources((await faulty.form(paths.summary, { insurerIdentifier: 'bup', count: '100' })).json) as J[];
    expect(c.length).toBeLessThan(48);
    expect(f).toHaveLength(48);
  },
  'sort-descending-ignored': async (clean, faulty) => {
    expect(isDescending(createdOf(await clean.form(paths.summary, { _sort: '-createdOn' })))).toBe(true);
    const f = createdOf(await faulty.form(paths.summary, { _sort: '-createdOn' }));
    expect(isDescending(f)).toBe(false);
    expect(f).toEqual([...f].sort((x, y) => x - y));
  },
  'ack-keeps-batch': async (clean, faulty) => {
    for (const s of [clean, faulty]) expect((await s.delete(paths.batch('BATCH-1001'))).status).toBe(200);
    expect(ids((await clean.get(paths.batches)).json)).not.toContain('BATCH-1001');
    expect(ids((await faulty.get(paths.batches)).json)).toContain('BATCH-1001');
    expect((await faulty.get(paths.batch('BATCH-1001'))).status).toBe(200);
  },
  'v2-accepts-v1-insurer': async (clean, faulty) => {
    const fields = { ...v2Single, insurerIdentifier: 'bup' };
    const c = await clean.findMember('2', fields);
    expect([c.status, errorCode(c.json)]).toEqual([422, 'MSG_PARAM_INVALID']);
    const f = await faulty.findMember('2', fields);
    expect(f.status).toBe(200);
    expect((f.json as J).id).toBe('COV-0009');
  },
  'ack-returns-204': async (clean, faulty) => {
    expect((await clean.delete(paths.batch('BATCH-1002'))).status).toBe(200);
    expect((await faulty.delete(paths.batch('BATCH-1002'))).status).toBe(204);
    expect(ids((await faulty.get(paths.batches)).json)).not.toContain('BATCH-1002');
  },
  'invalid-id-200': async (clean, faulty) => {
    expect((await clean.get(paths.batch('BATCH-9999'))).status).toBe(404);
    const f = await faulty.get(paths.batch('BATCH-9999'));
    expect([f.status, f.json]).toEqual([200, {}]);
  },
  'auth-not-enforced': async (clean, faulty) => {
    const calls = [
      (s: TestSandbox) => s.get(paths.batches, { token: null }),
      (s: TestSandbox) => s.form(paths.summary, {}, { token: null }),
      (s: TestSandbox) => s.findMember('2', v2Single, { token: null }),
      (s: TestSandbox) => s.get(paths.bill('BILL-0001', 'false'), { token: 'forged' }),
    ];
    for (const call of calls) {
      expect((await call(clean)).status).toBe(401);
      expect((await call(faulty)).status).toBe(200);
    }
  },
  'content-type-text-plain': async (clean, faulty) => {
    for (const path of [paths.hospitalList, `${paths.bills}?insurerid=bup`, paths.bill('BILL-0001', 'false')]) {
      expect((await clean.get(path)).headers.get('content-type')).toMatch(/json/);
      const f = await faulty.get(path);
      expect(f.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(f.json).toBeDefined();
    }
    expect((await faulty.get(paths.batches)).headers.get('content-type')).toMatch(/json/);
  },
  'total-off-by-one': async (clean, faulty) => {
    expect(((await clean.form(paths.summary, {})).json as J).total).toBe(48);
    expect(((await faulty.form(paths.summary, {})).json as J).total).toBe(49);
    expect(((await clean.form(paths.detail('RS-0001'), {})).json as J).total).toBe(15);
    expect(((await faulty.form(paths.detail('RS-0001'), {})).json as J).total).toBe(16);
  },
  'empty-param-accepted': async (clean, faulty) => {
    for (const path of [paths.summary, paths.detail('RS-0001')]) {
      const c = await clean.form(path, { invoiceNumber: '' });
      expect([c.status, errorCode(c.json)]).toEqual([400, 'MSG_PARAM_EMPTY']);
      expect((await faulty.form(path, { invoiceNumber: '' })).status).toBe(200);
    }
  },
  'pending-maxcount-tag': async (clean, faulty) => {
    expect(Object.keys(tags((await clean.get(paths.batches)).json))).toEqual(['page', 'count', 'maxRecords']);
    expect(Object.keys(tags((await faulty.get(paths.batches)).json))).toEqual(['page', 'count', 'maxCount']);
  },
  'count-ignored': async (clean, faulty) => {
    for (const path of [paths.summary, paths.authorisation]) {
      expect(ids((await clean.form(path, { count: '5' })).json)).toHaveLength(5);
      const f = (await faulty.form(path, { count: '5' })).json;
      expect(ids(f)).toHaveLength(25);
      expect(tags(f).count).toBe('5');
    }
  },
  'hospital-date-filter-ignored': async (clean, faulty) => {
    const path = `${paths.hospitalList}?dateCompleted=2026-03-14`;
    expect(claimCount(await clean.get(path))).toBe(3);
    expect(claimCount(await faulty.get(path))).toBe(12);
  },
  'bill-bundle-collection': async (clean, faulty) => {
    expect(((await clean.get(`${paths.bills}?insurerid=bup`)).json as J).type).toBe('searchset');
    expect(((await faulty.get(`${paths.bills}?insurerid=bup`)).json as J).type).toBe('collection');
  },
  'outcome-location-not-coverage': async (clean, faulty) => {
    const issue = async (s: typeof clean) => ((await s.findMember('2', v2None)).json as { issue: J[] }).issue[0];
    expect((await issue(clean)).location).toEqual(['Coverage']);
    expect((await issue(faulty)).location).toEqual(['Patient']);
  },
  'error-body-not-outcome': async (clean, faulty) => {
    for (const [version, fields] of [
      ['2', v2None],
      ['1', v1None],
    ] as const) {
      expect(((await clean.findMember(version, fields)).json as J).resourceType).toBe('OperationOutcome');
      const f = await faulty.findMember(version, fields);
      expect([f.status, f.json]).toEqual([400, { error: 'NO_MATCH_FOUND' }]);
    }
    expect(((await faulty.form(paths.summary, { insurerIdentifier: '' })).json as J).resourceType).toBe(
      'OperationOutcome',
    );
  },
  'since-ignored': async (clean, faulty) => {
    const fields = { _since: '2025-10-01T00:00:00Z', count: '100' };
    expect(ids((await clean.form(paths.summary, fields)).json).length).toBeLessThan(48);
    expect(ids((await faulty.form(paths.summary, fields)).json)).toHaveLength(48);
  },
  'batch-other-site-listed': async (clean, faulty) => {
    expect(ids((await clean.get(paths.batches)).json)).toHaveLength(6);
    const f = ids((await faulty.get(paths.batches)).json);
    expect(f).toHaveLength(8);
    expect(f).toContain('BATCH-2001');
    expect((await clean.get(paths.batch('BATCH-2001'))).status).toBe(404);
    const other = await faulty.get(paths.batch('BATCH-2001'));
    expect([other.status, (other.json as J).msgRecipient]).toEqual([200, 'SITE002']);
  },
  'version-header-ignored': async (clean, faulty) => {
    for (const version of [null, '3']) {
      expect((await clean.findMember(version, v2Single)).status).toBeGreaterThanOrEqual(400);
      expect((await faulty.findMember(version, v2Single)).status).toBe(200);
    }
  },
  'optional-fields-ignored': async (clean, faulty) => {
    const fields = { ...v2Jones, sex: 'Female', postCode: 'AB1 2CD', policyActiveOn: '2026-06-01' };
    expect((await clean.findMember('2', fields)).status).toBe(200);
    const f = await faulty.findMember('2', fields);
    expect([f.status, errorCode(f.json)]).toEqual([400, 'MULTIPLE_MATCH_FOUND']);
  },
  'page-tag-always-one': async (clean, faulty) => {
    for (const path of [paths.summary, paths.authorisation]) {
      expect(tags((await clean.form(path, { page: '2' })).json).page).toBe('2');
      const f = (await faulty.form(path, { page: '2' })).json;
      expect(tags(f).page).toBe('1');
      expect(ids(f)).toEqual(ids((await clean.form(path, { page: '2' })).json));
    }
  },
  'detail-sort-ignored': async (clean, faulty) => {
    const fields = { _sort: '-createdOn', count: '50' };
    expect(isDescending(createdOnOf(await clean.form(paths.detail('RS-0001'), fields)))).toBe(true);
    expect(isDescending(createdOnOf(await faulty.form(paths.detail('RS-0001'), fields)))).toBe(false);
  },
  'get-bill-ignores-id': async (clean, faulty) => {
    expect(((await clean.get(paths.bill('BILL-0002', 'false'))).json as J).id).toBe('BILL-0002');
    expect(((await faulty.get(paths.bill('BILL-0002', 'false'))).json as J).id).toBe('BILL-0001');
    expect(((await faulty.get(paths.bill('BILL-9999', 'false'))).json as J).id).toBe('BILL-0001');
  },
  'radius-leak': async (clean, faulty) => {
    for (const near of [`${AT}:10:km`, `${AT}:10`]) {
      const q = { near, _include: 'practitioner:location' };
      expect(farthestKm(await getQ(clean, paths.registerRoles, q))).toBeLessThanOrEqual(10);
      const f = farthestKm(await getQ(faulty, paths.registerRoles, q));
      expect(f).toBeGreaterThan(10);
      expect(f).toBeLessThanOrEqual(30);
    }
    // Booking searches keep their radius.
    expect(ids((await getQ(faulty, paths.bookingPractitioners, { near: '51.6534:-0.4026:1:km' })).json)).toEqual(
      ids((await getQ(clean, paths.bookingPractitioners, { near: '51.6534:-0.4026:1:km' })).json),
    );
  },
  'near-default-unit-miles': async (clean, faulty) => {
    for (const q of [{ near: `${AT}:10` }, { near: AT, 'near-distance': '10' }] as Record<string, string>[]) {
      expect(
        farthestKm(await getQ(clean, paths.registerRoles, { ...q, _include: 'practitioner:location' })),
      ).toBeLessThanOrEqual(10);
      const f = farthestKm(await getQ(faulty, paths.registerRoles, { ...q, _include: 'practitioner:location' }));
      expect(f).toBeGreaterThan(10);
      expect(f).toBeLessThanOrEqual(16.0935);
    }
    const explicit = { near: `${AT}:10:km` };
    expect(roleIdsOf(await getQ(faulty, paths.registerRoles, explicit))).toEqual(
      roleIdsOf(await getQ(clean, paths.registerRoles, explicit)),
    );
  },
  'role-name-sort-direction-ignored': async (clean, faulty) => {
    const names = (a: Answer) =>
      entriesOf(a.json, 'PractitionerRole').map((e) => String(e.resource.practitioner.display).toLowerCase());
    const asc = names(await getQ(clean, paths.registerRoles, { _sort: 'name:asc' }));
    expect(names(await getQ(clean, paths.registerRoles, { _sort: 'name:desc' }))).toEqual([...asc].reverse());
    expect(names(await getQ(faulty, paths.registerRoles, { _sort: 'name:desc' }))).toEqual(asc);
    const distanceDesc = { near: `${AT}:50`, _sort: 'distance:desc' };
    expect(roleIdsOf(await getQ(faulty, paths.registerRoles, distanceDesc))).toEqual(
      roleIdsOf(await getQ(clean, paths.registerRoles, distanceDesc)),
    );
  },
  'specialty-narrowing-leaks': async (clean, faulty) => {
    const professions = async (s: TestSandbox) =>
      new Set(
        (
          (await getQ(s, paths.codeSet('practitioner-specialty', 'CON'), { count: '1000' })).json as J
        ).expansion.contains.map((i: J) => roleExt(i, 'practitioner-role').valueString),
      );
    expect(await professions(clean)).toEqual(new Set(['CON']));
    const f = await professions(faulty);
    expect(f.has('CON')).toBe(true);
    expect(f.size).toBeGreaterThan(1);
  },
  'codeset-offset-off-by-one': async (clean, faulty) => {
    const q = { page: '2', count: '7' };
    expect(((await getQ(clean, paths.codeSet('condition-code', 'ICD10'), q)).json as J).expansion.offset).toBe(7);
    const f = (await getQ(faulty, paths.codeSet('condition-code', 'ICD10'), q)).json as J;
    expect(f.expansion.offset).toBe(14);
    expect(f.expansion.contains.map((i: J) => i.code)).toEqual(
      ((await getQ(clean, paths.codeSet('condition-code', 'ICD10'), q)).json as J).expansion.contains.map(
        (i: J) => i.code,
      ),
    );
  },
  'codeset-count-bound-ignored': async (clean, faulty) => {
    for (const count of ['0', '1001']) {
      const c = await getQ(clean, paths.codeSet('condition-code'), { count });
      expect([c.status, errorCode(c.json)]).toEqual([400, 'MSG_INVALID_FORMAT']);
      expect((await getQ(faulty, paths.codeSet('condition-code'), { count })).status).toBe(200);
    }
    expect(
      ((await getQ(faulty, paths.codeSet('condition-code'), { count: '0' })).json as J).expansion.contains,
    ).toEqual([]);
    expect((await getQ(faulty, paths.codeSet('condition-code'), { count: 'x' })).status).toBe(400);
  },
  'insurer-type-filter-ignored': async (clean, faulty) => {
    const total = ((await getQ(clean, paths.insurers)).json as J).total;
    for (const type of ['edi', 'mii']) {
      expect(((await getQ(clean, paths.insurers, { type })).json as J).total).toBeLessThan(total);
      expect(((await getQ(faulty, paths.insurers, { type })).json as J).total).toBe(total);
    }
  },
  'photo-size-mismatch': async (clean, faulty) => {
    const attachment = async (s: TestSandbox) =>
      ((await s.get(paths.photo('PR-0001'))).json as J).parameter[0].valueAttachment;
    const c = await attachment(clean);
    const f = await attachment(faulty);
    expect(Buffer.from(c.data, 'base64').length).toBe(c.size);
    expect(f.data).toBe(c.data);
    expect(f.size).toBe(c.size + 10);
  },
  'invalid-postcode-error': async (clean, faulty) => {
    const q = { postcode: 'NOT A POSTCODE' };
    const c = await getQ(clean, paths.validatePostcode, q);
    expect([c.status, c.json]).toEqual([200, { postcode: 'NOT A POSTCODE', status: false }]);
    const f = await getQ(faulty, paths.validatePostcode, q);
    expect([f.status, errorCode(f.json)]).toEqual([400, 'MSG_INVALID_FORMAT']);
    expect((await getQ(faulty, paths.validatePostcode, { postcode: 'SW1A 2AA' })).json).toEqual({
      postcode: 'SW1A 2AA',
      status: true,
    });
  },
  'booking-unknown-id-200': async (clean, faulty) => {
    const c = await clean.get(paths.bookingPractitioner('BP-9999'));
    expect([c.status, errorCode(c.json)]).toEqual([404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE']);
    const f = await faulty.get(paths.bookingPractitioner('BP-9999'));
    expect([f.status, (f.json as J).total, (f.json as J).entry]).toEqual([200, 0, []]);
    expect(ids((await faulty.get(paths.bookingPractitioner('BP-0001'))).json)).toEqual(['BP-0001']);
    expect((await faulty.get(paths.bookingRole('BR-9999'))).status).toBe(404);
  },
  'since-date-format-accepted': async (clean, faulty) => {
    const q = { _since: 'yesterday', count: '100' };
    const c = await getQ(clean, paths.bookingPractitioners, q);
    expect([c.status, errorCode(c.json)]).toEqual([422, 'MSG_DATE_FORMAT']);
    const f = await getQ(faulty, paths.bookingPractitioners, q);
    expect(f.status).toBe(200);
    expect(ids(f.json)).toEqual(ids((await getQ(clean, paths.bookingPractitioners, { count: '100' })).json));
    expect((await getQ(faulty, paths.bookingRoles, { _since: 'yesterday' })).status).toBe(422);
  },
  'distinct-by-ignored': async (clean, faulty) => {
    const plain = roleIdsOf(await getQ(clean, paths.registerRoles));
    for (const field of ['practitioner', 'location']) {
      expect(roleIdsOf(await getQ(clean, paths.registerRoles, { 'distinct-by': field })).length).toBeLessThan(
        plain.length,
      );
      expect(roleIdsOf(await getQ(faulty, paths.registerRoles, { 'distinct-by': field }))).toEqual(plain);
    }
  },
  'include-ignored': async (clean, faulty) => {
    const q = { _include: 'practitioner:location' };
    const c = await getQ(clean, paths.registerRoles, q);
    expect(entriesOf(c.json, 'Practitioner').length).toBeGreaterThan(0);
    expect(entriesOf(c.json, 'Location').length).toBeGreaterThan(0);
    const f = await getQ(faulty, paths.registerRoles, q);
    expect(f.status).toBe(200);
    expect([entriesOf(f.json, 'Practitioner').length, entriesOf(f.json, 'Location').length]).toEqual([0, 0]);
    expect(roleIdsOf(f)).toEqual(roleIdsOf(c));
  },
  'lookup-text-not-required': async (clean, faulty) => {
    for (const path of [paths.lookupPractitioners, paths.lookupLocations]) {
      expect((await getQ(clean, path)).status).toBe(400);
      const f = await getQ(faulty, path, { count: '100' });
      expect(f.status).toBe(200);
      expect((f.json as J).total).toBeGreaterThanOrEqual(15);
    }
    expect((await getQ(faulty, paths.addressSearch)).status).toBe(400);
  },
  'register-gender-filter-ignored': async (clean, faulty) => {
    const all = ((await getQ(clean, paths.registerPractitioners)).json as J).total;
    const c = resources((await getQ(clean, paths.registerPractitioners, { gender: 'male', count: '100' })).json) as J[];
    expect(c.every((p) => p.gender === 'male')).toBe(true);
    expect(((await getQ(faulty, paths.registerPractitioners, { gender: 'male' })).json as J).total).toBe(all);
    const roles = entriesOf(
      (await getQ(faulty, paths.registerRoles, { gender: 'male', _include: 'practitioner:location' })).json,
      'Practitioner',
    );
    expect(roles.every((e) => e.resource.gender === 'male')).toBe(true);
  },
  'retrieve-wrong-address': async (clean, faulty) => {
    expect(((await getQ(clean, paths.addressRetrieve, { id: 'GB|RM|A|10003' })).json as J[])[0].key).toBe(
      'GB|RM|A|10003',
    );
    for (const id of ['GB|RM|A|10001', 'GB|RM|A|10003', 'GB|NO|SUCH']) {
      expect(((await getQ(faulty, paths.addressRetrieve, { id })).json as J[])[0].key).toBe('GB|RM|A|10004');
    }
  },
  'control-parameter-missing': async (clean, faulty) => {
    const names = async (s: TestSandbox) =>
      ((await getQ(s, paths.controlParameters, { insurerId: 'INS001' })).json as J).extension.map((e: J) =>
        e.url.split('/').pop(),
      );
    expect(await names(clean)).toEqual(['acceptsEDIClaims', 'requiresDiagnosis', 'synchronousME', 'stvEnabled']);
    expect(await names(faulty)).toEqual(['acceptsEDIClaims', 'requiresDiagnosis', 'synchronousME']);
  },
  'booking-role-since-ignored': async (clean, faulty) => {
    const q = { _since: '2026-01-01T00:00:00Z', count: '100' };
    const all = ((await getQ(clean, paths.bookingRoles)).json as J).total;
    expect(((await getQ(clean, paths.bookingRoles, q)).json as J).total).toBeLessThan(all);
    expect(((await getQ(faulty, paths.bookingRoles, q)).json as J).total).toBe(all);
    expect(((await getQ(faulty, paths.bookingPractitioners, q)).json as J).total).toBe(
      ((await getQ(clean, paths.bookingPractitioners, q)).json as J).total,
    );
  },
  'booking-practitioner-filters-ignored': async (clean, faulty) => {
    const all = ((await getQ(clean, paths.bookingPractitioners, { count: '100' })).json as J).total;
    for (const q of [
      { profession: 'NO-SUCH-PROFESSION' },
      { channel: 'NO-SUCH-CHANNEL' },
      { location: 'NO-SUCH-LOCATION' },
      { postcode: 'ZZ99 9ZZ' },
      { near: '0:0:1:km' },
    ] as Record<string, string>[]) {
      expect(((await getQ(clean, paths.bookingPractitioners, { ...q, count: '100' })).json as J).total).toBe(0);
      expect(((await getQ(faulty, paths.bookingPractitioners, { ...q, count: '100' })).json as J).total).toBe(all);
    }
    expect(((await getQ(faulty, paths.bookingPractitioners, { family: 'NO-SUCH-NAME' })).json as J).total).toBe(0);
  },
  'control-parameters-other-insurer': async (clean, faulty) => {
    const urls = async (s: TestSandbox) =>
      ((await getQ(s, paths.controlParameters, { insurerId: 'INS001' })).json as J).extension.map(
        (e: J) => e.url as string,
      );
    expect((await urls(clean)).every((u: string) => u.includes('/organization/ins/INS001/'))).toBe(true);
    expect((await urls(faulty)).some((u: string) => u.includes('/organization/ins/INS001/'))).toBe(false);
  },
  'distinct-by-not-first': async (clean, faulty) => {
    const q = { near: '51.5074:-0.1278:200:km', _sort: 'distance:asc' };
    const plain = roleIdsOf(await getQ(clean, paths.registerRoles, q));
    const c = roleIdsOf(await getQ(clean, paths.registerRoles, { ...q, 'distinct-by': 'practitioner' }));
    const f = roleIdsOf(await getQ(faulty, paths.registerRoles, { ...q, 'distinct-by': 'practitioner' }));
    expect(f.length).toBe(c.length);
    expect(f).not.toEqual(c);
    expect(plain.length).toBeGreaterThan(c.length);
  },
  'accounts-error-code-as-text': async (clean, faulty) => {
    const calls = [
      (s: TestSandbox) => s.accounts(paths.introspect, { site: 'SITE002' }),
      async (s: TestSandbox) => s.accounts(paths.features, { token: await s.userToken('bob') }),
      async (s: TestSandbox) => s.accounts(paths.userDetails, { token: await s.token() }),
    ];
    for (const call of calls) {
      const c = (await call(clean)).json as J;
      const f = await call(faulty);
      expect(typeof c.code).toBe('number');
      expect([f.status, (f.json as J).code]).toEqual([c.code, String(c.code)]);
      expect((f.json as J).message).toBe(c.message);
    }
    expect(((await faulty.accounts(withQuery(paths.event, { sns_id: 'nope' }))).json as J).code).toBe(403);
  },
  'introspect-skips-site-check': async (clean, faulty) => {
    for (const site of ['SITE002', 'SITE003']) {
      expect((await clean.accounts(paths.introspect, { site })).status).toBe(403);
      expect((await faulty.accounts(paths.introspect, { site })).json).toEqual({ status: 'success' });
    }
    expect((await faulty.accounts(paths.features, { site: 'SITE002' })).status).toBe(403);
  },
  'sites-v2-next-page-at-end': async (clean, faulty) => {
    const pagination = async (s: TestSandbox, pageNumber: string) =>
      ((await s.accounts(withQuery(paths.sitesV2, { pageNumber }))).json as J).pagination;
    expect((await pagination(clean, '3')).nextPage).toBeNull();
    expect(await pagination(faulty, '3')).toEqual({
      totalRecords: 27,
      currentPage: 3,
      totalPages: 3,
      nextPage: 4,
      prevPage: 2,
    });
    expect((await pagination(faulty, '1')).nextPage).toBe(2);
  },
  'site-users-invalid-404': async (clean, faulty) => {
    const c = await clean.accounts(paths.siteUsers('SITE999'), { site: 'SITE001' });
    expect([c.status, c.json]).toEqual([200, { message: 'Siteid is invalid : SITE999' }]);
    const f = await faulty.accounts(paths.siteUsers('SITE999'), { site: 'SITE001' });
    expect([f.status, f.json]).toEqual([404, { message: 'Siteid is invalid : SITE999', code: 404 }]);
    expect((await faulty.accounts(paths.siteUsers('SITE004'), { site: 'SITE001' })).status).toBe(200);
  },
  'revoke-keeps-access-token': async (clean, faulty) => {
    for (const [s, after] of [
      [clean, 401],
      [faulty, 200],
    ] as const) {
      const { access_token } = await s.signIn();
      expect((await revokeWith(s, { token: access_token, token_type_hint: 'access_token' })).status).toBe(200);
      expect(await introspectStatus(s, access_token)).toBe(after);
    }
    const { access_token, refresh_token } = await faulty.signIn();
    await revokeWith(faulty, { token: refresh_token, token_type_hint: 'refresh_token' });
    expect(await introspectStatus(faulty, access_token)).toBe(401);
  },
  'refresh-revoke-keeps-access': async (clean, faulty) => {
    for (const [s, after] of [
      [clean, 401],
      [faulty, 200],
    ] as const) {
      const { access_token, refresh_token } = await s.signIn();
      expect((await revokeWith(s, { token: refresh_token, token_type_hint: 'refresh_token' })).status).toBe(200);
      expect(await introspectStatus(s, access_token)).toBe(after);
      expect(await refreshStatus(s, refresh_token)).toBe(400);
    }
  },
  'token-details-error-shape': async (clean, faulty) => {
    const details = (s: TestSandbox, redirect_uri: string) =>
      s.request('GET', withQuery(paths.tokenDetails('nhs'), { redirect_uri }), {
        headers: { authorization: basicAuth() },
      });
    expect((await details(clean, 'https://app.example/unlinked')).json).toEqual({
      status: 'fail',
      message: 'NHS user not found',
      code: 404,
    });
    const f = await details(faulty, 'https://app.example/unlinked');
    expect([f.status, f.json]).toEqual([404, { message: 'NHS user not found', code: 404 }]);
    expect(((await details(faulty, 'https://app.example/callback')).json as J).status).toBe('success');
  },
  'diary-unauthorized-body': async (clean, faulty) => {
    for (const path of [paths.episodeTypes, paths.appointmentStatuses, paths.recurrenceTypes]) {
      const c = await clean.get(path, { token: null });
      expect([c.status, c.text]).toEqual([401, '']);
      const f = await faulty.get(path, { token: null });
      expect(f.status).toBe(401);
      expect(f.json).toEqual({ message: 'Unauthorized', code: 401 });
      expect((await faulty.get(path, { token: await faulty.diaryToken() })).status).toBe(200);
    }
  },
  'diary-unmapped-as-unauthorized': async (clean, faulty) => {
    expect((await clean.multipart(paths.diaryPostAuth, { Code: 'DIARY-UNMAPPED' })).json).toEqual({ response: 3 });
    expect((await faulty.multipart(paths.diaryPostAuth, { Code: 'DIARY-UNMAPPED' })).json).toEqual({ response: 1 });
    expect(((await faulty.multipart(paths.diaryPostAuth, { Code: 'DIARY-OK' })).json as J).response).toBe(2);
  },
  'patient-update-ignored': async (clean, faulty) => {
    for (const [s, family] of [
      [clean, 'Updated'],
      [faulty, 'Fault'],
    ] as const) {
      const created = (await s.patient('POST', paths.createPatient, NEW_PATIENT)).json as J;
      const u = await s.patient('PUT', paths.updatePatient(created.id), {
        ...created,
        name: [{ family: 'Updated', given: ['Finn'] }],
      });
      expect([u.status, (u.json as J).name[0].family]).toEqual([200, 'Updated']);
      expect(((await s.patient('GET', paths.patient(created.id))).json as J).name[0].family).toBe(family);
    }
  },
  'patient-deleted-still-readable': async (clean, faulty) => {
    for (const [s, status] of [
      [clean, 404],
      [faulty, 200],
    ] as const) {
      const created = (await s.patient('POST', paths.createPatient, NEW_PATIENT)).json as J;
      expect(((await s.patient('DELETE', paths.patient(created.id))).json as J).parameter).toEqual([
        { name: 'Status', valueString: 'DELETED' },
      ]);
      expect((await s.patient('GET', paths.patient(created.id))).status).toBe(status);
    }
  },
  'patient-missing-header-400': async (clean, faulty) => {
    const calls = [
      (s: TestSandbox) => s.patient('POST', paths.createPatient, NEW_PATIENT, { site: null }),
      (s: TestSandbox) => s.patient('GET', paths.patient('PAT-0001'), undefined, { site: null }),
    ];
    for (const call of calls) {
      expect((await call(clean)).status).toBe(401);
      const f = await call(faulty);
      expect([f.status, errorCode(f.json)]).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
    }
    expect((await faulty.patient('GET', paths.patient('PAT-0001'), undefined, { version: null })).status).toBe(401);
    expect((await faulty.patient('DELETE', paths.patient('PAT-0001'), undefined, { site: null })).status).toBe(401);
  },
  'condition-orphan-accepted': async (clean, faulty) => {
    const c = await clean.patient('POST', paths.condition, orphanCondition);
    expect([c.status, errorCode(c.json)]).toEqual([422, 'MSG_REFERENCE_ID_NOT_FOUND']);
    const f = await faulty.patient('POST', paths.condition, orphanCondition);
    expect([f.status, (f.json as J).resourceType]).toEqual([201, 'Condition']);
  },
  'payors-duplicated': async (clean, faulty) => {
    const authorities = async (s: TestSandbox) =>
      ((await s.contract('GET', paths.sitePayors('SITE005'))).json as J).entry.map(
        (e: J) => e.resource.authority[0].reference,
      );
    await authorities(clean);
    expect(await authorities(clean)).toEqual(['Organization/slf', 'Organization/na']);
    await authorities(faulty);
    expect(await authorities(faulty)).toEqual([
      'Organization/slf',
      'Organization/na',
      'Organization/slf',
      'Organization/na',
    ]);
  },
  'procedure-without-service-accepted': async (clean, faulty) => {
    const orphan = priceRequest([{ system: `${REF_URL}/procedure`, code: 'CONF-PROC' }]);
    const c = await clean.contract('POST', paths.contractPrice, orphan);
    expect([c.status, errorCode(c.json)]).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
    const f = await faulty.contract('POST', paths.contractPrice, orphan);
    expect([f.status, (f.json as J).resourceType]).toEqual([200, 'Contract']);
    expect(
      (
        await faulty.contract(
          'POST',
          paths.contractPrice,
          priceRequest([{ system: `${REF_URL}/procedure`, code: 'CONF-PROC', fee: 5 }]),
        )
      ).status,
    ).toBe(400);
  },
  'delete-outcome-severity-error': async (clean, faulty) => {
    for (const [s, severity] of [
      [clean, 'information'],
      [faulty, 'error'],
    ] as const) {
      for (const [authority, payorType] of [
        ['Organization/CONF-INS', 'I'],
        ['Person/CONF-CONTACT', 'C'],
      ]) {
        const created = (
          await s.contract('POST', paths.contract, {
            resourceType: 'Contract',
            subject: [{ reference: 'Site/SITE001' }],
            authority: [{ reference: authority }],
          })
        ).json as J;
        const del = await s.contract(
          'DELETE',
          withQuery(paths.contractSite('SITE001'), { payorId: authority, payorType, providerGroup: created.id }),
        );
        expect([del.status, errorCode(del.json), (del.json as J).issue[0].severity]).toEqual([
          200,
          'MSG_DELETED_ID',
          severity,
        ]);
      }
    }
    const service = await faulty.contract(
      'DELETE',
      withQuery(paths.contractPriceSite('SITE001'), { indStdCode: 'FUCONS', indStdCodeScheme: 'ISC' }),
    );
    expect((service.json as J).issue[0].severity).toBe('information');
  },
  'effective-prices-orphan-procedure': async (clean, faulty) => {
    const q = withQuery(paths.effectivePrices, { site: 'SITE001' });
    expect(orphanAssets(await clean.contract('GET', q))).toBe(0);
    const f = await faulty.contract('GET', q);
    expect(orphanAssets(f)).toBeGreaterThan(0);
    expect(ids(f.json)).toEqual(ids((await clean.contract('GET', q)).json));
  },
  'batch-msgid-repeated': async (clean, faulty) => {
    const msgIds = async (s: typeof clean) =>
      Promise.all(
        ['BATCH-1001', 'BATCH-1002'].map(
          async (id) => ((await s.get(paths.batch(id))).json as { msgId: string }).msgId,
        ),
      );
    const c = await msgIds(clean);
    expect(new Set(c).size).toBe(2);
    const f = await msgIds(faulty);
    expect(new Set(f).size).toBe(1);
  },
  'authorisation-filters-ignored': async (clean, faulty) => {
    const unknown = { authCode: 'NO-SUCH-AUTH', count: '50' };
    expect(ids((await clean.form(paths.authorisation, unknown)).json)).toEqual([]);
    expect(ids((await faulty.form(paths.authorisation, unknown)).json).length).toBeGreaterThan(0);
    expect(ids((await clean.form(paths.authorisation, { authCode: 'AUTH-0001' })).json)).toEqual(['PA-0001']);
  },
  'coverage-extension-urls-moved': async (clean, faulty) => {
    const urls = async (s: TestSandbox) => {
      const c = (await s.findMember('2', v2Single)).json as J;
      return [...c.extension, ...c.contained[0].extension].map((e: J) => e.url as string);
    };
    expect(await urls(clean)).toContain(`${REF_URL}/insuranceSchemePlan`);
    expect(await urls(clean)).toContain(`${REF_URL}/extension/genderIdentity`);
    expect(await urls(faulty)).toContain(`${REF_URL}/extension/insuranceSchemePlan`);
    expect(await urls(faulty)).toContain(`${REF_URL}/Patient/extension/genderIdentity`);
  },
  'organization-telecom-repeated': async (clean, faulty) => {
    const systems = async (s: TestSandbox) =>
      (((await s.findMember('2', v2Single)).json as J).contained[1].telecom as J[]).map((t: J) => t.system as string);
    expect(await systems(clean)).toEqual(['email', 'phone']);
    expect(await systems(faulty)).toEqual(['email', 'phone', 'email', 'phone']);
  },
  'bill-extension-urls-moved': async (clean, faulty) => {
    const urls = async (s: TestSandbox) =>
      ((await s.get(paths.bill('BILL-0001', 'false'))).json as J).extension.map((e: J) => e.url as string);
    expect(await urls(clean)).toContain(`${REF_URL}/extension/Claim/ClaimStatus`);
    expect(await urls(faulty)).toContain(`${REF_URL}/extension/ClaimStatus`);
    expect(await urls(faulty)).not.toContain(`${REF_URL}/extension/Claim/ClaimStatus`);
    const listed = (resources((await faulty.get(withQuery(paths.bills, { insurerid: 'bup' }))).json) as J[]).flatMap(
      (r) => r.extension.map((e: J) => e.url as string),
    );
    expect(listed.some((u) => u.includes('/extension/Claim/'))).toBe(false);
  },
  'summary-extension-duplicated': async (clean, faulty) => {
    const processed = async (s: TestSandbox) =>
      (resources((await s.form(paths.summary, { count: '3' })).json) as J[]).map((r) =>
        r.extension.filter((e: J) => String(e.url).endsWith('/processedDate')).map((e: J) => e.valueDate),
      );
    expect((await processed(clean)).every((v) => v.length === 1)).toBe(true);
    const f = await processed(faulty);
    expect(f.every((v) => v.length === 2 && v[0] !== v[1])).toBe(true);
  },
  'contract-item-system-other': async (clean, faulty) => {
    const systems = async (s: TestSandbox) =>
      JSON.stringify((await s.contract('GET', withQuery(paths.effectivePrices, { site: 'SITE001' }))).json).match(
        /"system":"(ISC|[^"]*\/service)"/g,
      ) ?? [];
    expect((await systems(clean)).every((m) => m.includes('"ISC"'))).toBe(true);
    const f = await systems(faulty);
    expect(f.length).toBeGreaterThan(0);
    expect(f.every((m) => m.endsWith('/service"'))).toBe(true);
  },
  'effective-prices-first-payor-only': async (clean, faulty) => {
    const q = withQuery(paths.effectivePrices, { site: 'SITE001', payor: 'bup,slf' });
    const payors = async (s: TestSandbox) =>
      new Set(JSON.stringify((await s.contract('GET', q)).json).match(/Payor\/I-(bup|slf)/g));
    expect([...(await payors(clean))].sort()).toEqual(['Payor/I-bup', 'Payor/I-slf']);
    expect([...(await payors(faulty))]).toEqual(['Payor/I-bup']);
  },
  'refresh-revoke-keeps-refresh': async (clean, faulty) => {
    for (const [s, after] of [
      [clean, 400],
      [faulty, 200],
    ] as const) {
      const { access_token, refresh_token } = await s.signIn();
      expect((await revokeWith(s, { token: refresh_token, token_type_hint: 'refresh_token' })).status).toBe(200);
      expect(await introspectStatus(s, access_token)).toBe(401);
      expect(await refreshStatus(s, refresh_token)).toBe(after);
    }
  },
  'codeset-past-last-page-malformed': async (clean, faulty) => {
    const path = paths.codeSet('condition-code', 'ICD10');
    const c = (await getQ(clean, path, { page: '99999' })).json as J;
    expect([c.expansion.total > 0, c.expansion.contains]).toEqual([true, []]);
    const f = await getQ(faulty, path, { page: '99999' });
    expect([f.status, (f.json as J).resourceType, (f.json as J).expansion]).toEqual([200, 'ValueSet', undefined]);
    // Pages holding codes, and an empty set's first page, keep their expansion.
    expect(((await getQ(faulty, path, { page: '1' })).json as J).expansion).toEqual(
      ((await getQ(clean, path, { page: '1' })).json as J).expansion,
    );
    expect(((await getQ(faulty, paths.codeSet('condition-code', 'NO-SUCH-SCHEME'))).json as J).expansion).toMatchObject(
      { total: 0, offset: 0, contains: [] },
    );
  },
  'documented-value-refused': async (clean, faulty) => {
    const tih = { insurerIdentifier: 'tih', membershipNumber: 'TIH999999' };
    expect(errorCode((await clean.findMember('1', tih)).json)).toBe('NO_MATCH_FOUND');
    const f = await faulty.findMember('1', tih);
    expect([f.status, errorCode(f.json)]).toEqual([422, 'MSG_PARAM_INVALID']);
    // The other listed insurers, and version 2, are served as before.
    expect(errorCode((await faulty.findMember('1', v1None)).json)).toBe('NO_MATCH_FOUND');
    expect(errorCode((await faulty.findMember('2', { ...v2None, insurerIdentifier: 'tih' })).json)).toBe(
      'NO_MATCH_FOUND',
    );
  },
  'booking-refusal-server-error': async (clean, faulty) => {
    const refused: Record<string, string>[] = [
      { page: 'abc' },
      { count: '1.5' },
      { page: '0' },
      { _since: 'yesterday' },
    ];
    for (const path of [paths.bookingPractitioners, paths.bookingRoles])
      for (const q of [...refused, { location: '' }]) {
        expect((await getQ(clean, path, q)).status, `${path} ${JSON.stringify(q)}`).toBeGreaterThanOrEqual(400);
        const f = await getQ(faulty, path, q);
        expect([f.status, errorCode(f.json)], `${path} ${JSON.stringify(q)}`).toEqual([500, 'MSG_INTERNAL_ERROR']);
      }
    // Valid searches are served, an unknown id keeps its 404, the register search its refusals.
    expect((await getQ(faulty, paths.bookingRoles, { page: '2', count: '1' })).status).toBe(200);
    expect((await faulty.get(paths.bookingPractitioner('BP-9999'))).status).toBe(404);
    expect((await getQ(faulty, paths.registerPractitioners, { page: 'abc' })).status).toBe(400);
  },
  'patient-id-reused-after-delete': async (clean, faulty) => {
    for (const [s, reused] of [
      [clean, false],
      [faulty, true],
    ] as const) {
      const first = (await s.patient('POST', paths.createPatient, NEW_PATIENT)).json as J;
      expect((await s.patient('DELETE', paths.patient(first.id))).status).toBe(200);
      const next = (await s.patient('POST', paths.createPatient, NEW_PATIENT)).json as J;
      expect(next.id === first.id).toBe(reused);
      expect((await s.patient('GET', paths.patient(first.id))).status).toBe(reused ? 200 : 404);
      // Only the last deleted id is given again, once.
      const third = (await s.patient('POST', paths.createPatient, NEW_PATIENT)).json as J;
      expect([first.id, next.id]).not.toContain(third.id);
    }
  },
  'condition-for-deleted-patient-stored': async (clean, faulty) => {
    for (const [s, stored] of [
      [clean, false],
      [faulty, true],
    ] as const) {
      const patient = (await s.patient('POST', paths.createPatient, NEW_PATIENT)).json as J;
      expect((await s.patient('DELETE', paths.patient(patient.id))).status).toBe(200);
      const condition = {
        ...orphanCondition,
        note: [{ text: 'x', authorReference: { reference: `patient/${patient.id}` } }],
      };
      const c = await s.patient('POST', paths.condition, condition);
      expect(c.status === 201).toBe(stored);
      // The patient itself stays deleted, and a patient that never existed is still refused.
      expect((await s.patient('GET', paths.patient(patient.id))).status).toBe(404);
      expect((await s.patient('POST', paths.condition, orphanCondition)).status).toBe(422);
    }
  },
  'patient-body-shape-unchecked': async (clean, faulty) => {
    const wrong = { ...NEW_PATIENT, telecom: [{ system: 'phone', use: 'home' }] };
    const c = await clean.patient('POST', paths.createPatient, wrong);
    expect([c.status, errorCode(c.json)]).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
    const f = await faulty.patient('POST', paths.createPatient, wrong);
    expect(f.status).toBe(201);
    // Nothing was stored, and documented bodies are created as before.
    expect((await faulty.patient('GET', paths.patient((f.json as J).id))).status).toBe(404);
    expect((await faulty.patient('POST', paths.createPatient, NEW_PATIENT)).status).toBe(201);
  },
};

describe('named faults change the answer where the clean sandbox keeps the rule', () => {
  test('every catalogued fault has a scenario', () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual([...FAULT_NAMES].sort());
  });

  test.concurrent.each(FAULT_NAMES.map((name) => [name] as const))('%s', async (name) => {
    const clean = await TestSandbox.start();
    const faulty = await TestSandbox.start([name]);
    try {
      expect(((await faulty.get('/_sandbox/health', { token: null })).json as J).faults).toEqual([name]);
      await SCENARIOS[name as FaultName](clean, faulty);
    } finally {
      await Promise.all([clean.close(), faulty.close()]);
    }
  });
});
