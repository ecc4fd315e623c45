import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLEARING_URL, CLEARING_EXT_URL, REF_URL } from '../resources/urls.ts';
import { TestSandbox, errorCode, extension, ids, paths, resources, tags } from '../testSupport.ts';

type J = any;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await TestSandbox.start();
});
afterAll(() => sb.close());

const summaries = (fields: Record<string, string>, options = {}) => sb.form(paths.summary, fields, options);
const details = (id: string, fields: Record<string, string>, options = {}) =>
  sb.form(paths.detail(id), fields, options);
const allSummaries = async (fields: Record<string, string> = {}): Promise<J[]> => {
  const a = await summaries({ ...fields, count: '100' });
  expect(a.status, a.text).toBe(200);
  return resources(a.json) as J[];
};
const allDetails = async (fields: Record<string, string> = {}, id = 'RS-0001'): Promise<J[]> => {
  const a = await details(id, { ...fields, count: '100' });
  expect(a.status, a.text).toBe(200);
  return resources(a.json) as J[];
};
const money = (r: J, name: string) => (extension(r, name) as J)?.value as number | undefined;
const provider = (r: J) => r.contained.find((o: J) => o.id === r.requestor.reference.slice(1));
const insurer = (r: J) => r.contained.find((o: J) => o.id === r.paymentIssuer.reference.slice(1));

