import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REF_URL } from '../resources/urls.ts';
import { TestSandbox, errorCode, extension, ids, paths, resources } from '../testSupport.ts';

type J = any;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await TestSandbox.start();
});
afterAll(() => sb.close());

const search = (q: Record<string, string>, options = {}) =>
  sb.get(`${paths.bills}?${new URLSearchParams(q).toString()}`, options);
const contained = (bill: J, type: string) => bill.contained.find((r: J) => r.resourceType === type);
const extNames = (r: J, prefix: string) => (r.extension ?? []).map((e: J) => e.url.replace(prefix, '')).sort();

describe('Search Bills (4.11)', () => {
  test('insurerid bup gives a searchset of its bills', async () => {
    const a = await search({ insurerid: 'bup' });
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    const b: J = a.json;
    expect(b).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 5 });
    expect(ids(b)).toEqual(['BILL-0001', 'BILL-0002', 'BILL-0003', 'BILL-0006', 'BILL-0009']);
  });

  test('each bill carries the members of 2.8 (search form)', async () => {
    for (const bill of resources((await search({ insurerid: 'bup' })).json) as J[]) {
      expect(bill.resourceType).toBe('Claim');
      expect(contained(bill, 'Invoice').identifier[0]).toMatchObject({
        id: 'InvoiceNumber',
        system: expect.any(String),
        value: expect.any(String),
      });
      expect(contained(bill, 'Invoice')).toMatchObject({
        date: expect.any(String),
        totalNet: { value: expect.any(Number) },
      });
      expect(contained(bill, 'Practitioner').identifier.map((i: J) => i.id)).toEqual(['GPCode', 'GPPracticeCode']);
      expect(contained(bill, 'Patient').generalPractitioner[0].reference).toBe(
        `#${contained(bill, 'Practitioner').id}`,
      );
      expect(bill.patient.reference).toBe(`#${contained(bill, 'Patient').id}`);
      expect(bill.insurance[0].coverage.reference).toBe(`#${contained(bill, 'Coverage').id}`);
      expect(contained(bill, 'Encounter')).toBeDefined();
      expect(extNames(bill, `${REF_URL}/extension/Claim/`)).toEqual([
        'ClaimStatus',
        'Currency',
        'DoubleInsurance',
        'EventReference',
        'InvoiceReference',
        'IsArchived',
        'PackageDeal',
        'ThirdParty',
      ]);
      expect(extension(bill, 'InvoiceReference')).toEqual({ reference: `#${contained(bill, 'Invoice').id}` });
      expect(bill.total).toEqual({ value: expect.any(Number), code: 'GBP' });
      expect(bill.priority.coding[0].code).toEqual(expect.any(String));
      expect(contained(bill, 'Invoice').extension).toBeUndefined();
    }
  });

  test('membershipNumber, invoiceNumber and cuid narrow the search (DEC-D1-30)', async () => {
    const byMember = resources((await search({ insurerid: 'bup', membershipNumber: 'BUP100001' })).json) as J[];
    expect(byMember.map((b) => b.id)).toEqual(['BILL-0001', 'BILL-0006']);
    for (const b of byMember) expect(contained(b, 'Coverage').subscriberId).toBe('BUP100001');
    const byInvoice = resources((await search({ insurerid: 'bup', invoiceNumber: 'INV-B-0001' })).json) as J[];
    expect(byInvoice.map((b) => b.id)).toEqual(['BILL-0001']);
    expect(contained(byInvoice[0], 'Invoice').identifier[0].value).toBe('INV-B-0001');
    expect(ids((await search({ insurerid: 'bup', cuid: 'CU-00002' })).json)).toEqual(['BILL-0002']);
  });

  test('nothing found is an empty searchset', async () => {
    const a = await search({ insurerid: 'zzz' });
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ type: 'searchset', total: 0, entry: [] });
  });

  test('a missing or empty insurerid is 400 MSG_MISSING_MANDATORY_PARAM (DEC-D1-13)', async () => {
    for (const q of [{}, { insurerid: '' }, { membershipNumber: 'BUP100001' }] as Record<string, string>[]) {
      const a = await search(q);
      expect(a.status).toBe(400);
      expect(errorCode(a.json)).toBe('MSG_MISSING_MANDATORY_PARAM');
    }
  });

  test('no token is 401', async () => {
    expect((await search({ insurerid: 'bup' }, { token: null })).status).toBe(401);
  });
});

