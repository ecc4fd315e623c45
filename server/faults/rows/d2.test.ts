/** Every Document 2 row fault changes the sandbox's answer where the clean sandbox keeps the rule. */
import { expect } from 'vitest';
import { distanceKm } from '../../router/geo.ts';
import {
  type Answer,
  entriesOf,
  errorCode,
  extension,
  ids,
  paths,
  resources,
  type TestSandbox,
  withQuery,
} from '../../testSupport.ts';
import { D2_ROW_FAULTS } from './d2.ts';
import { describeRowFaults, type Scenario } from './scenarios.ts';

type J = any;

const AT = '51.5074:-0.1278';
const CENTRE = { latitude: 51.5074, longitude: -0.1278 };

const getQ = (s: TestSandbox, path: string, query: Record<string, string> = {}) => s.get(withQuery(path, query));
const statusOf = async (s: TestSandbox, path: string, query: Record<string, string> = {}) =>
  (await getQ(s, path, query)).status;
const typeOf = (a: Answer) => (a.json as J)?.resourceType;
/** Values of every (nested) extension whose URL ends with the name. */
function extensionValues(body: unknown, name: string): unknown[] {
  const out: unknown[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const n of node) walk(n);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const o = node as J;
    if (typeof o.url === 'string' && (o.url === name || o.url.endsWith(`/${name}`))) {
      const key = Object.keys(o).find((k) => k.startsWith('value'));
      if (key) out.push({ [key]: o[key] });
    }
    for (const v of Object.values(o)) walk(v);
  };
  walk(body);
  return out;
}

/** The code or string an extension value holds (`valueCodeableConcept`, `valueCoding` or `valueString`). */
const codeOf = (v: J): string | undefined =>
  v.valueString ?? v.valueCoding?.code ?? v.valueCodeableConcept?.coding?.[0]?.code ?? undefined;

/**
 * A filter with a value a returned record shows (read from the extension `ext`, included
 * resources too) keeps records on the clean sandbox, and other ones (or none) on the faulty one.
 */
const filterBroken =
  (path: string, resourceType: string, param: string, ext: string, include = false): Scenario =>
  async (clean, faulty) => {
    const base: Record<string, string> = { count: '50', ...(include ? { _include: 'practitioner:location' } : {}) };
    const value = extensionValues((await getQ(clean, path, base)).json, ext)
      .map(codeOf)
      .find((v) => v !== undefined);
    expect(value).toBeDefined();
    const kept = async (s: TestSandbox, v: string) =>
      entriesOf((await getQ(s, path, { ...base, [param]: v })).json, resourceType).map((e) => e.resource.id as string);
    const c = await kept(clean, value as string);
    expect(c.length).toBeGreaterThan(0);
    expect(await kept(faulty, value as string)).not.toEqual(c);
  };

/** is-onlinebooking-available=true keeps on the faulty sandbox exactly what false keeps on the clean one. */
const bookableReversed =
  (path: string, resourceType: string, include = false): Scenario =>
  async (clean, faulty) => {
    const base: Record<string, string> = { count: '100', ...(include ? { _include: 'practitioner:location' } : {}) };
    const kept = async (s: TestSandbox, v: string) =>
      entriesOf((await getQ(s, path, { ...base, 'is-onlinebooking-available': v })).json, resourceType).map(
        (e) => e.resource.id as string,
      );
    const cTrue = await kept(clean, 'true');
    const cFalse = await kept(clean, 'false');
    expect(cTrue.length).toBeGreaterThan(0);
    expect(cFalse.length).toBeGreaterThan(0);
    expect(await kept(faulty, 'true')).toEqual(cFalse);
    expect(await kept(faulty, 'false')).toEqual(cTrue);
  };

