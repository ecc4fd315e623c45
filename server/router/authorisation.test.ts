import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestSandbox, errorCode, extension, ids, resources, tags } from '../testSupport.ts';

type J = any;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await TestSandbox.start();
});
afterAll(() => sb.close());

const search = (fields: Record<string, string>, options = {}) => sb.form('/authorisation/search', fields, options);
const all = async (fields: Record<string, string> = {}): Promise<J[]> =>
  resources((await search({ ...fields, count: '50' })).json) as J[];

describe('Search Authorisation (4.3)', () => {
  test('unfiltered: a searchset of pre-authorisation Claims, page 1 of 10 in id order', async () => {
    const a = await search({});
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const b: J = a.json;
    expect(b).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 30 });
    expect(tags(b)).toEqual({ page: '1', count: '10', maxCount: '30' });
    expect(ids(b)).toEqual(Array.from({ length: 10 }, (_, k) => `PA-${String(k + 1).padStart(4, '0')}`));
    for (const r of resources(b) as J[])
      expect(r).toMatchObject({
        resourceType: 'Claim',
        use: 'preauthorization',
        created: expect.any(String),
        meta: { lastUpdated: expect.any(String) },
      });
  });

  test('the configured fixture is found by authCode and caseCode', async () => {
    const found = await all({ authCode: 'AUTH-0001', caseCode: 'CASE-0001' });
    expect(found.map((r) => r.id)).toEqual(['PA-0001']);
    expect(extension(found[0], 'membershipNumber')).toBe('NUH200001');
    expect(extension(found[0], 'insurerIdentifier')).toBe('nuh');
  });

  test.each([
    ['insurerIdentifier', 'nuh', 'insurerIdentifier'],
    ['insurerIdentifier', 'tih', 'insurerIdentifier'],
    ['status', 'read', 'status'],
    ['status', 'unread', 'status'],
    ['preAuthStatus', 'Closed', 'preAuthStatus'],
    ['actionStatus', 'with provider', 'actionStatus'],
    ['membershipNumber', 'NUH200001', 'membershipNumber'],
  ])('%s=%s keeps only matching records', async (field, value, ext) => {
    const found = await all({ [field]: value });
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThan(30);
    for (const r of found) expect(extension(r, ext)).toBe(value);
  });

  test('preAuthStatus=All does not restrict', async () => {
    expect((await all({ preAuthStatus: 'All' })).length).toBe(30);
  });

  test('issueDate: a single minute, and an inclusive range', async () => {
    const every = await all();
    const target = every.find((r) => r.id === 'PA-0001');
    const minute = target.created.slice(0, 16);
    expect((await all({ issueDate: minute })).map((r) => r.id)).toEqual(['PA-0001']);
    const inRange = await all({ issueDate: '2025-01-01T00:00_2025-06-30T23:59' });
    const expected = every.filter((r) => r.created >= '2025-01-01' && r.created < '2025-07-01').map((r) => r.id);
    expect(inRange.map((r) => r.id)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(3);
    const ends = await all({ issueDate: `${minute}_${minute}` });
    expect(ends.map((r) => r.id)).toEqual(['PA-0001']);
  });

  test('requestedDate and lastUpdatedOn filter on their own values', async () => {
    const every = await all();
    const r = every[4];
    const requested = extension(r, 'requestedDate') as string;
    const updated = extension(r, 'lastUpdatedOn') as string;
    expect((await all({ requestedDate: requested.slice(0, 16) })).map((x) => x.id)).toEqual([r.id]);
    expect((await all({ lastUpdatedOn: updated.slice(0, 16) })).map((x) => x.id)).toEqual([r.id]);
  });

  test('_sort=issueDate ascends on created; -issueDate is the reverse', async () => {
    const asc = await all({ _sort: 'issueDate' });
    const desc = await all({ _sort: '-issueDate' });
    const created = asc.map((r) => Date.parse(r.created));
    expect(created).toEqual([...created].sort((x, y) => x - y));
    expect(desc.map((r) => r.id)).toEqual(asc.map((r) => r.id).reverse());
    expect(asc.map((r) => r.id)).not.toEqual([...asc.map((r) => r.id)].sort());
  });

  test('_since keeps records last updated at or after it', async () => {
    const found = await all({ _since: '2026-06-01T00:00:00Z' });
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThan(30);
    for (const r of found)
      expect(Date.parse(r.meta.lastUpdated)).toBeGreaterThanOrEqual(Date.parse('2026-06-01T00:00:00Z'));
    expect((await all({ _since: '2026-06-01' })).length).toBe(found.length);
  });

  test('pages of one query do not overlap and cover every match; a page past the end is empty', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 5; page++) {
      const b: J = (await search({ count: '7', page: String(page) })).json;
      expect(tags(b)).toEqual({ page: String(page), count: '7', maxCount: '30' });
      expect(b.total).toBe(30);
      expect(b.entry.length).toBeLessThanOrEqual(7);
      seen.push(...ids(b));
    }
    expect(new Set(seen).size).toBe(30);
    const past: J = (await search({ count: '7', page: '9' })).json;
    expect(past.entry).toEqual([]);
    expect(past.total).toBe(30);
  });

  test.each([
    [{ insurerIdentifier: 'bup' }, 422, 'MSG_PARAM_INVALID'],
    [{ status: 'seen' }, 422, 'MSG_PARAM_INVALID'],
    [{ preAuthStatus: 'Open' }, 422, 'MSG_PARAM_INVALID'],
    [{ _sort: 'created' }, 422, 'MSG_PARAM_INVALID'],
    [{ issueDate: '2025-01-01' }, 422, 'MSG_INVALID_FORMAT'],
    [{ issueDate: '2025-01-01T10:00_' }, 422, 'MSG_INVALID_FORMAT'],
    [{ _since: 'yesterday' }, 422, 'MSG_INVALID_FORMAT'],
    [{ count: '0' }, 422, 'MSG_INVALID_FORMAT'],
    [{ page: 'two' }, 422, 'MSG_INVALID_FORMAT'],
    [{ caseCode: '' }, 400, 'MSG_PARAM_EMPTY'],
  ])('%o is refused with %i %s', async (fields, status, code) => {
    const a = await search(fields as Record<string, string>);
    expect(a.status).toBe(status);
    expect(errorCode(a.json)).toBe(code);
    expect((a.json as J).issue[0].location).toEqual([]);
  });

  test('site isolation: SITE002 sees only its own records', async () => {
    const other = await sb.token('sandbox-other');
    const b: J = (await search({ count: '50' }, { token: other, site: 'SITE002' })).json;
    expect(ids(b)).toEqual(['PA-0091', 'PA-0092', 'PA-0093']);
    expect((await search({}, { token: other, site: 'SITE001' })).status).toBe(403);
  });

  test('token, site and content type are enforced', async () => {
    expect((await search({}, { token: null })).status).toBe(401);
    expect(errorCode((await search({}, { site: null })).json)).toBe('MSG_MISSING_MANDATORY_PARAM');
    const json = await sb.request('POST', '/authorisation/search', {
      headers: {
        authorization: `Bearer ${await sb.token()}`,
        'su-siteid': 'SITE001',
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(json.status).toBe(400);
    expect(errorCode(json.json)).toBe('MSG_CANT_PARSE_CONTENT');
  });
});