describe('Get Bill (4.12)', () => {
  test('BILL-0001 (not archived) in the single form with every extra of 2.8', async () => {
    const a = await sb.get(paths.bill('BILL-0001', 'false'));
    expect(a.status).toBe(200);
    const bill: J = a.json;
    expect(bill.id).toBe('BILL-0001');
    expect(contained(bill, 'Coverage').subscriberId).toBe('BUP100001');
    expect(contained(bill, 'Invoice').identifier[0].value).toBe('INV-B-0001');
    expect(extension(bill, 'IsArchived')).toBe(false);
    expect(extension(bill, 'ClaimStatus')).toBe('Live');
    expect(extNames(bill, `${REF_URL}/extension/Claim/`)).toEqual([
      'ClaimSource',
      'ClaimStatus',
      'Currency',
      'DiagnosisScheme',
      'DoubleInsurance',
      'EventReference',
      'InvoiceReference',
      'IsArchived',
      'PackageDeal',
      'ServiceProvider',
      'ServiceSetting',
      'SignatureRequired',
      'ThirdParty',
    ]);
    const enc = contained(bill, 'Encounter');
    expect(extNames(enc, `${REF_URL}/extension/Encounter/`)).toEqual([
      'FirstAwareDate',
      'FirstGPVisitDate',
      'InpaientNights',
      'Setting',
    ]);
    expect(enc).toMatchObject({
      participant: [expect.anything()],
      period: { start: expect.any(String), end: expect.any(String) },
      diagnosis: [expect.anything()],
      serviceProvider: expect.anything(),
    });
    const inv = contained(bill, 'Invoice');
    expect(extNames(inv, `${REF_URL}/extension/Invoice/`)).toEqual([
      'CompanyPaid',
      'ExcessPaid',
      'FromDate',
      'InvoiceReference',
      'ToDate',
    ]);
    expect(inv).toMatchObject({ totalPriceComponent: [expect.anything()], totalGross: { value: expect.any(Number) } });
  });

  test('BILL-0009 is archived: found with true, not with false', async () => {
    const a = await sb.get(paths.bill('BILL-0009', 'true'));
    expect(a.status).toBe(200);
    expect(extension(a.json, 'IsArchived')).toBe(true);
    const wrong = await sb.get(paths.bill('BILL-0009', 'false'));
    expect(wrong.status).toBe(404);
    expect(errorCode(wrong.json)).toBe('MSG_ENTITY_NOT_FOUND');
    expect((await sb.get(paths.bill('BILL-0001', 'true'))).status).toBe(404);
  });

  test('an unknown id is 404 MSG_ENTITY_NOT_FOUND in an OperationOutcome', async () => {
    const a = await sb.get(paths.bill('BILL-9999', 'false'));
    expect(a.status).toBe(404);
    expect(a.json).toMatchObject({
      resourceType: 'OperationOutcome',
      issue: [{ details: { coding: [{ code: 'MSG_ENTITY_NOT_FOUND' }] } }],
    });
  });

  test.each(['yes', 'TRUE', '1'])('isArchived=%s is 400 MSG_INVALID_FORMAT (DEC-D1-31)', async (value) => {
    const a = await sb.get(paths.bill('BILL-0001', value));
    expect(a.status).toBe(400);
    expect(errorCode(a.json)).toBe('MSG_INVALID_FORMAT');
  });

  test('no token is 401', async () => {
    expect((await sb.get(paths.bill('BILL-0001', 'false'), { token: null })).status).toBe(401);
  });
});
