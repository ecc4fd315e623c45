import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { TestSandbox, errorCode, ids, paths, tags } from '../testSupport.ts';

type J = any;

// A fresh sandbox per test: acknowledging changes state.
let sb: TestSandbox;
beforeEach(async () => {
  sb = await TestSandbox.start();
});
afterEach(() => sb.close());

const SITE1 = ['BATCH-1001', 'BATCH-1002', 'BATCH-1003', 'BATCH-1004', 'BATCH-1005', 'BATCH-1006'];

describe('List Pending Remittances (4.6)', () => {
  test("a collection of the token site's batch headers with maxRecords", async () => {
    const a = await sb.get(paths.batches, { headers: { 'content-type': 'application/fhir+json' } });
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    const b: J = a.json;
    expect(b).toMatchObject({ resourceType: 'Bundle', type: 'collection', total: 6 });
    expect(tags(b)).toEqual({ page: '1', count: '10', maxRecords: '6' });
    expect(ids(b)).toEqual(SITE1);
    for (const e of b.entry) {
      expect(Object.keys(e.resource).sort()).toEqual(['id', 'resourceType', 'timestamp']);
      expect(e.resource.resourceType).toBe('Bundle');
      expect(e.resource.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    }
  });

  test('the GET works without the documented content-type header (DEC-D1-16)', async () => {
    expect((await sb.get(paths.batches)).status).toBe(200);
  });

  test('page and count page through the headers', async () => {
    const p1: J = (await sb.get(`${paths.batches}?count=4`)).json;
    const p2: J = (await sb.get(`${paths.batches}?count=4&page=2`)).json;
    expect(ids(p1)).toEqual(SITE1.slice(0, 4));
    expect(ids(p2)).toEqual(SITE1.slice(4));
    expect(tags(p2)).toEqual({ page: '2', count: '4', maxRecords: '6' });
    expect((await sb.get(`${paths.batches}?page=3&count=4`)).json).toMatchObject({ entry: [], total: 6 });
  });

  test('bad paging values are 400 MSG_INVALID_FORMAT', async () => {
    const a = await sb.get(`${paths.batches}?count=abc`);
    expect(a.status).toBe(400);
    expect(errorCode(a.json)).toBe('MSG_INVALID_FORMAT');
  });

  test('site isolation: SITE002 lists only its own batches', async () => {
    const other = await sb.token('sandbox-other');
    expect(ids((await sb.get(paths.batches, { token: other })).json)).toEqual(['BATCH-2001', 'BATCH-2002']);
  });

  test('no token, or an unknown one, is 401', async () => {
    for (const token of [null, 'forged']) {
      const a = await sb.get(paths.batches, { token });
      expect(a.status).toBe(401);
      expect(errorCode(a.json)).toBe('MSG_UNAUTHORIZED');
      expect(a.headers.get('www-authenticate')).toBe('Bearer');
    }
  });
});

describe('Get Remittance Details (4.7)', () => {
  test('every batch carries the fields of 2.6', async () => {
    const statuses = new Set<string>();
    let shortPay = 0;
    let shortPayEx = 0;
    for (const id of SITE1) {
      const a = await sb.get(paths.batch(id));
      expect(a.status).toBe(200);
      expect(a.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
      const b: J = a.json;
      statuses.add('status' in b ? String(b.status) : 'absent');
      expect(b).toMatchObject({
        msgId: expect.any(String),
        msgIssueDate: expect.any(String),
        msgSender: expect.any(String),
        msgRecipient: 'SITE001',
      });
      expect(b.providers.length).toBeGreaterThan(0);
      for (const p of b.providers) {
        expect(p.providerNo).toEqual({ id: expect.any(String), scheme: expect.any(String) });
        expect(p.paymentDetails).toMatchObject({
          paymentReference: expect.any(String),
          amountPaid: expect.any(Number),
          paymentMethod: expect.stringMatching(/^(Cheque|BACS)$/),
        });
        if (p.paymentDetails.paymentMethod === 'BACS')
          expect(p.paymentDetails.bankSortCode).toEqual(expect.any(String));
        expect(p.claims.map((c: J) => c.cuid)).toEqual(
          p.claims.map((_: J, k: number) => ({ id: String(k + 1), scope: 'Provider' })),
        );
        for (const c of p.claims) {
          expect(typeof c.claimAmount).toBe('number');
          expect(c.shortPay !== undefined && c.shortPayEx !== undefined).toBe(false);
          expect((c.patientName !== undefined) !== (c.patientNameUnstruct !== undefined)).toBe(true);
          if (c.shortPay) shortPay++;
          if (c.shortPayEx) shortPayEx++;
        }
      }
    }
    expect([...statuses].sort()).toEqual(['LIVE', 'TEST', 'absent', 'null']);
    expect(shortPay).toBeGreaterThan(0);
    expect(shortPayEx).toBeGreaterThan(0);
  });

  test('an unknown id is 404 InvalidId naming the id', async () => {
    const a = await sb.get(paths.batch('BATCH-9999'));
    expect(a.status).toBe(404);
    expect(a.json).toEqual({ code: 'InvalidId', type: 'id', id: 'BATCH-9999' });
  });

  test("another site's batch is an unknown id", async () => {
    const a = await sb.get(paths.batch('BATCH-2001'));
    expect(a.status).toBe(404);
    expect(a.json).toEqual({ code: 'InvalidId', type: 'id', id: 'BATCH-2001' });
    const other = await sb.token('sandbox-other');
    expect(((await sb.get(paths.batch('BATCH-2001'), { token: other })).json as J).msgRecipient).toBe('SITE002');
  });

  test('no token is 401', async () => {
    expect((await sb.get(paths.batch('BATCH-1001'), { token: null })).status).toBe(401);
  });
});

describe('Ack Remittance Receipt (4.8) and the batch state machine (3)', () => {
  test('list, get, ack, gone, ack again', async () => {
    expect(ids((await sb.get(paths.batches)).json)).toContain('BATCH-1003');
    expect((await sb.get(paths.batch('BATCH-1003'))).status).toBe(200);

    const ack = await sb.delete(paths.batch('BATCH-1003'));
    expect(ack.status).toBe(200);
    expect(ack.text).toBe('');
    expect(ack.headers.get('content-type')).toBeNull();

    const listed: J = (await sb.get(paths.batches)).json;
    expect(ids(listed)).toEqual(SITE1.filter((id) => id !== 'BATCH-1003'));
    expect(listed.total).toBe(5);
    expect(tags(listed).maxRecords).toBe('5');

    const get = await sb.get(paths.batch('BATCH-1003'));
    expect(get.status).toBe(404);
    expect(get.json).toEqual({ code: 'InvalidId', type: 'id', id: 'BATCH-1003' });

    const again = await sb.delete(paths.batch('BATCH-1003'));
    expect(again.status).toBe(404);
    expect(again.json).toEqual({ code: 'InvalidId', type: 'id', id: 'BATCH-1003' });
  });

  test('without an ack the batch keeps being listed', async () => {
    await sb.get(paths.batch('BATCH-1001'));
    expect(ids((await sb.get(paths.batches)).json)).toEqual(SITE1);
  });

  test('state belongs to one sandbox instance', async () => {
    const second = await TestSandbox.start();
    try {
      expect((await sb.delete(paths.batch('BATCH-1001'))).status).toBe(200);
      expect(ids((await second.get(paths.batches)).json)).toEqual(SITE1);
    } finally {
      await second.close();
    }
  });

  test("a site cannot acknowledge another site's batch", async () => {
    const a = await sb.delete(paths.batch('BATCH-2001'));
    expect(a.status).toBe(404);
    expect(errorCode(a.json)).toBe('InvalidId');
    const other = await sb.token('sandbox-other');
    expect(ids((await sb.get(paths.batches, { token: other })).json)).toEqual(['BATCH-2001', 'BATCH-2002']);
  });

  test('an ack without an id is 400 MSG_MISSING_MANDATORY_PARAM; without a token 401', async () => {
    const missing = await sb.delete(paths.batches);
    expect(missing.status).toBe(400);
    expect(errorCode(missing.json)).toBe('MSG_MISSING_MANDATORY_PARAM');
    expect((await sb.delete(paths.batch('BATCH-1001'), { token: null })).status).toBe(401);
    expect((await sb.get(paths.batch('BATCH-1001'))).status).toBe(200);
  });
});
