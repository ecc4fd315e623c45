import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestSandbox, errorCode, paths, resources, tags } from '../testSupport.ts';

type J = any;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await TestSandbox.start();
});
afterAll(() => sb.close());

const claims = (b: unknown): J[] => (resources(b) as J[]).filter((r) => r.resourceType === 'Claim');
const fixture = {
  dateCompleted: '2026-03-14',
  treatmentSiteName: 'St Elsewhere Hospital',
  patientLastName: 'Smith',
  patientDateOfBirth: '1980-04-12',
};
const query = (q: Record<string, string>) => `?${new URLSearchParams(q).toString()}`;

describe('Get Hospital Claims List (4.9)', () => {
  test('every claim, each as an Encounter and a Claim entry (2.7)', async () => {
    const a = await sb.get(paths.hospitalList);
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    const b: J = a.json;
    expect(b).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 24 });
    expect(tags(b)).toEqual({ page: '1', count: '24', maxCount: '24' });
    expect(claims(b)).toHaveLength(12);
    const claimsUrl = `${sb.url}/claims`;
    for (let k = 0; k < b.entry.length; k += 2) {
      const enc = b.entry[k];
      const claim = b.entry[k + 1].resource;
      expect(enc.resource).toMatchObject({
        resourceType: 'Encounter',
        episodeOfCare: [{ extension: [{ url: 'setting', valueString: expect.any(String) }] }],
      });
      expect(enc.fullUrl).toBe(`${claimsUrl}/claim/${claim.id}/encounter/${enc.resource.id}`);
      expect(claim).toMatchObject({
        patient: { display: expect.any(String) },
        insurer: {
          id: expect.any(String),
          identifier: { system: expect.any(String), value: expect.any(String) },
          display: expect.any(String),
        },
        procedure: [{ date: expect.stringMatching(/T/) }],
        item: [{ servicedDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), encounter: [{ id: enc.resource.id }] }],
      });
    }
  });

  test('dateCompleted keeps the claims rendered that day (DEC-D1-29)', async () => {
    const b: J = (await sb.get(`${paths.hospitalList}?dateCompleted=2026-03-14`)).json;
    expect(claims(b)).toHaveLength(3);
    for (const c of claims(b)) expect(c.item[0].servicedDate).toBe('2026-03-14');
    expect((await sb.get(`${paths.hospitalList}?dateCompleted=2020-01-01`)).json).toMatchObject({
      total: 0,
      entry: [],
    });
  });

  test('a date not in yyyy-MM-dd is 400 MSG_INVALID_FORMAT; an empty one does not restrict', async () => {
    for (const bad of ['14/03/2026', '2026-3-14', '2026-02-30']) {
      const a = await sb.get(`${paths.hospitalList}?dateCompleted=${encodeURIComponent(bad)}`);
      expect(a.status, bad).toBe(400);
      expect(errorCode(a.json)).toBe('MSG_INVALID_FORMAT');
    }
    expect(claims((await sb.get(`${paths.hospitalList}?dateCompleted=`)).json)).toHaveLength(12);
  });

  test('no token is 401', async () => {
    expect((await sb.get(paths.hospitalList, { token: null })).status).toBe(401);
  });
});

describe('Search Hospital Claims (4.10)', () => {
  test('the configured search finds John Smith at St Elsewhere Hospital', async () => {
    const a = await sb.get(paths.hospitalSearch + query(fixture));
    expect(a.status).toBe(200);
    const found = claims(a.json);
    expect(found.map((c) => c.id)).toEqual(['HC-0005']);
    expect(found[0].patient.display).toContain('Smith');
  });

  test('text fields match ignoring case; no match is an empty bundle', async () => {
    const a = await sb.get(
      paths.hospitalSearch +
        query({ ...fixture, treatmentSiteName: 'st elsewhere hospital', patientLastName: 'SMITH' }),
    );
    expect(claims(a.json)).toHaveLength(1);
    const none = await sb.get(paths.hospitalSearch + query({ ...fixture, patientLastName: 'Nobody' }));
    expect(none.status).toBe(200);
    expect(none.json).toMatchObject({ type: 'searchset', total: 0, entry: [] });
  });

  test.each(Object.keys(fixture))('missing or empty %s is 400 MSG_MISSING_MANDATORY_PARAM', async (field) => {
    const q: Record<string, string> = { ...fixture };
    delete q[field];
    for (const qs of [q, { ...q, [field]: '' }]) {
      const a = await sb.get(paths.hospitalSearch + query(qs));
      expect(a.status).toBe(400);
      expect(errorCode(a.json)).toBe('MSG_MISSING_MANDATORY_PARAM');
      expect((a.json as J).resourceType).toBe('OperationOutcome');
    }
  });

  test.each(['dateCompleted', 'patientDateOfBirth'])(
    '%s not in yyyy-MM-dd is 400 MSG_INVALID_FORMAT',
    async (field) => {
      const a = await sb.get(paths.hospitalSearch + query({ ...fixture, [field]: '12-04-1980' }));
      expect(a.status).toBe(400);
      expect(errorCode(a.json)).toBe('MSG_INVALID_FORMAT');
    },
  );

  test('no token is 401', async () => {
    expect((await sb.get(paths.hospitalSearch + query(fixture), { token: null })).status).toBe(401);
  });
});
