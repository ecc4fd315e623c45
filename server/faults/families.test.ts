import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { operations } from '../../spec/operations.ts';
import { loadRequirements } from '../../spec/requirements.ts';
import { type Answer, paths, TestSandbox } from '../testSupport.ts';
import { ActiveFaults, FAULTS, isFaultName } from './catalog.ts';
import { DERIVED_FAULT_HEADER } from './derived.ts';
import {
  ascendingOf,
  FAULT_FAMILIES,
  familyFaultInfo,
  familyFaults,
  familyFaultsOf,
  rowOfFamilyKind,
  textNamesToken,
  UNLISTED_CODE,
} from './families.ts';

const info = (name: string) => {
  const f = familyFaultInfo(name);
  if (!f) throw new Error(`No family fault ${name}`);
  return f;
};
const marks = (a: Answer) => (a.headers.get(DERIVED_FAULT_HEADER) ?? '').split(/,\s*/).filter((m) => m !== '');
type Json = Record<string, unknown> & { entry?: { resource: { id: string } }[] };
const ids = (a: Answer) => ((a.json as Json).entry ?? []).map((e) => e.resource.id);

describe('fault families derived from the operation table', () => {
  test('are named deterministically and uniquely, apart from the hand-written catalogue', () => {
    const names = familyFaults().map((f) => f.name);
    expect(names.length).toBeGreaterThan(300);
    expect(new Set(names).size).toBe(names.length);
    expect(operations.flatMap((o) => familyFaultsOf(o.id).map((f) => f.name))).toEqual(names);
    for (const f of familyFaults()) {
      expect(f.name).toBe(`family:${f.family}:${f.operations[0]}${f.subject === undefined ? '' : `:${f.subject}`}`);
      expect(familyFaultInfo(f.name)).toBe(f);
      expect(isFaultName(f.name)).toBe(true);
    }
    const hand = new Set(FAULTS.map((f) => f.name));
    expect(names.filter((n) => hand.has(n))).toEqual([]);
    expect(new Set(familyFaults().map((f) => f.family))).toEqual(new Set(FAULT_FAMILIES));
    expect(isFaultName('family:filter-ignored:search-authorisation:nope')).toBe(false);
  });

  test('each family fits the operations whose row describes its rule', () => {
    const of = (op: string) => familyFaultsOf(op).map((f) => f.name);
    // Every optional query or form parameter is a filter but paging, `_sort` and a hint.
    expect(of('search-authorisation')).toContain('family:filter-ignored:search-authorisation:membershipNumber');
    expect(of('search-authorisation')).not.toContain('family:filter-ignored:search-authorisation:page');
    expect(of('find-member-v2')).not.toContain('family:filter-ignored:find-member-v2:lastName'); // required
    expect(of('revoke-token')).not.toContain('family:filter-ignored:revoke-token:token_type_hint');
    // A descending sort value, page and count parameters, paging tags.
    expect(of('search-authorisation')).toEqual(
      expect.arrayContaining([
        'family:sort-one-direction:search-authorisation',
        'family:page-ignored:search-authorisation',
        'family:count-ignored:search-authorisation',
        'family:page-overlap:search-authorisation',
        'family:page-skip:search-authorisation',
      ]),
    );
    expect(of('get-bill').some((n) => /sort|page|count/.test(n))).toBe(false);
    // Headers: the token where enforced, the site, the version header.
    expect(of('find-member-v1')).toEqual(
      expect.arrayContaining([
        'family:bearer-not-enforced:find-member-v1',
        'family:site-header-ignored:find-member-v1',
        'family:header-ignored:find-member-v1:SVC-API-Version',
      ]),
    );
    expect(of('diary-post-auth').some((n) => n.includes('bearer'))).toBe(false);
    // Error tables: a code outside the table needs a table of codes; a status swap needs a code the
    // table ties to one status and another status in the table.
    expect(of('find-member-v1')).toContain('family:code-unlisted:find-member-v1');
    expect(of('find-member-v1')).toContain('family:status-swapped:find-member-v1');
    expect(of('get-remittance-details')).not.toContain('family:status-swapped:get-remittance-details');
    expect(of('introspect')).not.toContain('family:code-unlisted:introspect');
    expect(ascendingOf('-createdOn')).toBe('createdOn');
    expect(ascendingOf('name:desc')).toBe('name:asc');
  });

  test('ActiveFaults resolves a family name to its one operation', () => {
    const active = new ActiveFaults(['family:success-as-5xx:get-code-set']);
    expect(active.for(['get-code-set'])).toHaveLength(1);
    expect(active.for(['lookup-locations'])).toHaveLength(0);
  });

  test('a family credits only rows of its operation and of the kind it breaks', () => {
    const rows = new Map(loadRequirements('server').map((r) => [r.id, r] as const));
    const row = (id: string) => rows.get(id) as { text: string; operations: string[] };
    const filter = info('family:filter-ignored:find-member-v1:membershipNumber');
    const made = (text: string, ops = ['find-member-v1']) => ({ text, operations: ops });
    expect(rowOfFamilyKind(filter, made('The Coverage answered has the `membershipNumber` asked for.'))).toBe(true);
    expect(rowOfFamilyKind(filter, made('The Coverage carries its `status`.'))).toBe(false);
    expect(rowOfFamilyKind(filter, made('`membershipNumber` is echoed.', ['find-member-v2']))).toBe(false);
    const success = info('family:success-as-5xx:ack-remittance');
    expect(rowOfFamilyKind(success, row('D1-4.8-02'))).toBe(true);
    expect(rowOfFamilyKind(info('family:success-as-5xx:search-authorisation'), row('D1-4.3-02'))).toBe(true);
    expect(rowOfFamilyKind(success, row('D1-4.8-01'))).toBe(false);
    expect(rowOfFamilyKind(success, made('An unknown id is refused with 404 InvalidId.', ['ack-remittance']))).toBe(
      false,
    );
    const accepted = info('family:refusal-accepted:find-member-v1');
    expect(rowOfFamilyKind(accepted, made('No match gives HTTP 400 NO_MATCH_FOUND.'))).toBe(true);
    expect(rowOfFamilyKind(accepted, made('The Coverage carries its `status`.'))).toBe(false);
    const bearer = info('family:bearer-not-enforced:find-member-v1');
    expect(rowOfFamilyKind(bearer, made('A request without a bearer token is refused with HTTP 401.'))).toBe(true);
    // Rows the family-fault weighing (familyWeighing.ts) found of the kind but not credited.
    expect(rowOfFamilyKind(info('family:success-as-5xx:get-remittance-details'), row('D1-4.7-02'))).toBe(true);
    expect(rowOfFamilyKind(info('family:success-as-5xx:delete-condition'), row('D3-4.4-18'))).toBe(true);
    expect(rowOfFamilyKind(info('family:refusal-as-5xx:upsert-payor'), row('D3-4.5-19'))).toBe(true);
    expect(rowOfFamilyKind(info('family:refusal-accepted:upsert-payor'), row('D3-4.5-19'))).toBe(false);
    expect(rowOfFamilyKind(info('family:filter-ignored:get-effective-prices:service-code'), row('D3-7-44'))).toBe(true);
    expect(textNamesToken('`page` and `count`', 'page')).toBe(true);
    expect(textNamesToken('pageNumber', 'page')).toBe(false);
  });
});

