import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestSandbox, paths, withQuery } from '../testSupport.ts';

type J = any;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await TestSandbox.start();
});
afterAll(() => sb.close());

const ALICE_V1 = ['SITE001', ...Array.from({ length: 24 }, (_, k) => `SITE${String(k + 7).padStart(3, '0')}`)];
const ALICE_V2 = ['SITE001', 'SITE003', 'SITE006', ...ALICE_V1.slice(1)];

const asClient = async (clientId: string) => ({ token: await sb.token(clientId) });

describe('accounts errors are {message, code} with code the HTTP status (2.2, 7; DEC-D3-04)', () => {
  test('no token, or an unknown one, is 401 {message, code}', async () => {
    for (const token of [null, 'forged']) {
      const a = await sb.accounts(paths.introspect, { token });
      expect(a.status).toBe(401);
      expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(a.json).toEqual({ message: expect.any(String), code: 401 });
    }
  });

  test('a diary token is no accounts token', async () => {
    expect((await sb.accounts(paths.introspect, { token: await sb.diaryToken() })).status).toBe(401);
  });
});

describe('Introspect (4.1)', () => {
  test('a user token answers {status: success}; with a reachable active SU-SiteId too', async () => {
    for (const site of [undefined, 'SITE001', 'SITE006', 'SITE030']) {
      const a = await sb.accounts(paths.introspect, { site });
      expect([a.status, a.json], String(site)).toEqual([200, { status: 'success' }]);
    }
  });

  test('a site not connected to the user is 403 naming site and user', async () => {
    for (const site of ['SITE002', 'SITE004', 'NOSUCH']) {
      const a = await sb.accounts(paths.introspect, { site });
      expect([a.status, a.json]).toEqual([
        403,
        { message: `The SU-Site ${site} and SU-User U-1001 authorisation is invalid`, code: 403 },
      ]);
    }
  });

  test('an inactive site is 403 `status should be ACTIVE`', async () => {
    const a = await sb.accounts(paths.introspect, { site: 'SITE003' });
    expect([a.status, a.json]).toEqual([403, { message: 'The SU-Site SITE003 status should be ACTIVE', code: 403 }]);
  });

  test('client tokens: no account 422, inactive account 422, active account 400 userId not found', async () => {
    const none = await sb.accounts(paths.introspect, await asClient('sandbox-noaccount'));
    expect([none.status, none.json]).toEqual([422, { message: 'No account is associated for this client', code: 422 }]);
    const inactive = await sb.accounts(paths.introspect, await asClient('sandbox-inactive'));
    expect([inactive.status, inactive.json]).toEqual([
      422,
      { message: 'The client account CA-02 status should be ACTIVE', code: 422 },
    ]);
    const active = await sb.accounts(paths.introspect, await asClient('sandbox-client'));
    expect([active.status, active.json]).toEqual([
      400,
      { message: 'userId not found in authentication token', code: 400 },
    ]);
  });
});

describe('List features (4.1)', () => {
  test('alice gets her role object with features', async () => {
    const a = await sb.accounts(paths.features);
    expect(a.status).toBe(200);
    const r: J = a.json;
    expect(r).toMatchObject({
      roleId: 'ROLE-01',
      code: 'PRACTICE_ADMIN',
      status: 'ACTIVE',
      clientassignable: true,
      publicaccess: false,
      createdby: expect.any(String),
    });
    expect(r.productGroup).toEqual({
      id: 'PG-01',
      name: expect.any(String),
      identifier: expect.any(String),
      description: expect.any(String),
    });
    expect(r.features.length).toBeGreaterThan(0);
    for (const f of r.features)
      expect(Object.keys(f).sort()).toEqual(['code', 'description', 'id', 'identifier', 'name', 'status']);
    expect((await sb.accounts(paths.features, { site: 'SITE006' })).status).toBe(200);
  });

  test('bob (no features) is 403 Features not found; so is a site alice does not reach', async () => {
    const bob = await sb.accounts(paths.features, { token: await sb.userToken('bob') });
    expect([bob.status, bob.json]).toEqual([403, { message: 'Features not found', code: 403 }]);
    const other = await sb.accounts(paths.features, { site: 'SITE002' });
    expect([other.status, other.json]).toEqual([403, { message: 'Features not found', code: 403 }]);
  });

  test('a client token is 400 userId not found in authentication token', async () => {
    const a = await sb.accounts(paths.features, await asClient('sandbox-client'));
    expect([a.status, a.json]).toEqual([400, { message: 'userId not found in authentication token', code: 400 }]);
  });
});