describe('Search Remittance Summary (4.4)', () => {
  test('unfiltered: 48 summaries of SITE001, page 1 of 10 in id order', async () => {
    const a = await summaries({});
    expect(a.status).toBe(200);
    const b: J = a.json;
    expect(b).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 48 });
    expect(tags(b)).toEqual({ page: '1', count: '10', maxCount: '48' });
    expect(ids(b)).toEqual(Array.from({ length: 10 }, (_, k) => `RS-${String(k + 1).padStart(4, '0')}`));
  });

  test('every summary carries the members of 2.4, and every extension appears', async () => {
    const every = await allSummaries();
    expect(every).toHaveLength(48);
    const seen = new Set<string>();
    for (const r of every) {
      expect(r).toMatchObject({
        resourceType: 'PaymentReconciliation',
        created: expect.any(String),
        paymentDate: expect.any(String),
        paymentAmount: { value: expect.any(Number) },
      });
      expect(provider(r).identifier[0].system).toBe(`${REF_URL}/providerIdentifier`);
      expect(insurer(r).identifier[0].system).toBe(`${REF_URL}/insurerIdentifier`);
      expect(provider(r).name).toEqual(expect.any(String));
      expect(r.paymentIdentifier).toEqual({ system: expect.any(String), value: expect.any(String) });
      for (const e of r.extension) {
        expect(e.url.startsWith(`${CLEARING_EXT_URL}/`)).toBe(true);
        seen.add(e.url.slice(CLEARING_EXT_URL.length + 1));
      }
      for (const required of ['processedDate', 'totalInvoiced', 'totalInvoices', 'isExported'])
        expect(extension(r, required), required).toBeDefined();
      if (extension(r, 'paymentMethod') === 'BACS') expect(extension(r, 'sortCode')).toBeDefined();
    }
    expect([...seen].sort()).toEqual(
      [
        'paymentMethod',
        'sortCode',
        'accountNumber',
        'processedDate',
        'amountDue',
        'broughtForwarded',
        'carriedForwarded',
        'totalInvoiced',
        'totalShortfall',
        'totalInvoices',
        'isExported',
      ].sort(),
    );
    expect(new Set(every.map((r) => r.created)).size).toBe(48);
    expect(new Set(every.map((r) => insurer(r).identifier[0].value)).size).toBe(9);
    expect(new Set(every.map((r) => provider(r).identifier[0].value)).size).toBeGreaterThanOrEqual(6);
  });

  test.each(['bup', 'bui', 'ppp', 'nuh', 'slh', 'cin', 'tih', 'wpa', 'pzo'])(
    'insurerIdentifier=%s keeps only that payor',
    async (code) => {
      const found = await allSummaries({ insurerIdentifier: code });
      expect(found.length).toBeGreaterThan(0);
      for (const r of found) expect(insurer(r).identifier[0].value).toBe(code);
    },
  );

  test('provider matches a code, or part of a name ignoring case (DEC-D1-26)', async () => {
    const byCode = await allSummaries({ provider: 'prv001' });
    expect(byCode.length).toBeGreaterThan(0);
    for (const r of byCode) expect(provider(r).identifier[0].value).toBe('PRV001');
    const byName = await allSummaries({ provider: 'harley street' });
    expect(byName.map((r) => r.id)).toEqual(byCode.map((r) => r.id));
  });

  test('invoiceNumber, patientName and membershipNumber look into the details', async () => {
    expect((await allSummaries({ invoiceNumber: 'INV-0001-01' })).map((r) => r.id)).toEqual(['RS-0001']);
    const d = (await allDetails())[0];
    const member = d.contained[0].identifier[0].value;
    expect((await allSummaries({ membershipNumber: member })).map((r) => r.id)).toEqual(['RS-0001']);
    const byPatient = await allSummaries({ patientName: 'walker' });
    expect(byPatient.length).toBeGreaterThan(0);
    expect(byPatient.length).toBeLessThan(48);
  });

  test('dateCreated and datePaid are inclusive date ranges', async () => {
    const created = await allSummaries({ dateCreated: '2025-03-01_2025-05-31' });
    expect(created.length).toBeGreaterThan(0);
    for (const r of created)
      expect(r.created.slice(0, 10) >= '2025-03-01' && r.created.slice(0, 10) <= '2025-05-31').toBe(true);
    const paid = await allSummaries({ datePaid: '2025-06-01_2025-08-31' });
    expect(paid.length).toBeGreaterThan(0);
    for (const r of paid) expect(r.paymentDate >= '2025-06-01' && r.paymentDate <= '2025-08-31').toBe(true);
    const day = created[0].created.slice(0, 10);
    expect((await allSummaries({ dateCreated: `${day}_${day}` })).map((r) => r.id)).toContain(created[0].id);
  });

  test('paymentAmount and amountInvoiced compare with le, ge, eq', async () => {
    const ge = await allSummaries({ paymentAmount: 'ge1500' });
    const le = await allSummaries({ paymentAmount: 'le1500.00' });
    expect(ge.length + le.length).toBeGreaterThanOrEqual(48);
    for (const r of ge) expect(r.paymentAmount.value).toBeGreaterThanOrEqual(1500);
    for (const r of le) expect(r.paymentAmount.value).toBeLessThanOrEqual(1500);
    const one = (await allSummaries())[0];
    expect((await allSummaries({ paymentAmount: `eq${one.paymentAmount.value}` })).map((r) => r.id)).toContain(one.id);
    const inv = await allSummaries({ amountInvoiced: 'ge2000' });
    expect(inv.length).toBeGreaterThan(0);
    for (const r of inv) expect(money(r, 'totalInvoiced')).toBeGreaterThanOrEqual(2000);
  });

  test('insurerPaymentReference, and its example name paymentReference (DEC-D1-01)', async () => {
    const one = (await allSummaries())[2];
    const ref = one.paymentIdentifier.value;
    expect((await allSummaries({ insurerPaymentReference: ref })).map((r) => r.id)).toEqual([one.id]);
    expect((await allSummaries({ paymentReference: ref })).map((r) => r.id)).toEqual([one.id]);
  });

  test('hasShortFall=true keeps shortfalls, excludeExported=true drops exported; false does not restrict', async () => {
    const short = await allSummaries({ hasShortFall: 'true' });
    expect(short.length).toBeGreaterThan(0);
    expect(short.length).toBeLessThan(48);
    for (const r of short) expect(money(r, 'totalShortfall')).toBeGreaterThan(0);
    const kept = await allSummaries({ excludeExported: 'true' });
    expect(kept.length).toBeLessThan(48);
    for (const r of kept) expect(extension(r, 'isExported')).toBe(false);
    expect(await allSummaries({ hasShortFall: 'false', excludeExported: 'false' })).toHaveLength(48);
  });

  test('_since keeps summaries updated at or after it', async () => {
    const found = await allSummaries({ _since: '2025-10-01T00:00:00+00:00' });
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThan(48);
    for (const r of found)
      expect(Date.parse(r.meta.lastUpdated)).toBeGreaterThanOrEqual(Date.parse('2025-10-01T00:00:00Z'));
  });

  test('_sort=createdOn ascends on created; -createdOn descends; providerName is accepted (DEC-D1-04)', async () => {
    const asc = (await allSummaries({ _sort: 'createdOn' })).map((r) => Date.parse(r.created));
    expect(asc).toEqual([...asc].sort((x, y) => x - y));
    const desc = (await allSummaries({ _sort: '-createdOn' })).map((r) => Date.parse(r.created));
    expect(desc).toEqual([...asc].reverse());
    const byProvider = (await allSummaries({ _sort: 'providerName' })).map((r) => provider(r).name.toLowerCase());
    expect(byProvider).toEqual([...byProvider].sort());
    const first = (await summaries({ _sort: '-createdOn', count: '3' })).json;
    expect(ids(first)).toHaveLength(3);
  });

  test('paging: pages do not overlap, total is stable, a page past the end is empty', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const b: J = (await summaries({ count: '13', page: String(page), _sort: '-createdOn' })).json;
      expect(tags(b)).toEqual({ page: String(page), count: '13', maxCount: '48' });
      expect(b.total).toBe(48);
      seen.push(...ids(b));
    }
    expect(new Set(seen).size).toBe(48);
    const past: J = (await summaries({ page: '6' })).json;
    expect(past.entry).toEqual([]);
    expect(tags(past).page).toBe('6');
  });

  test.each([
    [{ insurerIdentifier: '' }, 400, 'MSG_PARAM_EMPTY'],
    [{ provider: ' ' }, 400, 'MSG_PARAM_EMPTY'],
    [{ _sort: '' }, 400, 'MSG_PARAM_EMPTY'],
    [{ insurerIdentifier: 'axa' }, 422, 'MSG_PARAM_INVALID'],
    [{ _sort: 'created' }, 422, 'MSG_PARAM_INVALID'],
    [{ dateCreated: '2025-01-01' }, 422, 'MSG_INVALID_FORMAT'],
    [{ datePaid: '2025-01-01_2025-13-01' }, 422, 'MSG_INVALID_FORMAT'],
    [{ paymentAmount: 'gt100' }, 422, 'MSG_INVALID_FORMAT'],
    [{ paymentAmount: 'ge 100' }, 422, 'MSG_INVALID_FORMAT'],
    [{ paymentAmount: 'ge-5' }, 422, 'MSG_INVALID_FORMAT'],
    [{ amountInvoiced: 'le1.234' }, 422, 'MSG_INVALID_FORMAT'],
    [{ hasShortFall: 'yes' }, 422, 'MSG_INVALID_FORMAT'],
    [{ excludeExported: '1' }, 422, 'MSG_INVALID_FORMAT'],
    [{ _since: '2025-13-01' }, 422, 'MSG_INVALID_FORMAT'],
    [{ count: '-1' }, 422, 'MSG_INVALID_FORMAT'],
    [{ page: '0' }, 422, 'MSG_INVALID_FORMAT'],
  ])('%o is refused with %i %s', async (fields, status, code) => {
    const a = await summaries(fields as Record<string, string>);
    expect(a.status).toBe(status);
    expect(errorCode(a.json)).toBe(code);
    expect((a.json as J).resourceType).toBe('OperationOutcome');
  });

  test('feature-gated fields need the features; a client without them gets 422 (DEC-D1-15)', async () => {
    const basic = await sb.token('sandbox-basic');
    for (const field of [
      'provider',
      'invoiceNumber',
      'patientName',
      'membershipNumber',
      'dateCreated',
      'datePaid',
      'paymentAmount',
      'amountInvoiced',
      'insurerPaymentReference',
      'hasShortFall',
      'excludeExported',
    ]) {
      const value = field.startsWith('date')
        ? '2025-01-01_2025-12-31'
        : field === 'paymentAmount' || field === 'amountInvoiced'
          ? 'ge1'
          : field === 'hasShortFall' || field === 'excludeExported'
            ? 'true'
            : 'x';
      const a = await summaries({ [field]: value }, { token: basic });
      expect(a.status, field).toBe(422);
      expect(errorCode(a.json)).toBe('MSG_PARAM_INVALID');
    }
    const open = await summaries(
      { insurerIdentifier: 'bup', _sort: 'createdOn', _since: '2025-01-01', page: '1', count: '5' },
      { token: basic },
    );
    expect(open.status).toBe(200);
  });

  test('site isolation: SITE001 never sees SITE002 summaries and vice versa', async () => {
    const mine = await allSummaries();
    expect(mine.some((r) => r.id.startsWith('RS-09'))).toBe(false);
    const other = await sb.token('sandbox-other');
    const theirs: J = (await summaries({ count: '100' }, { token: other, site: 'SITE002' })).json;
    expect(ids(theirs)).toEqual(['RS-0901', 'RS-0902', 'RS-0903']);
    expect((await summaries({}, { site: 'SITE002' })).status).toBe(403);
  });

  test('token, site and content type are enforced', async () => {
    expect(errorCode((await summaries({}, { token: null })).json)).toBe('MSG_UNAUTHORIZED');
    expect((await summaries({}, { site: null })).status).toBe(400);
    expect((await summaries({}, { headers: { 'content-type': 'text/plain' } })).status).toBe(400);
  });
});

