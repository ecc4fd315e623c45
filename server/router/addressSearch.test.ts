import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestSandbox, errorCode, paths, withQuery } from '../testSupport.ts';

type J = any;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await TestSandbox.start();
});
afterAll(() => sb.close());

const get = (path: string, query: Record<string, string> = {}, options = {}) => sb.get(withQuery(path, query), options);
const search = async (query: Record<string, string>) => (await get(paths.addressSearch, query)).json as J[];

const RETRIEVED_FIELDS = [
  'key',
  'line1',
  'line2',
  'line3',
  'line4',
  'buildingName',
  'street',
  'provinceName',
  'postcode',
  'city',
  'district',
  'country',
  'countryCode3',
  'addressType',
  'formattedAddress',
  'latitude',
  'longitude',
];

describe('Search address (4.6)', () => {
  test('Downing Street finds only non-Address items, as plain JSON', async () => {
    const a = await get(paths.addressSearch, { text: 'Downing Street' });
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const items = a.json as J[];
    expect(items[0]).toEqual({
      key: 'GB|ST|DOWNING',
      addressType: 'Street',
      formattedAddress: 'Downing Street, London SW1A',
    });
    expect(items.length).toBeGreaterThanOrEqual(1);
    for (const i of items) expect(i.addressType).not.toBe('Address');
  });

  test('drilling into GB|ST|DOWNING gives at least three Address items with | in their keys (DEC-D2-12)', async () => {
    const items = await search({ text: 'Downing Street', container: 'GB|ST|DOWNING' });
    expect(items.map((i) => i.key)).toEqual(['GB|RM|A|10001', 'GB|RM|A|10002', 'GB|RM|A|10003']);
    for (const i of items) {
      expect(i).toMatchObject({ addressType: 'Address', formattedAddress: expect.stringContaining('Downing Street') });
      expect(i.key).toContain('|');
    }
  });

  test('drill-down flow: at most five steps from a text to a retrieved Address (Baker Street: two steps)', async () => {
    for (const text of ['Downing Street', 'Baker Street', 'SW1A 2AA', 'Whitehall']) {
      let items = await search({ text });
      let steps = 0;
      while (!items.some((i) => i.addressType === 'Address') && steps < 5) {
        const container = items.find((i) => i.addressType !== 'Address');
        expect(container, text).toBeDefined();
        items = await search({ text, container: container.key });
        steps += 1;
      }
      const address = items.find((i) => i.addressType === 'Address');
      expect(address, text).toBeDefined();
      const retrieved = (await get(paths.addressRetrieve, { id: address.key })).json as J[];
      expect(retrieved).toHaveLength(1);
      expect(retrieved[0].key).toBe(address.key);
    }
    const baker = await search({ text: 'Baker Street', container: 'GB|ST|BAKER' });
    expect(baker.map((i) => i.addressType)).toEqual(['Building', 'Address']);
    expect((await search({ text: 'Baker Street', container: 'GB|BD|221B' })).map((i) => i.key)).toEqual([
      'GB|RM|A|20002',
      'GB|RM|A|20003',
    ]);
  });

  test('text matching ignores case and extra spaces; nothing found is an empty array', async () => {
    expect((await search({ text: '  downing   STREET ' }))[0].key).toBe('GB|ST|DOWNING');
    expect(await search({ text: 'Nowhere Lane' })).toEqual([]);
    expect(await search({ text: 'Downing Street', container: 'GB|NO|SUCH' })).toEqual([]);
  });

  test('without text it is 400 MSG_MISSING_MANDATORY_PARAM (DEC-D2-07); no token is 401', async () => {
    for (const q of [{}, { text: '' }, { container: 'GB|ST|DOWNING' }] as Record<string, string>[]) {
      const a = await get(paths.addressSearch, q);
      expect([a.status, errorCode(a.json)]).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
      expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
    }
    expect((await get(paths.addressSearch, { text: 'Downing Street' }, { token: null })).status).toBe(401);
  });
});