describe('family faults change and mark the answers of their operation', () => {
  let clean: TestSandbox;
  let faulty: TestSandbox;
  const names = [
    'family:filter-ignored:find-member-v1:membershipNumber',
    'family:sort-one-direction:search-authorisation',
    'family:refusal-accepted:get-remittance-details',
    'family:code-unlisted:get-bill',
    'family:success-as-5xx:search-bills',
    'family:header-ignored:find-member-v1:SVC-API-Version',
  ];
  beforeAll(async () => {
    [clean, faulty] = await Promise.all([TestSandbox.start(), TestSandbox.start(names)]);
  });
  afterAll(async () => {
    await Promise.all([clean?.close(), faulty?.close()]);
  });

  test('filter-ignored: the parameter is removed before the handler, only for its operation', async () => {
    const fields = { insurerIdentifier: 'bup', membershipNumber: 'BUP100001' };
    const good = await clean.findMember('1', fields);
    const bad = await faulty.findMember('1', fields);
    expect(good.status).toBe(200);
    expect(bad.status).not.toBe(200);
    expect(marks(bad)).toContain('family:filter-ignored:find-member-v1:membershipNumber');
    // Version 2 shares the route, but not version 1's fault.
    const v2 = { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1982-11-03' };
    const other = await faulty.findMember('2', v2);
    expect(other.status).toBe((await clean.findMember('2', v2)).status);
    expect(marks(other).filter((m) => m.includes('filter-ignored'))).toEqual([]);
  });

  test('header-ignored: a request without the version header is served as its version', async () => {
    const fields = { insurerIdentifier: 'bup', membershipNumber: 'BUP100001' };
    expect((await clean.findMember(null, fields)).status).toBeGreaterThanOrEqual(400);
    const bad = await faulty.findMember(null, fields);
    expect(marks(bad)).toContain('family:header-ignored:find-member-v1:SVC-API-Version');
  });

  test('sort-one-direction: the descending sort is served ascending', async () => {
    const asc = await clean.form(paths.authorisation, { _sort: 'issueDate', count: '100' });
    const desc = await clean.form(paths.authorisation, { _sort: '-issueDate', count: '100' });
    const bad = await faulty.form(paths.authorisation, { _sort: '-issueDate', count: '100' });
    expect(ids(asc)).not.toEqual(ids(desc));
    expect(ids(bad)).toEqual(ids(asc));
    expect(marks(bad)).toContain('family:sort-one-direction:search-authorisation');
    // The ascending request is left alone and unmarked.
    expect(marks(await faulty.form(paths.authorisation, { _sort: 'issueDate', count: '100' }))).toEqual([]);
  });

  test('refusal-accepted, code-unlisted, success-as-5xx: statuses and codes of the table changed', async () => {
    const accepted = await faulty.get(paths.batch('NO-SUCH-BATCH'));
    expect((await clean.get(paths.batch('NO-SUCH-BATCH'))).status).toBe(404);
    expect(accepted.status).toBe(200);
    expect(marks(accepted)).toContain('family:refusal-accepted:get-remittance-details');
    const unlisted = await faulty.get(paths.bill('NO-SUCH-BILL', 'false'));
    expect(unlisted.status).toBe(404);
    expect(unlisted.text).toContain(UNLISTED_CODE);
    expect(unlisted.text).not.toContain('MSG_ENTITY_NOT_FOUND');
    const failed = await faulty.get(`${paths.bills}?insurerid=bup`);
    expect(failed.status).toBe(500);
    expect(marks(failed)).toEqual(['family:success-as-5xx:search-bills']);
    // An answer the fault does not concern is neither changed nor marked.
    const served = await faulty.get(paths.bill('BILL-0001', 'false'));
    expect(served.status).toBe(200);
    expect(marks(served)).toEqual([]);
  });

  test('page-overlap and page-skip: page n starts one record early or late', async () => {
    const s = await TestSandbox.start(['family:page-overlap:search-authorisation']);
    const t = await TestSandbox.start(['family:page-skip:search-authorisation']);
    try {
      const all = ids(await clean.form(paths.authorisation, { count: '100' }));
      expect(all.length).toBeGreaterThanOrEqual(4);
      const early = await s.form(paths.authorisation, { page: '2', count: '2' });
      const late = await t.form(paths.authorisation, { page: '2', count: '2' });
      expect(ids(early)).toEqual(all.slice(1, 3));
      expect(ids(late)).toEqual(all.slice(3, 5));
      expect(marks(early)).toEqual(['family:page-overlap:search-authorisation']);
      // The paging tags still echo the request.
      expect(JSON.stringify((early.json as Json).meta)).toContain('"code":"page","display":"2"');
      expect(JSON.stringify((early.json as Json).meta)).toContain('"code":"count","display":"2"');
      // Page 1 is left as it is.
      expect(marks(await s.form(paths.authorisation, { page: '1', count: '2' }))).toEqual([]);
    } finally {
      await Promise.all([s.close(), t.close()]);
    }
  });

  test('bearer-not-enforced and site-header-ignored serve what the clean sandbox refuses', async () => {
    const s = await TestSandbox.start([
      'family:bearer-not-enforced:search-authorisation',
      'family:site-header-ignored:search-authorisation',
    ]);
    try {
      expect((await clean.form(paths.authorisation, {}, { token: null })).status).toBe(401);
      const tokenless = await s.form(paths.authorisation, {}, { token: null });
      expect(tokenless.status).toBe(200);
      expect(marks(tokenless)).toContain('family:bearer-not-enforced:search-authorisation');
      expect((await clean.form(paths.authorisation, {}, { site: null })).status).toBeGreaterThanOrEqual(400);
      const siteless = await s.form(paths.authorisation, {}, { site: null });
      expect(siteless.status).toBe(200);
      expect(marks(siteless)).toContain('family:site-header-ignored:search-authorisation');
      expect(marks(await s.form(paths.authorisation, {}))).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