describe('Get user info (4.1)', () => {
  test('CODE-0001 gives alice at SITE001 with formatted dates', async () => {
    const a = await sb.accounts(withQuery(paths.userInfo, { code: 'CODE-0001' }));
    expect(a.status).toBe(200);
    const b: J = a.json;
    expect(b.user).toMatchObject({
      id: 'U-1001',
      title: 'Dr',
      family: 'Archer',
      given: 'Alice',
      middlename: 'Jane',
      loginEmailAddress: 'alice.archer@sandbox.example',
      manageSubscriptions: [],
    });
    expect(b.user.roles).toEqual([{ roleId: 'ROLE-01', code: 'PRACTICE_ADMIN', name: 'Practice administrator' }]);
    expect(b.user.creationdate).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(b.user.lastupdatedon).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(b.homesite).toEqual({ id: 'SITE001', name: 'Harley Street Clinic' });
    expect(b.site).toEqual({ id: 'SITE001', name: 'Harley Street Clinic', type: 'c' });
  });

  test('an unknown or missing code is 422 Secret code not found', async () => {
    for (const path of [withQuery(paths.userInfo, { code: 'CODE-9999' }), paths.userInfo]) {
      const a = await sb.accounts(path);
      expect([a.status, a.json]).toEqual([422, { message: 'Secret code not found', code: 422 }]);
    }
  });
});

describe('List authorised sites (4.1)', () => {
  test("v1: alice's active connected sites (no inactive, no child site)", async () => {
    const a = await sb.accounts(paths.sitesV1);
    expect(a.status).toBe(200);
    const sites: J[] = a.json as J[];
    expect(sites.map((s) => s.id)).toEqual(ALICE_V1);
    expect(sites.every((s) => s.status === 'ACTIVE')).toBe(true);
    expect(sites[0]).toEqual({
      id: 'SITE001',
      name: 'Harley Street Clinic',
      identifier: 'ODS-001',
      description: expect.any(String),
      status: 'ACTIVE',
      type: 'c',
    });
    expect(
      ((await sb.accounts(paths.sitesV1, { token: await sb.userToken('bob') })).json as J[]).map((s) => s.id),
    ).toEqual(['SITE001']);
  });

  test('v2: default page of 10, pagination fields, child site with parentsite (DEC-D3-05)', async () => {
    const a = await sb.accounts(paths.sitesV2);
    expect(a.status).toBe(200);
    const b: J = a.json;
    expect(b.pagination).toEqual({ totalRecords: 27, currentPage: 1, totalPages: 3, nextPage: 2, prevPage: null });
    expect(b.sites.map((s: J) => s.id)).toEqual(ALICE_V2.slice(0, 10));
    expect(b.sites.find((s: J) => s.id === 'SITE006').parentsite).toEqual({ id: 'SITE001' });
    expect(b.sites.find((s: J) => s.id === 'SITE003').status).toBe('INACTIVE');
  });

  test('v2: pages do not overlap and cover every site; the last page has nextPage null', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const b: J = (await sb.accounts(withQuery(paths.sitesV2, { pageNumber: String(page), maxRecordsPerPage: '8' })))
        .json;
      expect(b.pagination).toEqual({
        totalRecords: 27,
        currentPage: page,
        totalPages: 4,
        nextPage: page < 4 ? page + 1 : null,
        prevPage: page > 1 ? page - 1 : null,
      });
      seen.push(...b.sites.map((s: J) => s.id));
    }
    expect(seen).toEqual(ALICE_V2);
    const beyond: J = (await sb.accounts(withQuery(paths.sitesV2, { pageNumber: '9' }))).json;
    expect(beyond).toEqual({
      pagination: { totalRecords: 27, currentPage: 9, totalPages: 3, nextPage: null, prevPage: 8 },
      sites: [],
    });
  });

  test('v2: search by id or by name, ignoring case', async () => {
    const ids = async (search: string) =>
      ((await sb.accounts(withQuery(paths.sitesV2, { search, maxRecordsPerPage: '50' }))).json as J).sites.map(
        (s: J) => s.id,
      );
    expect(await ids('site007')).toEqual(['SITE007']);
    expect(await ids('PHYSIO')).toEqual(['SITE007', 'SITE011', 'SITE015', 'SITE023', 'SITE030']);
    expect(await ids('harley')).toEqual(['SITE001', 'SITE006']);
    expect(await ids('Northside')).toEqual([]);
  });

  test('v2: bad paging values are 400; a client token is 400 userId not found', async () => {
    for (const q of [{ pageNumber: '0' }, { maxRecordsPerPage: 'ten' }] as Record<string, string>[]) {
      const a = await sb.accounts(withQuery(paths.sitesV2, q));
      expect([a.status, (a.json as J).code]).toEqual([400, 400]);
    }
    const a = await sb.accounts(paths.sitesV2, await asClient('sandbox-client'));
    expect([a.status, a.json]).toEqual([400, { message: 'userId not found in authentication token', code: 400 }]);
  });
});