describe('Retrieve address (4.7)', () => {
  test('the id sent as %7C gives a one-element array with that key and every field (DEC-D2-13)', async () => {
    const a = await sb.get(`${paths.addressRetrieve}?id=GB%7CRM%7CA%7C10001`);
    expect(a.status).toBe(200);
    const [address, ...rest] = a.json as J[];
    expect(rest).toEqual([]);
    expect(Object.keys(address).sort()).toEqual([...RETRIEVED_FIELDS].sort());
    expect(address).toMatchObject({
      key: 'GB|RM|A|10001',
      addressType: 'Address',
      postcode: 'SW1A 2AA',
      city: 'London',
      countryCode3: 'GBR',
      line2: '10 Downing Street',
    });
    expect(address.formattedAddress.split('\n')).toContain('10 Downing Street');
    for (const f of RETRIEVED_FIELDS) expect(typeof address[f], f).toBe('string');
  });

  test('each Address item is retrieved by its own key', async () => {
    for (const key of ['GB|RM|A|10002', 'GB|RM|A|10003', 'GB|RM|A|20001', 'GB|RM|A|10004']) {
      expect(((await get(paths.addressRetrieve, { id: key })).json as J[])[0].key).toBe(key);
    }
  });

  test('an unknown key or a non-Address key is an empty array (DEC-D2-11, -50)', async () => {
    for (const id of ['GB|RM|A|99999', 'GB|ST|DOWNING']) {
      const a = await get(paths.addressRetrieve, { id });
      expect([a.status, a.json]).toEqual([200, []]);
    }
  });

  test('without id it is 400', async () => {
    const a = await get(paths.addressRetrieve);
    expect([a.status, errorCode(a.json)]).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
  });
});

describe('Geo-coding and postcode validation (4.8)', () => {
  test('SW1A 2AA in any case and spacing geo-codes near 51.5034,-0.1276 with decimal strings (DEC-D2-15)', async () => {
    for (const postcode of ['SW1A 2AA', 'sw1a2aa', ' Sw1A  2aA ']) {
      const a = await get(paths.geocode, { postcode });
      expect(a.status, postcode).toBe(200);
      expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const g: J = a.json;
      expect(g).toEqual({
        formattedAddress: expect.stringContaining('SW1A 2AA'),
        latitude: expect.stringMatching(/^-?\d+\.\d+$/),
        longitude: expect.stringMatching(/^-?\d+\.\d+$/),
      });
      expect(Number(g.latitude)).toBeCloseTo(51.5034, 3);
      expect(Number(g.longitude)).toBeCloseTo(-0.1276, 3);
    }
  });

  test('an unknown postcode is 404 MSG_NOT_FOUND (DEC-D2-51); no postcode is 400', async () => {
    const unknown = await get(paths.geocode, { postcode: 'NOT A POSTCODE' });
    expect([unknown.status, errorCode(unknown.json)]).toEqual([404, 'MSG_NOT_FOUND']);
    const missing = await get(paths.geocode);
    expect([missing.status, errorCode(missing.json)]).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
  });

  test('validate: seed postcodes are valid, the invalid one is 200 with status false echoing the input', async () => {
    for (const postcode of ['SW1A 2AA', 'nw16xe', 'SE1 2PR', 'W1G 8BJ']) {
      const a = await get(paths.validatePostcode, { postcode });
      expect([a.status, a.json], postcode).toEqual([200, { postcode, status: true }]);
    }
    for (const postcode of ['NOT A POSTCODE', 'ZZ1 1ZZ', 'SW1A']) {
      const a = await get(paths.validatePostcode, { postcode });
      expect([a.status, a.json], postcode).toEqual([200, { postcode, status: false }]);
    }
    expect((await get(paths.validatePostcode, { postcode: 'NOT A POSTCODE' })).headers.get('content-type')).toBe(
      'application/json; charset=utf-8',
    );
  });

  test('validate without postcode is 400; no token is 401', async () => {
    const a = await get(paths.validatePostcode);
    expect([a.status, errorCode(a.json)]).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
    expect((await get(paths.validatePostcode, { postcode: 'SW1A 2AA' }, { token: null })).status).toBe(401);
    expect((await get(paths.geocode, { postcode: 'SW1A 2AA' }, { token: null })).status).toBe(401);
  });
});
