/**
 * Every named fault changes the sandbox's answer where the clean sandbox follows the rule the
 * fault breaks. Each case starts a clean and a faulty sandbox and asserts both sides.
 */
import { describe, expect, test } from 'vitest';
import { TestSandbox, errorCode, extension, ids, paths, resources, tags, type Answer } from '../testSupport.ts';
import { FAULTS, type FaultName } from './catalog.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type J = any;

type Scenario = (clean: TestSandbox, faulty: TestSandbox) => Promise<void>;

const v2Single = { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1980-04-12' };
const v2None = { insurerIdentifier: 'ppp', firstInitial: 'Z', lastName: 'Nobody', dateOfBirth: '1900-01-01' };
const v2Jones = { insurerIdentifier: 'nuh', firstInitial: 'A', lastName: 'Jones', dateOfBirth: '1975-09-30' };
const v1None = { insurerIdentifier: 'bup', membershipNumber: 'BUP999999' };
const createdOf = (a: Answer) => (resources(a.json) as J[]).map((r) => Date.parse(r.created));
const createdOnOf = (a: Answer) => (resources(a.json) as J[]).map((r) => Date.parse(extension(r, 'createdOn') as string));
const isDescending = (xs: number[]) => xs.every((x, k) => k === 0 || xs[k - 1] >= x);
const claimCount = (a: Answer) => (resources(a.json) as J[]).filter((r) => r.resourceType === 'Claim').length;

const SCENARIOS: Record<FaultName, Scenario> = {
  'paging-tag-as-number': async (clean, faulty) => {
    for (const call of [(s: TestSandbox) => s.form(paths.summary, {}), (s: TestSandbox) => s.form(paths.authorisation, {}), (s: TestSandbox) => s.form(paths.detail('RS-0001'), {})]) {
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
    for (const [version, fields] of [['2', v2None], ['1', v1None]] as const) {
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
    expect(extension((await faulty.findMember('1', { insurerIdentifier: 'bup', membershipNumber: 'BUP100001' })).json, 'policyExpired')).toBeUndefined();
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
  'error-body-not-outcome': async (clean, faulty) => {
    for (const [version, fields] of [['2', v2None], ['1', v1None]] as const) {
      expect(((await clean.findMember(version, fields)).json as J).resourceType).toBe('OperationOutcome');
      const f = await faulty.findMember(version, fields);
      expect([f.status, f.json]).toEqual([400, { error: 'NO_MATCH_FOUND' }]);
    }
    expect(((await faulty.form(paths.summary, { insurerIdentifier: '' })).json as J).resourceType).toBe('OperationOutcome');
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
};

describe('named faults change the answer where the clean sandbox keeps the rule', () => {
  test('every catalogued fault has a scenario', () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual(FAULTS.map((f) => f.name).sort());
  });

  test.concurrent.each(FAULTS.map((f) => [f.name] as const))('%s', async (name) => {
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