describe('List site subscriptions (4.1)', () => {
  test('SITE001: the Pro plan with its site types', async () => {
    const a = await sb.accounts(paths.subscription, { site: 'SITE001' });
    expect([a.status, a.json]).toEqual([
      200,
      {
        siteId: 'SITE001',
        subscriptions: {
          subscriptionId: 'SUB-0001',
          plan: {
            planId: 'PLAN-PRO',
            planName: 'Practice Pro',
            planDescription: expect.any(String),
            planSlab: 3,
            siteTypes: [
              { code: 'c', name: 'Practice' },
              { code: 's', name: 'Practitioner' },
            ],
          },
        },
      },
    ]);
  });

  test('a site the user does not reach is 403; without SU-SiteId 400', async () => {
    const a = await sb.accounts(paths.subscription, { site: 'SITE002' });
    expect([a.status, a.json]).toEqual([
      403,
      { message: 'Loggedin user does not have permission to perform this operation.', code: 403 },
    ]);
    const none = await sb.accounts(paths.subscription);
    expect([none.status, none.json]).toEqual([400, { message: 'SU-SiteId is missing', code: 400 }]);
  });
});

describe('Get user details (4.1)', () => {
  const alice = {
    userId: 'U-1001',
    title: 'Dr',
    firstName: 'Alice',
    lastName: 'Archer',
    middlename: 'Jane',
    loginEmailAddress: 'alice.archer@sandbox.example',
    status: 'ACTIVE',
    homesite: { id: 'SITE001', name: 'Harley Street Clinic' },
  };

  test('a user token: the token user with only active sites', async () => {
    const b: J = (await sb.accounts(paths.userDetails)).json;
    expect(b).toMatchObject(alice);
    expect(b.sites.map((s: J) => s.siteId)).toEqual(ALICE_V1);
    expect(b.sites[0]).toEqual({
      siteId: 'SITE001',
      siteName: 'Harley Street Clinic',
      description: expect.any(String),
      siteType: 'c',
    });
  });

  test('a client token with SU-UserId of an accessible user', async () => {
    const a = await sb.accounts(paths.userDetails, {
      ...(await asClient('sandbox-client')),
      headers: { 'su-userid': 'U-1001' },
    });
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject(alice);
  });

  test('client token errors: missing header 422, inaccessible user 403, no account 422, inactive account 422', async () => {
    const client = await asClient('sandbox-client');
    const missing = await sb.accounts(paths.userDetails, client);
    expect([missing.status, missing.json]).toEqual([422, { message: 'SU-UserId is missing', code: 422 }]);
    const denied = await sb.accounts(paths.userDetails, { ...client, headers: { 'su-userid': 'U-1002' } });
    expect([denied.status, denied.json]).toEqual([
      403,
      { message: 'The client account CA-01 does not have access to this user U-1002', code: 403 },
    ]);
    const none = await sb.accounts(paths.userDetails, {
      ...(await asClient('sandbox-noaccount')),
      headers: { 'su-userid': 'U-1001' },
    });
    expect([none.status, none.json]).toEqual([422, { message: 'No account is associated for this client', code: 422 }]);
    const inactive = await sb.accounts(paths.userDetails, {
      ...(await asClient('sandbox-inactive')),
      headers: { 'su-userid': 'U-1001' },
    });
    expect([inactive.status, inactive.json]).toEqual([
      422,
      { message: 'The client account CA-02 status should be ACTIVE', code: 422 },
    ]);
  });
});