/** The set (and scheme) is served 200 on the clean sandbox, 404 on the faulty one; another set still 200. */
const codeSetNotServed =
  (set: string, scheme: string | undefined, other: [string, string?]): Scenario =>
  async (clean, faulty) => {
    const path = paths.codeSet(set, scheme);
    const c = await getQ(clean, path, { count: '5' });
    expect([c.status, typeOf(c)]).toEqual([200, 'ValueSet']);
    expect((c.json as J).expansion.contains.length).toBeGreaterThan(0);
    const f = await getQ(faulty, path, { count: '5' });
    expect([f.status, errorCode(f.json)]).toEqual([404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE']);
    expect(await statusOf(faulty, paths.codeSet(...other), { count: '5' })).toBe(200);
  };

/** A search without parameters is a Bundle on the clean sandbox, 400 on the faulty one; a filtered one is served. */
const requiresFilter =
  (path: string, filter: Record<string, string>): Scenario =>
  async (clean, faulty) => {
    for (const q of [{}, { count: '10' }] as Record<string, string>[]) {
      const c = await getQ(clean, path, q);
      expect([c.status, typeOf(c)]).toEqual([200, 'Bundle']);
      const f = await getQ(faulty, path, q);
      expect([f.status, errorCode(f.json)]).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
    }
    expect(await statusOf(faulty, path, filter)).toBe(200);
  };

/** The get is a Bundle holding the resource on the clean sandbox, the bare resource on the faulty one. */
const bareResource =
  (path: string, resourceType: string): Scenario =>
  async (clean, faulty) => {
    const c = await clean.get(path);
    expect([c.status, typeOf(c), resources(c.json).length]).toEqual([200, 'Bundle', 1]);
    const f = await faulty.get(path);
    expect([f.status, typeOf(f)]).toEqual([200, resourceType]);
    expect(f.json).toEqual(resources(c.json)[0]);
  };

/** The lookup is a Bundle on the clean sandbox, the array of its resources on the faulty one. */
const bareArray =
  (path: string, query: Record<string, string>): Scenario =>
  async (clean, faulty) => {
    const c = await getQ(clean, path, query);
    expect([c.status, typeOf(c)]).toEqual([200, 'Bundle']);
    expect(resources(c.json).length).toBeGreaterThan(0);
    const f = await getQ(faulty, path, query);
    expect(f.status).toBe(200);
    expect(f.json).toEqual(resources(c.json));
  };

/** A paging tag's display (`meta.tag`, by code). */
const pagingTag = (a: Answer, code: string) =>
  ((a.json as J)?.meta?.tag ?? []).find((t: J) => t.code === code)?.display as string | undefined;

/** Page n of count 2 holds three records on the faulty sandbox: the two asked for and the next page's first. */
const pageEndInclusive =
  (path: string, query: Record<string, string>): Scenario =>
  async (clean, faulty) => {
    const page = async (s: TestSandbox, n: number, count = 2) =>
      getQ(s, path, { ...query, page: String(n), count: String(count) });
    const c1 = ids((await page(clean, 1)).json);
    const c2 = ids((await page(clean, 2)).json);
    expect(c1).toHaveLength(2);
    expect(c2.length).toBeGreaterThan(0);
    const f1 = await page(faulty, 1);
    expect(ids(f1.json)).toEqual([...c1, c2[0]]);
    expect([pagingTag(f1, 'page'), pagingTag(f1, 'count')]).toEqual(['1', '2']);
    expect(ids((await page(faulty, 2)).json).slice(0, c2.length)).toEqual(c2);
  };

/** Each value is refused 4xx on the clean sandbox and served 200 on the faulty one. */
const lenient =
  (path: string, probes: Record<string, string>[]): Scenario =>
  async (clean, faulty) => {
    for (const q of probes) {
      const c = await statusOf(clean, path, q);
      expect(c, JSON.stringify(q)).toBeGreaterThanOrEqual(400);
      expect(c, JSON.stringify(q)).toBeLessThan(500);
      expect(await statusOf(faulty, path, q), JSON.stringify(q)).toBe(200);
    }
  };

const SCENARIOS: Record<string, Scenario> = {
  'code-set-service-category-isc-not-served': codeSetNotServed('service-category', 'ISC', ['service-type', 'ISC']),
  'code-set-service-type-isc-not-served': codeSetNotServed('service-type', 'ISC', ['service-category', 'ISC']),
  'code-set-procedure-code-ccsd-not-served': codeSetNotServed('procedure-code', 'CCSD', ['condition-code', 'ICD10']),
  'code-set-condition-code-icd10-not-served': codeSetNotServed('condition-code', 'ICD10', ['condition-code', 'ICD9']),
  'code-set-condition-code-icd9-not-served': codeSetNotServed('condition-code', 'ICD9', ['condition-code', 'ICD10']),
  'code-set-practitioner-role-not-served': codeSetNotServed('practitioner-role', undefined, ['practitioner-specialty']),
  'code-set-practitioner-specialty-not-served': codeSetNotServed('practitioner-specialty', undefined, [
    'practitioner-role',
  ]),
  'code-set-practitioner-subspecialty-not-served': codeSetNotServed('practitioner-subspecialty', undefined, [
    'practitioner-role',
  ]),
  'code-set-scheme-required': async (clean, faulty) => {
    expect(await statusOf(clean, paths.codeSet('practitioner-role'), { count: '5' })).toBe(200);
    const f = await getQ(faulty, paths.codeSet('practitioner-role'), { count: '5' });
    expect([f.status, errorCode(f.json)]).toEqual([404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE']);
    expect(await statusOf(faulty, paths.codeSet('condition-code', 'ICD10'), { count: '5' })).toBe(200);
  },
  'code-set-count-required': async (clean, faulty) => {
    expect(await statusOf(clean, paths.codeSet('condition-code'))).toBe(200);
    const f = await faulty.get(paths.codeSet('condition-code'));
    expect([f.status, errorCode(f.json)]).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
    expect(await statusOf(faulty, paths.codeSet('condition-code'), { count: '5' })).toBe(200);
  },
  'code-set-as-code-system': async (clean, faulty) => {
    const c = await getQ(clean, paths.codeSet('condition-code', 'ICD10'), { count: '5' });
    expect(typeOf(c)).toBe('ValueSet');
    const f = await getQ(faulty, paths.codeSet('condition-code', 'ICD10'), { count: '5' });
    expect([f.status, typeOf(f), (f.json as J).expansion]).toEqual([200, 'CodeSystem', undefined]);
    expect((f.json as J).concept.map((k: J) => k.code)).toEqual((c.json as J).expansion.contains.map((k: J) => k.code));
  },
  'practitioner-lookup-bare-array': bareArray(paths.lookupPractitioners, { text: 'Smith' }),
  'location-lookup-bare-array': bareArray(paths.lookupLocations, { text: 'London' }),
  'practitioner-lookup-text-not-applied': async (clean, faulty) => {
    const families = async (s: TestSandbox) =>
      (resources((await getQ(s, paths.lookupPractitioners, { text: 'Smith', count: '50' })).json) as J[]).map(
        (r) => r.name[0].family,
      );
    const c = await families(clean);
    expect(c.length).toBeGreaterThan(0);
    for (const f of c) expect(f.toLowerCase()).toContain('smith');
    const f = await families(faulty);
    expect(f.length).toBeGreaterThan(c.length);
    expect(f).toContain('Patel');
  },
  'location-lookup-text-not-applied': async (clean, faulty) => {
    const names = async (s: TestSandbox) =>
      (resources((await getQ(s, paths.lookupLocations, { text: 'London', type: 'P', count: '50' })).json) as J[]).map(
        (r) => r.name,
      );
    const c = await names(clean);
    expect(c.length).toBeGreaterThan(0);
    for (const n of c) expect(n).toContain('London');
    const f = await names(faulty);
    expect(f).toContain('Richmond Physiotherapy');
    // The type still restricts.
    expect(f).not.toContain('Harley Street Clinic');
  },
  'location-lookup-type-p-refused': async (clean, faulty) => {
    const c = await getQ(clean, paths.lookupLocations, { text: 'London', type: 'P' });
    expect([c.status, typeOf(c)]).toEqual([200, 'Bundle']);
    const f = await getQ(faulty, paths.lookupLocations, { text: 'London', type: 'P' });
    expect([f.status, errorCode(f.json)]).toEqual([422, 'MSG_PARAM_INVALID']);
    expect(await statusOf(faulty, paths.lookupLocations, { text: 'London' })).toBe(200);
  },
  'insurer-list-all-omits-mii': async (clean, faulty) => {
    const mii = ids((await getQ(clean, paths.insurers, { type: 'mii' })).json);
    const all = ids((await getQ(clean, paths.insurers, { type: 'all' })).json);
    expect(mii.length).toBeGreaterThan(0);
    expect(all).toEqual(expect.arrayContaining(mii));
    expect(ids((await getQ(faulty, paths.insurers, { type: 'mii' })).json)).toEqual(mii);
    for (const q of [{ type: 'all' }, {}] as Record<string, string>[]) {
      const f = ids((await getQ(faulty, paths.insurers, q)).json);
      expect(f.filter((i) => mii.includes(i))).toEqual([]);
      expect(f).toEqual(all.filter((i) => !mii.includes(i)));
    }
  },
  'insurer-edi-as-true-false': async (clean, faulty) => {
    const edi = async (s: TestSandbox) =>
      (resources((await s.get(paths.insurers)).json) as J[]).map((r) => extension(r, 'edi'));
    const c = await edi(clean);
    expect(new Set(c)).toEqual(new Set(['Yes', 'No']));
    expect(await edi(faulty)).toEqual(c.map((v) => (v === 'Yes' ? 'true' : 'false')));
  },
  'insurer-type-spelled-out': async (clean, faulty) => {
    const types = async (s: TestSandbox) =>
      (resources((await s.get(paths.insurers)).json) as J[]).map((r) => extension(r, 'insurerType'));
    const c = await types(clean);
    expect(new Set(c)).toEqual(new Set(['MII', 'PMI']));
    expect(await types(faulty)).toEqual(c.map((v) => (v === 'MII' ? 'Medical indemnity' : 'Private medical')));
  },
  'control-parameters-unknown-insurer-server-error': async (clean, faulty) => {
    const unknown = { insurerId: 'NO-SUCH-INSURER-000' };
    expect(await statusOf(clean, paths.controlParameters, unknown)).toBe(200);
    expect(await statusOf(faulty, paths.controlParameters, unknown)).toBe(500);
    const known = await getQ(faulty, paths.controlParameters, { insurerId: 'INS001' });
    expect(known.json).toEqual((await getQ(clean, paths.controlParameters, { insurerId: 'INS001' })).json);
  },
  'address-search-wrapped-in-object': async (clean, faulty) => {
    const c = await getQ(clean, paths.addressSearch, { text: 'Downing Street' });
    expect(Array.isArray(c.json)).toBe(true);
    const f = await getQ(faulty, paths.addressSearch, { text: 'Downing Street' });
    expect(f.json).toEqual({ items: c.json });
  },
  'address-search-content-type-text-plain': async (clean, faulty) => {
    const c = await getQ(clean, paths.addressSearch, { text: 'Downing Street' });
    expect(c.headers.get('content-type')).toMatch(/json/);
    const f = await getQ(faulty, paths.addressSearch, { text: 'Downing Street' });
    expect(f.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(f.json).toEqual(c.json);
  },
  'retrieve-address-unknown-id-server-error': async (clean, faulty) => {
    const unknown = { id: 'GB|NO|SUCH' };
    expect(await statusOf(clean, paths.addressRetrieve, unknown)).toBe(200);
    expect(await statusOf(faulty, paths.addressRetrieve, unknown)).toBe(500);
    const known = await getQ(faulty, paths.addressRetrieve, { id: 'GB|RM|A|10003' });
    expect([known.status, (known.json as J[])[0].key]).toEqual([200, 'GB|RM|A|10003']);
  },
  'register-practitioner-search-requires-filter': requiresFilter(paths.registerPractitioners, { gender: 'female' }),
  'register-role-search-requires-filter': requiresFilter(paths.registerRoles, {
    _include: 'practitioner:location',
    'ages-treated': 'C0',
  }),
  'register-search-defaults-to-bookable': async (clean, faulty) => {
    const all = ids((await getQ(clean, paths.registerPractitioners, { count: '100' })).json);
    const off = ids(
      (await getQ(clean, paths.registerPractitioners, { 'is-onlinebooking-available': 'false', count: '100' })).json,
    );
    expect(off.length).toBeGreaterThan(0);
    expect(all).toEqual(expect.arrayContaining(off));
    const faultyAll = ids((await getQ(faulty, paths.registerPractitioners, { count: '100' })).json);
    expect(faultyAll.filter((i) => off.includes(i))).toEqual([]);
    expect(
      ids(
        (await getQ(faulty, paths.registerPractitioners, { 'is-onlinebooking-available': 'false', count: '100' })).json,
      ),
    ).toEqual(off);
  },
  'recognition-status-display-wrong': async (clean, faulty) => {
    const displays = async (s: TestSandbox) =>
      extensionValues((await getQ(s, paths.registerPractitioners, { count: '100' })).json, 'recognitionstatus').flatMap(
        (v: J) => v.valueCodeableConcept.coding.filter((c: J) => c.code === 'Y').map((c: J) => c.display),
      );
    const c = await displays(clean);
    expect(c.length).toBeGreaterThan(0);
    expect(new Set(c)).toEqual(new Set(['Recognised']));
    expect(new Set(await displays(faulty))).toEqual(new Set(['Approved']));
  },
  'registration-date-iso': async (clean, faulty) => {
    const dates = async (s: TestSandbox) =>
      extensionValues((await getQ(s, paths.registerPractitioners, { count: '100' })).json, 'registrationdate').map(
        (v: J) => v.valueString,
      );
    const c = await dates(clean);
    expect(c.length).toBeGreaterThan(0);
    for (const d of c) expect(d).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    expect(await dates(faulty)).toEqual(c.map((d) => d.split('.').reverse().join('-')));
  },
  'recognition-status-as-string': async (clean, faulty) => {
    const values = async (s: TestSandbox) =>
      extensionValues((await getQ(s, paths.registerPractitioners, { count: '100' })).json, 'recognitionstatus');
    const c = (await values(clean)) as J[];
    expect(c.length).toBeGreaterThan(0);
    expect(await values(faulty)).toEqual(c.map((v) => ({ valueString: v.valueCodeableConcept.coding[0].code })));
  },
  'photo-keyed-by-regulator-reference': async (clean, faulty) => {
    const c = await clean.get(paths.photo('PR-0001'));
    expect([c.status, typeOf(c)]).toEqual([200, 'Parameters']);
    const f = await faulty.get(paths.photo('PR-0001'));
    expect([f.status, errorCode(f.json)]).toEqual([422, 'MSG_REFERENCE_ID_NOT_FOUND']);
    // The regulator reference 4.9 shows for PR-0001 answers its photo.
    const [practitioner] = resources((await getQ(faulty, paths.registerPractitioners, { count: '1' })).json) as J[];
    expect(practitioner.id).toBe('PR-0001');
    const reference = extensionValues(practitioner, 'regulatorreference')[0] as J;
    const byReference = await faulty.get(paths.photo(reference.valueString));
    expect([byReference.status, (byReference.json as J).parameter]).toEqual([200, (c.json as J).parameter]);
    expect((await clean.get(paths.photo(reference.valueString))).status).toBe(422);
  },
  'photo-as-binary': async (clean, faulty) => {
    const c = await clean.get(paths.photo('PR-0001'));
    expect(typeOf(c)).toBe('Parameters');
    const f = await faulty.get(paths.photo('PR-0001'));
    expect([f.status, typeOf(f), (f.json as J).parameter]).toEqual([200, 'Binary', undefined]);
    expect((f.json as J).data).toBe((c.json as J).parameter[0].valueAttachment.data);
  },
  'distance-sort-from-swapped-point': async (clean, faulty) => {
    const at = new Map<string, J>();
    const order = async (s: TestSandbox, direction: string) => {
      const a = await getQ(s, paths.registerRoles, {
        near: `${AT}:50:km`,
        _sort: `distance:${direction}`,
        _include: 'practitioner:location',
        count: '100',
      });
      for (const e of entriesOf(a.json, 'Location')) at.set(`Location/${e.resource.id}`, e.resource.position);
      return entriesOf(a.json, 'PractitionerRole').map((e) => e.resource);
    };
    const km = (role: J) => distanceKm(CENTRE, at.get(role.location[0].reference));
    for (const direction of ['asc', 'desc']) {
      const c = await order(clean, direction);
      const f = await order(faulty, direction);
      expect(c.length).toBeGreaterThan(2);
      const sorted = [...c].sort((a, b) => (direction === 'asc' ? km(a) - km(b) : km(b) - km(a)));
      expect(c.map(km)).toEqual(sorted.map(km));
      expect(new Set(f.map((r: J) => r.id))).toEqual(new Set(c.map((r: J) => r.id)));
      expect(f.map(km)).not.toEqual(c.map(km));
    }
  },
  'register-onlinebooking-filter-reversed': bookableReversed(paths.registerPractitioners, 'Practitioner'),
  'role-onlinebooking-filter-reversed': bookableReversed(paths.registerRoles, 'PractitionerRole', true),
  'register-profession-filter-read-as-specialty': filterBroken(
    paths.registerPractitioners,
    'Practitioner',
    'profession',
    'profession',
  ),
  'register-specialty-filter-read-as-subspecialty': filterBroken(
    paths.registerPractitioners,
    'Practitioner',
    'specialty',
    'specialty',
  ),
  'register-subspecialty-filter-read-as-specialty': filterBroken(
    paths.registerPractitioners,
    'Practitioner',
    'subspecialty',
    'subspecialty',
  ),
  'register-insurer-recognition-status-filter-read-as-insurer': filterBroken(
    paths.registerPractitioners,
    'Practitioner',
    'insurer-recognition-status',
    'recognitionstatus',
  ),
  'register-insurer-provider-number-filter-read-as-regulator-reference': filterBroken(
    paths.registerPractitioners,
    'Practitioner',
    'insurer-provider-number',
    'insurerprovidercode',
  ),
  'register-insurer-filter-read-as-insurer-provider-number': filterBroken(
    paths.registerPractitioners,
    'Practitioner',
    'insurer',
    'insurer',
  ),
  'register-regulator-reference-filter-read-as-insurer-provider-number': filterBroken(
    paths.registerPractitioners,
    'Practitioner',
    'regulator-reference',
    'regulatorreference',
  ),
  'role-ages-treated-filter-read-as-specialty': filterBroken(
    paths.registerRoles,
    'PractitionerRole',
    'ages-treated',
    'agestreated',
    true,
  ),
  'role-subspecialty-filter-read-as-specialty': filterBroken(
    paths.registerRoles,
    'PractitionerRole',
    'subspecialty',
    'subspecialty',
    true,
  ),
  'role-profession-filter-read-as-specialty': filterBroken(
    paths.registerRoles,
    'PractitionerRole',
    'profession',
    'profession',
    true,
  ),
  'booking-practitioner-get-other-record': async (clean, faulty) => {
    expect(ids((await clean.get(paths.bookingPractitioner('BP-0001'))).json)).toEqual(['BP-0001']);
    const f = await faulty.get(paths.bookingPractitioner('BP-0001'));
    expect(f.status).toBe(200);
    expect(ids(f.json)).toHaveLength(1);
    expect(ids(f.json)).not.toEqual(['BP-0001']);
    expect((await faulty.get(paths.bookingPractitioner('NO-SUCH-RECORD-000'))).status).toBe(404);
  },
  'booking-practitioner-get-bare-resource': bareResource(paths.bookingPractitioner('BP-0001'), 'Practitioner'),
  'booking-role-get-bare-resource': bareResource(paths.bookingRole('BR-0001'), 'PractitionerRole'),
  'booking-practitioner-search-requires-filter': requiresFilter(paths.bookingPractitioners, { gender: 'female' }),
  'booking-role-search-requires-filter': requiresFilter(paths.bookingRoles, { practitioner: 'BP-0001' }),

  'code-set-page-size-bounds-exclusive': async (clean, faulty) => {
    for (const count of ['1', '1000']) {
      const c = await getQ(clean, paths.codeSet('condition-code'), { count });
      expect([c.status, typeOf(c)]).toEqual([200, 'ValueSet']);
      const f = await getQ(faulty, paths.codeSet('condition-code'), { count });
      expect([f.status, errorCode(f.json)]).toEqual([400, 'MSG_INVALID_FORMAT']);
    }
    expect(await statusOf(faulty, paths.codeSet('condition-code'), { count: '2' })).toBe(200);
    expect(await statusOf(faulty, paths.codeSet('condition-code'), { count: '999' })).toBe(200);
  },
  'code-set-oversized-count-served-empty': async (clean, faulty) => {
    expect(await statusOf(clean, paths.codeSet('condition-code'), { count: '1001' })).toBe(400);
    const f = await getQ(faulty, paths.codeSet('condition-code'), { count: '1001' });
    expect([f.status, (f.json as J).expansion.contains]).toEqual([200, []]);
    expect((f.json as J).expansion.total).toBeGreaterThan(0);
    const served = await getQ(faulty, paths.codeSet('condition-code'), { count: '1000' });
    expect((served.json as J).expansion.contains.length).toBeGreaterThan(0);
  },
  'code-set-unknown-name-server-error': async (clean, faulty) => {
    expect(await statusOf(clean, paths.codeSet('no-such-set'))).toBeLessThan(500);
    expect(await statusOf(faulty, paths.codeSet('no-such-set'))).toBe(500);
    expect(await statusOf(faulty, paths.codeSet('condition-code', 'ICD10'))).toBe(200);
  },
  'location-lookup-page-tag-zero-based': async (clean, faulty) => {
    for (const page of ['1', '2']) {
      const q = { text: 'London', type: 'P', page, count: '1' };
      const c = await getQ(clean, paths.lookupLocations, q);
      const f = await getQ(faulty, paths.lookupLocations, q);
      expect(pagingTag(c, 'page')).toBe(page);
      expect(pagingTag(f, 'page')).toBe(String(Number(page) - 1));
      expect(ids(f.json)).toEqual(ids(c.json));
    }
  },
  'practitioner-lookup-page-end-inclusive': pageEndInclusive(paths.lookupPractitioners, { text: 'Smith' }),
  'location-lookup-page-end-inclusive': pageEndInclusive(paths.lookupLocations, { text: 'London', type: 'P' }),
  'register-practitioner-page-end-inclusive': pageEndInclusive(paths.registerPractitioners, {}),
  'booking-practitioner-page-end-inclusive': pageEndInclusive(paths.bookingPractitioners, {}),
  'booking-role-page-end-inclusive': pageEndInclusive(paths.bookingRoles, {}),
  'control-parameters-missing-insurer-server-error': async (clean, faulty) => {
    expect(await statusOf(clean, paths.controlParameters)).toBeLessThan(500);
    expect(await statusOf(faulty, paths.controlParameters)).toBe(500);
    expect(await statusOf(faulty, paths.controlParameters, { insurerId: 'INS001' })).toBe(200);
  },
  'geocode-unparsed-postcode-server-error': async (clean, faulty) => {
    const bad = { postcode: 'NOT A POSTCODE' };
    expect(await statusOf(clean, paths.geocode, bad)).toBeLessThan(500);
    expect(await statusOf(faulty, paths.geocode, bad)).toBe(500);
    expect(await statusOf(faulty, paths.geocode)).toBe(400);
    expect(await statusOf(faulty, paths.geocode, { postcode: 'SW1A 2AA' })).toBe(
      await statusOf(clean, paths.geocode, { postcode: 'SW1A 2AA' }),
    );
  },
  'address-search-missing-text-empty-array': async (clean, faulty) => {
    expect(await statusOf(clean, paths.addressSearch)).toBe(400);
    const f = await faulty.get(paths.addressSearch);
    expect([f.status, f.json]).toEqual([200, []]);
    expect(await statusOf(faulty, paths.addressSearch, { text: 'Downing Street' })).toBe(200);
  },
  'retrieve-address-missing-id-not-found': async (clean, faulty) => {
    expect(await statusOf(clean, paths.addressRetrieve)).toBe(400);
    const f = await faulty.get(paths.addressRetrieve);
    expect([f.status, errorCode(f.json)]).toEqual([404, 'MSG_NOT_FOUND']);
  },
  'geocode-missing-postcode-unprocessable': async (clean, faulty) => {
    expect(await statusOf(clean, paths.geocode)).toBe(400);
    const f = await faulty.get(paths.geocode);
    expect([f.status, errorCode(f.json)]).toEqual([422, 'MSG_PARAM_INVALID']);
  },
  'photo-unknown-practitioner-placeholder': async (clean, faulty) => {
    const c = await clean.get(paths.photo('NO-SUCH-PRACTITIONER-000'));
    expect(c.status).toBeGreaterThanOrEqual(400);
    expect(c.status).toBeLessThan(500);
    const f = await faulty.get(paths.photo('NO-SUCH-PRACTITIONER-000'));
    expect([f.status, typeOf(f)]).toEqual([200, 'Parameters']);
    expect((await faulty.get(paths.photo('PR-0001'))).json).toEqual((await clean.get(paths.photo('PR-0001'))).json);
  },
  'role-distance-sort-without-near-server-error': async (clean, faulty) => {
    const q = { _sort: 'distance:asc' };
    const c = await statusOf(clean, paths.registerRoles, q);
    expect(c).toBeLessThan(500);
    expect(await statusOf(faulty, paths.registerRoles, q)).toBe(500);
    expect(await statusOf(faulty, paths.registerRoles, { ...q, near: `${AT}:50:km` })).toBe(200);
  },
  'role-insurer-filter-read-as-practitioner': filterBroken(
    paths.registerRoles,
    'PractitionerRole',
    'insurer',
    'insurer',
    true,
  ),
  'booking-site-and-registeredno-filters-swapped': async (clean, faulty) => {
    const sample = resources((await getQ(clean, paths.bookingPractitioners, { count: '50' })).json) as J[];
    const site = String((extension(sample[0], 'site') as J)?.reference ?? '').replace(/^Site\//, '');
    const registered = sample.map((r) => extension(r, 'registeredNumber')).find((v) => typeof v === 'string');
    expect(site).not.toBe('');
    expect(registered).toBeDefined();
    for (const q of [{ site }, { registeredno: registered as string }] as Record<string, string>[]) {
      expect(ids((await getQ(clean, paths.bookingPractitioners, q)).json).length).toBeGreaterThan(0);
      expect(ids((await getQ(faulty, paths.bookingPractitioners, q)).json)).toEqual([]);
    }
  },
  'booking-role-get-unknown-empty-bundle': async (clean, faulty) => {
    const c = await clean.get(paths.bookingRole('NO-SUCH-RECORD-000'));
    expect([c.status, errorCode(c.json)]).toEqual([404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE']);
    const f = await faulty.get(paths.bookingRole('NO-SUCH-RECORD-000'));
    expect([f.status, typeOf(f), resources(f.json)]).toEqual([200, 'Bundle', []]);
    expect(ids((await faulty.get(paths.bookingRole('BR-0001'))).json)).toEqual(['BR-0001']);
  },
  'register-search-lenient-parsing': lenient(paths.registerRoles, [
    { near: 'north:west' },
    { specialty: '' },
    { page: 'abc' },
    { _sort: 'height:asc' },
    { 'is-onlinebooking-available': 'maybe' },
  ]),
  'booking-search-lenient-parsing': lenient(paths.bookingPractitioners, [
    { near: 'north:west' },
    { near: `${AT}:10:ft` },
    { count: 'ten' },
    { family: '' },
  ]),
  'bearer-presence-only': async (clean, faulty) => {
    for (const path of [paths.insurers, withQuery(paths.addressSearch, { text: 'Downing Street' })]) {
      expect((await clean.get(path, { token: 'not-a-known-token-0000' })).status).toBe(401);
      expect((await faulty.get(path, { token: 'not-a-known-token-0000' })).status).toBe(200);
      expect((await faulty.get(path, { token: null })).status).toBe(401);
    }
  },
};

describeRowFaults('Document 2', D2_ROW_FAULTS, SCENARIOS);