describe('Search Remittance Detail (4.5)', () => {
  test('RS-0001 has 15 details in id order with the members of 2.5', async () => {
    const a = await details('RS-0001', {});
    expect(a.status).toBe(200);
    const b: J = a.json;
    expect(b).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 15 });
    expect(tags(b)).toEqual({ page: '1', count: '10', maxCount: '15' });
    const every = await allDetails();
    expect(every.map((r) => extension(r, 'invoiceNumber'))).toEqual(
      Array.from({ length: 15 }, (_, k) => `INV-0001-${String(k + 1).padStart(2, '0')}`),
    );
    const seen = new Set<string>();
    for (const r of every) {
      expect(r.resourceType).toBe('ClaimResponse');
      expect(r.patient.reference).toBe(`#${r.contained[0].id}`);
      expect(r.contained[0].identifier[0].system).toBe(`${CLEARING_URL}/membershipNumber`);
      const systems = r.identifier.map((i: J) => i.system);
      expect(systems).toContain(`${CLEARING_URL}/insurerBillNumber`);
      expect(systems).toContain(`${CLEARING_URL}/hospitalNumber`);
      for (const e of r.extension) seen.add(e.url.slice(CLEARING_EXT_URL.length + 1));
      for (const adj of r.item.flatMap((i: J) => i.adjudication)) {
        expect(adj).toMatchObject({
          category: { coding: [{ system: `${CLEARING_URL}/adjudication` }] },
          reason: { text: expect.any(String) },
          amount: { value: expect.any(Number) },
        });
        expect(adj.extension[0].url).toBe(`${CLEARING_EXT_URL}/liabilityType`);
      }
    }
    expect([...seen].sort()).toEqual(
      [
        'invoiceNumber',
        'invoiceDate',
        'invoiceTotal',
        'paidAmount',
        'previousPaidAmount',
        'shortAmount',
        'collectionService',
        'dateCompleted',
        'createdOn',
      ].sort(),
    );
    expect(every.some((r) => r.contained[0].name === undefined)).toBe(true);
    expect(every.some((r) => r.contained[0].name?.[0].prefix.length > 0)).toBe(true);
    expect(new Set(every.map((r) => extension(r, 'createdOn'))).size).toBe(15);
  });

  test('string filters match one detail', async () => {
    const every = await allDetails();
    const d = every[3];
    const ident = (sys: string) => d.identifier.find((i: J) => i.system.endsWith(sys)).value;
    for (const [field, value] of [
      ['invoiceNumber', extension(d, 'invoiceNumber') as string],
      ['membershipNumber', d.contained[0].identifier[0].value],
      ['hospitalNumber', ident('/hospitalNumber')],
      ['insurerBillNumber', ident('/insurerBillNumber')],
    ]) {
      expect(
        (await allDetails({ [field]: value })).map((r) => r.id),
        field,
      ).toEqual([d.id]);
    }
    const named = await allDetails({ patientName: 'PATEL' });
    expect(named.length).toBeGreaterThan(0);
    for (const r of named) expect(r.contained[0].name[0].family).toBe('Patel');
  });

  test('invoiceDate range, invoiceTotal comparator, hasShortFall, _since', async () => {
    const every = await allDetails();
    const day = extension(every[0], 'invoiceDate') as string;
    const onDay = await allDetails({ invoiceDate: `${day}_${day}` });
    expect(onDay.map((r) => r.id)).toContain(every[0].id);
    for (const r of onDay) expect(extension(r, 'invoiceDate')).toBe(day);
    const big = await allDetails({ invoiceTotal: 'ge500' });
    expect(big.length).toBeGreaterThan(0);
    expect(big.length).toBeLessThan(15);
    for (const r of big) expect(money(r, 'invoiceTotal')).toBeGreaterThanOrEqual(500);
    const short = await allDetails({ hasShortFall: 'true' });
    expect(short.length).toBeGreaterThan(0);
    expect(short.length).toBeLessThan(15);
    for (const r of short) expect(money(r, 'shortAmount')).toBeGreaterThan(0);
    const sorted = every.map((r) => r.meta.lastUpdated).sort();
    const since = sorted[7];
    const recent = await allDetails({ _since: since });
    expect(recent).toHaveLength(8);
  });

  test('_sort=createdOn / -createdOn order on extension createdOn; invoiceTotal accepted', async () => {
    const asc = (await allDetails({ _sort: 'createdOn' })).map((r) => Date.parse(extension(r, 'createdOn') as string));
    expect(asc).toEqual([...asc].sort((x, y) => x - y));
    const desc = (await allDetails({ _sort: '-createdOn' })).map((r) =>
      Date.parse(extension(r, 'createdOn') as string),
    );
    expect(desc).toEqual([...asc].reverse());
    const totals = (await allDetails({ _sort: '-invoiceTotal' })).map((r) => money(r, 'invoiceTotal') as number);
    expect(totals).toEqual([...totals].sort((x, y) => y - x));
  });

  test('paging over 15 details', async () => {
    const p2: J = (await details('RS-0001', { count: '10', page: '2' })).json;
    expect(p2.entry).toHaveLength(5);
    expect(tags(p2)).toEqual({ page: '2', count: '10', maxCount: '15' });
    expect((await details('RS-0001', { page: '3' })).json).toMatchObject({ entry: [], total: 15 });
  });

  test("an unknown summary id, or another site's, is 422 MSG_PARAM_INVALID (DEC-D1-28)", async () => {
    for (const id of ['RS-9999', 'RS-0901']) {
      const a = await details(id, {});
      expect(a.status).toBe(422);
      expect(errorCode(a.json)).toBe('MSG_PARAM_INVALID');
    }
  });

  test('a missing summary id is 400 MSG_MISSING_MANDATORY_PARAM', async () => {
    for (const path of ['/remittance/detail/search', '/remittance/detail/search/']) {
      const a = await sb.form(path, {});
      expect(a.status, path).toBe(400);
      expect(errorCode(a.json)).toBe('MSG_MISSING_MANDATORY_PARAM');
    }
  });

  test.each([
    [{ invoiceNumber: '' }, 400, 'MSG_PARAM_EMPTY'],
    [{ hasShortFall: '' }, 400, 'MSG_PARAM_EMPTY'],
    [{ invoiceTotal: 'ge' }, 422, 'MSG_INVALID_FORMAT'],
    [{ invoiceDate: '2025-01-01_' }, 422, 'MSG_INVALID_FORMAT'],
    [{ _sort: 'patientName' }, 422, 'MSG_PARAM_INVALID'],
    [{ count: 'ten' }, 422, 'MSG_INVALID_FORMAT'],
  ])('%o is refused with %i %s', async (fields, status, code) => {
    const a = await details('RS-0001', fields as Record<string, string>);
    expect(a.status).toBe(status);
    expect(errorCode(a.json)).toBe(code);
  });

  test('gated fields need Advanced_Filtering_And_Sorting_1_0; hasShortFall and _sort do not', async () => {
    const basic = await sb.token('sandbox-basic');
    const gated = await details('RS-0001', { invoiceNumber: 'INV-0001-01' }, { token: basic });
    expect(gated.status).toBe(422);
    expect(errorCode(gated.json)).toBe('MSG_PARAM_INVALID');
    const open = await details('RS-0001', { hasShortFall: 'true', _sort: 'createdOn' }, { token: basic });
    expect(open.status).toBe(200);
  });

  test('token and site are enforced', async () => {
    expect((await details('RS-0001', {}, { token: null })).status).toBe(401);
    expect((await details('RS-0001', {}, { site: null })).status).toBe(400);
    expect((await details('RS-0001', {}, { site: 'SITE002' })).status).toBe(403);
  });
});