describe('Get event info (4.1, 6)', () => {
  test('SNS-0001: a SITE_CREATED event, NOTIFIED, of SITE006 under SITE001', async () => {
    const a = await sb.accounts(withQuery(paths.event, { sns_id: 'SNS-0001' }));
    expect(a.status).toBe(200);
    const b: J = a.json;
    expect(b).toMatchObject({ eventId: 5001, eventStatus: 'NOTIFIED', eventType: 'SITE_CREATED' });
    expect(b.resource).toMatchObject({
      id: 'SITE006',
      name: 'Harley Street Annex',
      isSyncWithCrm: false,
      createdBy: 'U-1001',
    });
    expect(b.resource.account).toEqual({
      id: 'CA-01',
      name: expect.any(String),
      status: 'ACTIVE',
      isAccountManager: false,
      isSyncWithCrm: false,
      is2FaEnforced: true,
    });
    expect(b.resource.parentSite).toEqual({
      id: 'SITE001',
      name: 'Harley Street Clinic',
      status: 'ACTIVE',
      type: 'c',
      isSyncWithCrm: false,
    });
  });

  test('an unknown or missing sns_id is 403 SNS_ID is Invalid.', async () => {
    for (const path of [withQuery(paths.event, { sns_id: 'SNS-9999' }), paths.event]) {
      const a = await sb.accounts(path);
      expect([a.status, a.json]).toEqual([403, { message: 'SNS_ID is Invalid.', code: 403 }]);
    }
  });
});

describe('Get users by site (4.1)', () => {
  test('SITE001 lists alice and bob', async () => {
    const a = await sb.accounts(paths.siteUsers('SITE001'), { site: 'SITE001' });
    expect(a.status).toBe(200);
    const b: J = a.json;
    expect([b.siteId, b.siteName]).toEqual(['SITE001', 'Harley Street Clinic']);
    expect(b.users.map((u: J) => u.userId)).toEqual(['U-1001', 'U-1002']);
    expect(b.users[0]).toEqual({
      userId: 'U-1001',
      firstName: 'Alice',
      lastName: 'Archer',
      middleName: 'Jane',
      status: 'ACTIVE',
      loginEmailAddress: 'alice.archer@sandbox.example',
    });
  });

  test('quirks: an invalid site is 200 with a message; a site without users has an empty list', async () => {
    const invalid = await sb.accounts(paths.siteUsers('SITE999'), { site: 'SITE001' });
    expect([invalid.status, invalid.json]).toEqual([200, { message: 'Siteid is invalid : SITE999' }]);
    const empty = await sb.accounts(paths.siteUsers('SITE004'), { site: 'SITE001' });
    expect([empty.status, empty.json]).toEqual([200, { siteId: 'SITE004', siteName: 'Riverside Hospital', users: [] }]);
  });

  test('SU-SiteId is required: 400 SU-SiteId is missing', async () => {
    const a = await sb.accounts(paths.siteUsers('SITE001'));
    expect([a.status, a.json]).toEqual([400, { message: 'SU-SiteId is missing', code: 400 }]);
  });
});
