/** Every Document 3 row fault changes the sandbox's answer where the clean sandbox keeps the rule. */
import { expect } from 'vitest';
import {
  basicAuth,
  errorCode,
  introspectStatus,
  paths,
  refreshStatus,
  revokeWith,
  tags,
  type TestSandbox,
  withQuery,
} from '../../testSupport.ts';
import { D3_ROW_FAULTS } from './d3.ts';
import { describeRowFaults, type Scenario } from './scenarios.ts';

/** Loose access to JSON inside this test only. */
type J = any;

const logout = (s: TestSandbox, token: string) =>
  s.request('GET', paths.logout, { headers: { authorization: `Bearer ${token}` } });
const revoke = revokeWith;
const tokenDetails = (s: TestSandbox, redirect_uri: string, authorization: string) =>
  s.request('GET', withQuery(paths.tokenDetails('nhs'), { redirect_uri }), { headers: { authorization } });
const sitesV2 = async (s: TestSandbox, query: Record<string, string>): Promise<J> =>
  (await s.accounts(withQuery(paths.sitesV2, query))).json;
const ids = (body: J): string[] => (body.sites as J[]).map((x) => x.id);
const payorBody = (authority: string) => ({
  resourceType: 'Contract',
  subject: [{ reference: 'Site/SITE001' }],
  authority: [{ reference: authority, display: `Payor ${authority}` }],
});
/** The authority references of a site's payor listing. */
const payorRefs = (body: unknown): string[] =>
  ((body as J).entry as J[]).flatMap((e) => (e.resource.authority ?? []).map((a: J) => a.reference));

const SCENARIOS: Record<string, Scenario> = {
  'logout-keeps-refresh-token': async (clean, faulty) => {
    for (const [s, refresh] of [
      [clean, 400],
      [faulty, 200],
    ] as const) {
      const { access_token, refresh_token } = await s.signIn();
      expect((await logout(s, access_token)).status).toBe(200);
      expect(await introspectStatus(s, access_token)).toBe(401);
      expect(await refreshStatus(s, refresh_token)).toBe(refresh);
    }
  },
  'logout-ends-nothing': async (clean, faulty) => {
    for (const [s, after] of [
      [clean, 401],
      [faulty, 200],
    ] as const) {
      const { access_token } = await s.signIn();
      expect((await logout(s, access_token)).status).toBe(200);
      expect(await introspectStatus(s, access_token)).toBe(after);
    }
  },
  'logout-redirects-to-login': async (clean, faulty) => {
    expect((await logout(clean, (await clean.signIn()).access_token)).status).toBe(200);
    const { access_token } = await faulty.signIn();
    const f = await fetch(faulty.url + paths.logout, {
      headers: { authorization: `Bearer ${access_token}` },
      redirect: 'manual',
    });
    expect([f.status, f.headers.get('location')]).toEqual([302, '/login']);
    // The session still ends: only the answer is a browser redirect.
    expect(await introspectStatus(faulty, access_token)).toBe(401);
  },
  'site-users-of-header-site': async (clean, faulty) => {
    const path = paths.siteUsers('SITE004');
    expect((await clean.accounts(path, { site: 'SITE001' })).json).toMatchObject({ siteId: 'SITE004', users: [] });
    const f: J = (await faulty.accounts(path, { site: 'SITE001' })).json;
    expect([f.siteId, f.users.length > 0]).toEqual(['SITE001', true]);
  },
  'subscriptions-of-home-site': async (clean, faulty) => {
    expect(((await clean.accounts(paths.subscription, { site: 'SITE007' })).json as J).siteId).toBe('SITE007');
    expect(((await faulty.accounts(paths.subscription, { site: 'SITE007' })).json as J).siteId).toBe('SITE001');
    // The user's access is still checked.
    expect((await faulty.accounts(paths.subscription, { site: 'SITE002' })).status).toBe(403);
  },
  'sites-v2-child-sites-missing': async (clean, faulty) => {
    const all = { maxRecordsPerPage: '100' };
    expect(ids(await sitesV2(clean, all))).toContain('SITE006');
    const f = await sitesV2(faulty, all);
    expect(ids(f)).not.toContain('SITE006');
    expect(f.pagination.totalRecords).toBe(ids(f).length);
  },
  'sites-v2-pages-overlap': async (clean, faulty) => {
    const page = async (s: TestSandbox, n: number) =>
      ids(await sitesV2(s, { pageNumber: String(n), maxRecordsPerPage: '4' }));
    const [c1, c2] = [await page(clean, 1), await page(clean, 2)];
    expect(c2.filter((id) => c1.includes(id))).toEqual([]);
    const [f1, f2] = [await page(faulty, 1), await page(faulty, 2)];
    expect(f1).toEqual(c1);
    expect([f2.length, f2[0]]).toEqual([4, c1[3]]);
  },
  'sites-v2-search-by-id-ignored': async (clean, faulty) => {
    expect(ids(await sitesV2(clean, { search: 'SITE001' }))).toEqual(['SITE001']);
    expect(await sitesV2(faulty, { search: 'SITE001' })).toMatchObject({ sites: [], pagination: { totalRecords: 0 } });
    expect(ids(await sitesV2(faulty, { search: 'harley street clinic' }))).toEqual(['SITE001']);
  },
  'sites-v2-search-by-name-ignored': async (clean, faulty) => {
    expect(ids(await sitesV2(clean, { search: 'Harley Street Clinic' }))).toEqual(['SITE001']);
    expect(await sitesV2(faulty, { search: 'Harley Street Clinic' })).toMatchObject({ sites: [] });
    expect(ids(await sitesV2(faulty, { search: 'SITE001' }))).toEqual(['SITE001']);
  },
  'site-without-users-invalid': async (clean, faulty) => {
    const path = paths.siteUsers('SITE004');
    expect((await clean.accounts(path, { site: 'SITE001' })).json).toMatchObject({ users: [] });
    const f = await faulty.accounts(path, { site: 'SITE001' });
    expect([f.status, f.json]).toEqual([200, { message: 'Siteid is invalid : SITE004' }]);
  },
  'user-info-code-optional': async (clean, faulty) => {
    expect((await clean.accounts(paths.userInfo)).status).toBe(422);
    const f = await faulty.accounts(paths.userInfo);
    expect([f.status, (f.json as J).user.id]).toEqual([200, 'U-1001']);
  },
  'user-info-unknown-code-served': async (clean, faulty) => {
    const path = withQuery(paths.userInfo, { code: 'NO-SUCH-CODE-000' });
    expect((await clean.accounts(path)).json).toEqual({ message: 'Secret code not found', code: 422 });
    const f = await faulty.accounts(path);
    expect([f.status, (f.json as J).user.id]).toEqual([200, 'U-1001']);
    expect((await faulty.accounts(paths.userInfo)).status).toBe(422);
  },
  'subscriptions-site-optional': async (clean, faulty) => {
    expect((await clean.accounts(paths.subscription)).status).toBe(400);
    const f = await faulty.accounts(paths.subscription);
    expect([f.status, (f.json as J).siteId]).toEqual([200, 'SITE001']);
  },
  'event-without-sns-id-served': async (clean, faulty) => {
    expect((await clean.accounts(paths.event)).status).toBe(403);
    const f = await faulty.accounts(paths.event);
    expect([f.status, typeof (f.json as J).eventId]).toEqual([200, 'number']);
  },
  'features-refused-with-site': async (clean, faulty) => {
    expect((await clean.accounts(paths.features, { site: 'SITE001' })).status).toBe(200);
    expect((await faulty.accounts(paths.features, { site: 'SITE001' })).json).toEqual({
      message: 'Features not found',
      code: 403,
    });
    expect((await faulty.accounts(paths.features)).status).toBe(200);
  },
  'features-need-site': async (clean, faulty) => {
    expect((await clean.accounts(paths.features)).status).toBe(200);
    expect((await faulty.accounts(paths.features)).status).toBe(403);
    expect((await faulty.accounts(paths.features, { site: 'SITE001' })).status).toBe(200);
  },
  'introspect-post-only': async (clean, faulty) => {
    expect((await clean.accounts(paths.introspect)).status).toBe(200);
    const f = await faulty.accounts(paths.introspect);
    expect([f.status, f.headers.get('allow')]).toEqual([405, 'POST']);
  },
  'user-details-refuses-client-token': async (clean, faulty) => {
    const asClient = async (s: TestSandbox) =>
      s.accounts(paths.userDetails, { token: await s.token('sandbox-client'), headers: { 'su-userid': 'U-1001' } });
    expect(((await asClient(clean)).json as J).userId).toBe('U-1001');
    expect((await asClient(faulty)).json).toEqual({ message: 'userId not found in authentication token', code: 400 });
    expect((await faulty.accounts(paths.userDetails)).status).toBe(200);
  },
  'user-details-without-user-id-served': async (clean, faulty) => {
    const asClient = async (s: TestSandbox) =>
      s.accounts(paths.userDetails, { token: await s.token('sandbox-client') });
    expect((await asClient(clean)).json).toEqual({ message: 'SU-UserId is missing', code: 422 });
    const f = await asClient(faulty);
    expect([f.status, (f.json as J).userId]).toEqual([200, 'U-1001']);
  },
  'client-account-unchecked': async (clean, faulty) => {
    const asNoAccount = async (s: TestSandbox) =>
      s.accounts(paths.userDetails, { token: await s.token('sandbox-noaccount'), headers: { 'su-userid': 'U-1001' } });
    expect((await asNoAccount(clean)).json).toEqual({ message: 'No account is associated for this client', code: 422 });
    const f = await asNoAccount(faulty);
    expect([f.status, (f.json as J).userId]).toEqual([200, 'U-1001']);
  },
  'features-client-token-served': async (clean, faulty) => {
    const asClient = async (s: TestSandbox) => s.accounts(paths.features, { token: await s.token('sandbox-client') });
    expect((await asClient(clean)).json).toEqual({ message: 'userId not found in authentication token', code: 400 });
    const f = await asClient(faulty);
    expect([f.status, Array.isArray((f.json as J).features)]).toEqual([200, true]);
  },
  'user-without-features-empty-role': async (clean, faulty) => {
    const asBob = async (s: TestSandbox) => s.accounts(paths.features, { token: await s.userToken('bob') });
    expect((await asBob(clean)).json).toEqual({ message: 'Features not found', code: 403 });
    const f = await asBob(faulty);
    expect([f.status, (f.json as J).features]).toEqual([200, []]);
  },
  'subscriptions-permission-unchecked': async (clean, faulty) => {
    const message = 'Loggedin user does not have permission to perform this operation.';
    expect((await clean.accounts(paths.subscription, { site: 'SITE002' })).json).toEqual({ message, code: 403 });
    const f = await faulty.accounts(paths.subscription, { site: 'SITE002' });
    expect([f.status, (f.json as J).siteId]).toEqual([200, 'SITE002']);
  },
  'token-details-invalid-uri-server-error': async (clean, faulty) => {
    expect((await tokenDetails(clean, 'not a url', basicAuth())).status).toBe(400);
    expect((await tokenDetails(faulty, 'not a url', basicAuth())).status).toBe(500);
    expect((await tokenDetails(faulty, 'https://unregistered.example/callback', basicAuth())).status).toBe(400);
    expect((await tokenDetails(faulty, 'https://app.example/callback', basicAuth())).status).toBe(200);
  },
  'revoke-hint-mismatch-server-error': async (clean, faulty) => {
    for (const [s, status] of [
      [clean, 200],
      [faulty, 500],
    ] as const) {
      const { access_token } = await s.signIn();
      expect((await revoke(s, { token: access_token, token_type_hint: 'refresh_token' })).status).toBe(status);
    }
    // A refresh token hinted as one is revoked as before.
    const { refresh_token } = await faulty.signIn();
    expect((await revoke(faulty, { token: refresh_token, token_type_hint: 'refresh_token' })).status).toBe(200);
    expect(await refreshStatus(faulty, refresh_token)).toBe(400);
  },
  'revoke-secret-unchecked': async (clean, faulty) => {
    const wrong = basicAuth('sandbox-client', 'wrong-secret-0000');
    for (const [s, status, after] of [
      [clean, 401, 200],
      [faulty, 200, 401],
    ] as const) {
      const { access_token } = await s.signIn();
      expect((await revoke(s, { token: access_token }, wrong)).status).toBe(status);
      expect(await introspectStatus(s, access_token)).toBe(after);
    }
  },
  'token-details-bearer-accepted': async (clean, faulty) => {
    for (const [s, status] of [
      [clean, 401],
      [faulty, 200],
    ] as const) {
      const bearer = `Bearer ${await s.token('sandbox-client')}`;
      expect((await tokenDetails(s, 'https://app.example/callback', bearer)).status).toBe(status);
    }
  },
  'accounts-json-as-text': async (clean, faulty) => {
    expect((await clean.accounts(paths.features)).headers.get('content-type')).toMatch(/^application\/json/);
    const f = await faulty.accounts(paths.features);
    expect([f.status, f.headers.get('content-type'), typeof (f.json as J).roleId]).toEqual([
      200,
      'text/plain; charset=utf-8',
      'string',
    ]);
  },
  'subscription-plan-slab-text': async (clean, faulty) => {
    const slab = async (s: TestSandbox) => {
      const subs = ((await s.accounts(paths.subscription, { site: 'SITE001' })).json as J).subscriptions;
      return (Array.isArray(subs) ? subs[0] : subs).plan.planSlab;
    };
    expect(typeof (await slab(clean))).toBe('number');
    expect(await slab(faulty)).toBe(String(await slab(clean)));
  },
  'site-users-user-id-renamed': async (clean, faulty) => {
    const first = async (s: TestSandbox) =>
      ((await s.accounts(paths.siteUsers('SITE001'), { site: 'SITE001' })).json as J).users[0];
    const c = await first(clean);
    const f = await first(faulty);
    expect([f.userId, f.id]).toEqual([undefined, c.userId]);
  },
  'sites-v1-paged-object': async (clean, faulty) => {
    const c = (await clean.accounts(paths.sitesV1)).json as J[];
    expect(Array.isArray(c)).toBe(true);
    expect((await faulty.accounts(paths.sitesV1)).json).toMatchObject({
      sites: c,
      pagination: { totalRecords: c.length },
    });
  },
  'inactive-patient-update-stored': async (clean, faulty) => {
    for (const [s, gender] of [
      [clean, 'unchanged'],
      [faulty, 'other'],
    ] as const) {
      const before = (await s.patient('GET', paths.patient('PAT-0002'))).json as J;
      expect(before.active).toBe(false);
      const x = await s.patient('PUT', paths.updatePatient('PAT-0002'), { ...before, gender: 'other' });
      expect([x.status, JSON.stringify(x.json)]).toEqual([422, expect.stringContaining('INVALID_RESOURCE')]);
      const after = (await s.patient('GET', paths.patient('PAT-0002'))).json as J;
      expect(after.gender === before.gender ? 'unchanged' : after.gender).toBe(gender);
    }
  },
  'episode-type-named-name': async (clean, faulty) => {
    const first = async (s: TestSandbox) =>
      ((await s.get(paths.episodeTypes, { token: await s.diaryToken() })).json as J).data[0];
    const c = await first(clean);
    expect(typeof c.type).toBe('string');
    expect(await first(faulty)).toEqual({ id: c.id, name: c.type, description: c.description });
  },
  'recurrence-type-id-as-code': async (clean, faulty) => {
    const first = async (s: TestSandbox) =>
      ((await s.get(paths.recurrenceTypes, { token: await s.diaryToken() })).json as J).data[0];
    const c = await first(clean);
    expect(c.id).toBeDefined();
    expect(await first(faulty)).toEqual({ code: c.id, type: c.type, description: c.description });
  },
  'diary-refreshed-token-unstored': async (clean, faulty) => {
    for (const [s, listed] of [
      [clean, 200],
      [faulty, 401],
    ] as const) {
      const token = await s.diaryToken();
      const r: J = (await s.request('POST', paths.diaryRefresh, { headers: { authorization: `Bearer ${token}` } }))
        .json;
      expect([r.response, typeof r.access_token]).toEqual([2, 'string']);
      expect((await s.get(paths.episodeTypes, { token: r.access_token })).status).toBe(listed);
      // The post-authorisation token stays good.
      expect((await s.get(paths.episodeTypes, { token })).status).toBe(200);
    }
  },
  'diary-postauth-token-unstored': async (clean, faulty) => {
    for (const [s, listed, refreshed] of [
      [clean, 200, 2],
      [faulty, 401, 1],
    ] as const) {
      const a: J = (await s.multipart(paths.diaryPostAuth, { Code: 'DIARY-OK' })).json;
      expect([a.response, typeof a.access_token]).toEqual([2, 'string']);
      expect((await s.get(paths.recurrenceTypes, { token: a.access_token })).status).toBe(listed);
      const r = await s.request('POST', paths.diaryRefresh, { headers: { authorization: `Bearer ${a.access_token}` } });
      expect((r.json as J).response).toBe(refreshed);
    }
  },
  'user-info-flattened': async (clean, faulty) => {
    const path = withQuery(paths.userInfo, { code: 'CODE-0001' });
    const c: J = (await clean.accounts(path)).json;
    expect(Object.keys(c).sort()).toEqual(['homesite', 'site', 'user']);
    const f = await faulty.accounts(path);
    expect([f.status, f.json]).toEqual([200, c.user]);
  },
  'event-info-as-list': async (clean, faulty) => {
    const path = withQuery(paths.event, { sns_id: 'SNS-0001' });
    const c: J = (await clean.accounts(path)).json;
    expect(typeof c.eventId).toBe('number');
    const f = await faulty.accounts(path);
    expect([f.status, f.json]).toEqual([200, [c]]);
  },
  'event-read-by-event-id': async (clean, faulty) => {
    const path = withQuery(paths.event, { sns_id: 'SNS-0001' });
    const c: J = (await clean.accounts(path)).json;
    expect((await faulty.accounts(path)).json).toEqual({ message: 'eventId is missing', code: 400 });
    const byEventId = await faulty.accounts(withQuery(paths.event, { sns_id: 'SNS-0001', eventId: String(c.eventId) }));
    expect([byEventId.status, (byEventId.json as J).eventId]).toEqual([200, c.eventId]);
  },
  'patient-family-name-required': async (clean, faulty) => {
    const bare = { resourceType: 'Patient' };
    expect((await clean.patient('POST', paths.createPatient, bare)).status).toBe(201);
    const f = await faulty.patient('POST', paths.createPatient, bare);
    expect([f.status, errorCode(f.json)]).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
    const named = { resourceType: 'Patient', name: [{ family: 'Conformance', given: ['Ann'] }] };
    expect((await faulty.patient('POST', paths.createPatient, named)).status).toBe(201);
  },
  'patient-create-answers-id-only': async (clean, faulty) => {
    const sent = { resourceType: 'Patient', name: [{ family: 'Conformance', given: ['Ann'] }], gender: 'female' };
    expect((await clean.patient('POST', paths.createPatient, sent)).json).toMatchObject(sent);
    const f: J = (await faulty.patient('POST', paths.createPatient, sent)).json;
    expect(Object.keys(f).sort()).toEqual(['active', 'id', 'resourceType']);
    // What was sent is stored: get returns it.
    expect((await faulty.patient('GET', paths.patient(f.id))).json).toMatchObject(sent);
  },
  'condition-note-dated': async (clean, faulty) => {
    const sent = {
      resourceType: 'Condition',
      evidence: [
        {
          detail: [
            {
              display: 'scan.pdf',
              identifier: { id: 'ATT-9001', system: 'document-store', value: 'https://files.example/att/ATT-9001' },
            },
          ],
        },
      ],
      note: [{ text: 'Back pain', authorReference: { reference: 'patient/PAT-0001' } }],
    };
    const c: J = (await clean.patient('POST', paths.condition, sent)).json;
    expect([c.note[0].text, c.evidence[0].detail[0].display]).toEqual(['Back pain', 'scan.pdf']);
    const f: J = (await faulty.patient('POST', paths.condition, sent)).json;
    expect([f.note[0].text, f.evidence[0].detail[0].display]).toEqual(['2026-11-21: Back pain', 'SCAN.PDF']);
  },
  'payor-create-not-stored': async (clean, faulty) => {
    for (const [s, listed] of [
      [clean, true],
      [faulty, false],
    ] as const) {
      for (const authority of ['Organization/CONF-INS', 'Person/CONF-CONTACT']) {
        const a = await s.contract('POST', paths.contract, payorBody(authority));
        expect([a.status, typeof (a.json as J).id]).toEqual([200, 'string']);
        expect(payorRefs((await s.contract('GET', paths.sitePayors('SITE001'))).json).includes(authority)).toBe(listed);
      }
    }
  },
  'payor-delete-not-applied': async (clean, faulty) => {
    for (const [s, listed] of [
      [clean, false],
      [faulty, true],
    ] as const) {
      for (const [authority, payorType] of [
        ['Organization/CONF-INS', 'I'],
        ['Person/CONF-CONTACT', 'C'],
      ]) {
        const id = ((await s.contract('POST', paths.contract, payorBody(authority))).json as J).id;
        const query = { payorId: authority, payorType, providerGroup: id };
        const del = await s.contract('DELETE', withQuery(paths.contractSite('SITE001'), query));
        expect([del.status, errorCode(del.json)]).toEqual([200, 'MSG_DELETED_ID']);
        expect(payorRefs((await s.contract('GET', paths.sitePayors('SITE001'))).json).includes(authority)).toBe(listed);
      }
    }
  },
  'sites-v2-invalid-paging-server-error': async (clean, faulty) => {
    const invalid: Record<string, string>[] = [{ pageNumber: '0' }, { pageNumber: 'abc' }, { maxRecordsPerPage: '-1' }];
    for (const query of invalid) {
      expect((await clean.accounts(withQuery(paths.sitesV2, query))).status).toBeLessThan(500);
      expect((await faulty.accounts(withQuery(paths.sitesV2, query))).status).toBe(500);
    }
    // Valid pages, and a page beyond the last, are served as before.
    const page = { pageNumber: '2', maxRecordsPerPage: '3' };
    expect(ids(await sitesV2(faulty, page))).toEqual(ids(await sitesV2(clean, page)));
    expect((await faulty.accounts(withQuery(paths.sitesV2, { pageNumber: '9999' }))).status).toBe(200);
  },
  'diary-post-auth-without-code-server-error': async (clean, faulty) => {
    expect((await clean.multipart(paths.diaryPostAuth, { StateToken: 'S-1' })).status).toBe(200);
    expect((await faulty.multipart(paths.diaryPostAuth, { StateToken: 'S-1' })).status).toBe(500);
    expect(((await faulty.multipart(paths.diaryPostAuth, { Code: 'DIARY-OK' })).json as J).response).toBe(2);
  },
  'diary-lists-token-in-query-only': async (clean, faulty) => {
    for (const path of [paths.episodeTypes, paths.appointmentStatuses, paths.recurrenceTypes]) {
      expect((await clean.get(path, { token: await clean.diaryToken() })).status).toBe(200);
      const token = await faulty.diaryToken();
      const f = await faulty.get(path, { token });
      expect([f.status, f.text]).toEqual([401, '']);
      expect((await faulty.get(withQuery(path, { access_token: token }), { token: null })).status).toBe(200);
    }
  },
  'patient-read-not-modified': async (clean, faulty) => {
    const c = await clean.patient('GET', paths.patient('PAT-0001'));
    expect([c.status, (c.json as J).id]).toEqual([200, 'PAT-0001']);
    const f = await faulty.patient('GET', paths.patient('PAT-0001'));
    expect([f.status, f.headers.get('etag'), f.text]).toEqual([304, 'W/"PAT-0001"', '']);
    // Other patient operations are served as before.
    expect((await faulty.patient('POST', paths.createPatient, { resourceType: 'Patient' })).status).toBe(201);
  },
  'patient-unparsable-body-unsupported-media': async (clean, faulty) => {
    const c = await clean.patient('POST', paths.createPatient, '{not json');
    expect([c.status, errorCode(c.json)]).toEqual([400, 'MSG_CANT_PARSE_CONTENT']);
    const f = await faulty.patient('POST', paths.createPatient, '{not json');
    expect([f.status, errorCode(f.json)]).toEqual([415, 'MSG_UNSUPPORTED_MEDIA_TYPE']);
    expect((await faulty.patient('POST', paths.createPatient, { resourceType: 'Patient' })).status).toBe(201);
  },
  'patient-invalid-extension-400': async (clean, faulty) => {
    const extension = [{ url: 'https://ref.example/extension/patient/no-such-extension', valueString: 'x' }];
    for (const [s, status] of [
      [clean, 422],
      [faulty, 400],
    ] as const) {
      const before = (await s.patient('GET', paths.patient('PAT-0001'))).json as J;
      const x = await s.patient('PUT', paths.updatePatient('PAT-0001'), { ...before, extension });
      expect([x.status, errorCode(x.json)]).toEqual([status, 'INVALID_EXTENSION']);
    }
  },
  'contract-delete-missing-server-error': async (clean, faulty) => {
    const query = { indStdCode: 'NO-SUCH-SVC-000', indStdCodeScheme: 'ISC' };
    const path = withQuery(paths.contractPriceSite('SITE001'), query);
    const payor = withQuery(paths.contractSite('SITE001'), {
      payorId: 'Organization/bup',
      payorType: 'I',
      providerGroup: 'NO-SUCH-CONTRACT-000',
    });
    for (const p of [path, payor]) {
      expect((await clean.contract('DELETE', p)).status).toBe(404);
      expect((await faulty.contract('DELETE', p)).status).toBe(500);
    }
  },
  'contract-value-sets-not-modified': async (clean, faulty) => {
    for (const path of [paths.contractTypes, paths.contractSubtypes]) {
      const c = await clean.contract('GET', path);
      expect([c.status, (c.json as J).resourceType]).toEqual([200, 'ValueSet']);
      const f = await faulty.contract('GET', path);
      expect([f.status, f.headers.get('etag'), f.text]).toEqual([304, expect.stringMatching(/^W\//), '']);
    }
    expect((await faulty.contract('GET', paths.sitePayors('SITE001'))).status).toBe(200);
  },
  'effective-prices-site-dropped-with-payor': async (clean, faulty) => {
    const subjects = async (s: TestSandbox, query: Record<string, string>) =>
      ((await s.contract('GET', withQuery(paths.effectivePrices, query))).json as J).entry.flatMap((e: J) =>
        (e.resource.subject ?? []).map((x: J) => x.reference).filter((r: string) => r.startsWith('Site/')),
      );
    const withPayor = { site: 'SITE001', payor: 'bup', count: '50' };
    // The reference answers the requested site's prices only; the faulty one every site's.
    expect(new Set(await subjects(clean, withPayor))).toEqual(new Set(['Site/SITE001']));
    expect(new Set(await subjects(faulty, withPayor))).toEqual(new Set(['Site/SITE001', 'Site/SITE002']));
    expect(new Set(await subjects(faulty, { site: 'SITE001', count: '50' }))).toEqual(new Set(['Site/SITE001']));
  },
  'effective-prices-count-tag-default': async (clean, faulty) => {
    const path = withQuery(paths.effectivePrices, { site: 'SITE001', page: '1', count: '1' });
    const c: J = (await clean.contract('GET', path)).json;
    expect([c.entry.length, tags(c).count]).toEqual([1, '1']);
    const f: J = (await faulty.contract('GET', path)).json;
    expect([f.entry.length, tags(f).count]).toEqual([1, '10']);
  },
  'effective-prices-unpriced-not-found': async (clean, faulty) => {
    const path = withQuery(paths.effectivePrices, { site: 'SITE001', 'service-code': 'NO-SUCH-SERVICE-000' });
    const c = await clean.contract('GET', path);
    expect([c.status, (c.json as J).entry ?? []]).toEqual([200, []]);
    const f = await faulty.contract('GET', path);
    expect([f.status, errorCode(f.json)]).toEqual([404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE']);
    expect((await faulty.contract('GET', withQuery(paths.effectivePrices, { site: 'SITE001' }))).status).toBe(200);
  },
  'sites-unknown-token-empty-list': async (clean, faulty) => {
    for (const path of [paths.sitesV1, paths.sitesV2]) {
      expect((await clean.accounts(path, { token: 'not-a-valid-token-0000' })).status).toBe(401);
      const f = await faulty.accounts(path, { token: 'not-a-valid-token-0000' });
      expect([f.status, Array.isArray(f.json) ? f.json : (f.json as J).sites]).toEqual([200, []]);
      // Without a token the request is still refused; alice still sees her sites.
      expect((await faulty.accounts(path, { token: null })).status).toBe(401);
      expect((await faulty.accounts(path)).status).toBe(200);
    }
  },
  'accounts-refusal-carries-data': async (clean, faulty) => {
    for (const token of [null, 'not-a-valid-token-0000']) {
      const c = await clean.accounts(paths.sitesV1, { token });
      expect([c.status, Array.isArray(c.json)]).toEqual([401, false]);
      // Refused, as the clean sandbox, yet carrying the sites a signed-in user would see.
      const f = await faulty.accounts(paths.sitesV1, { token });
      expect(f.status).toBe(401);
      expect((f.json as J[]).length).toBeGreaterThan(0);
    }
    // A live token is served as before.
    expect((await faulty.accounts(paths.sitesV1)).status).toBe(200);
  },
  'user-details-inaccessible-user-not-found': async (clean, faulty) => {
    const asClient = async (s: TestSandbox, user: string) =>
      s.accounts(paths.userDetails, { token: await s.token('sandbox-client'), headers: { 'su-userid': user } });
    const c = await asClient(clean, 'U-1003');
    expect(c.status).toBe(403);
    expect((c.json as J).message).toMatch(/does not have access to this user/);
    expect((await asClient(faulty, 'U-1003')).json).toEqual({ message: 'User U-1003 not found', code: 404 });
    expect(((await asClient(faulty, 'U-1001')).json as J).userId).toBe('U-1001');
  },
  'event-invalid-sns-id-400': async (clean, faulty) => {
    const path = withQuery(paths.event, { sns_id: 'NO-SUCH-SNS-000' });
    expect((await clean.accounts(path)).json).toEqual({ message: 'SNS_ID is Invalid.', code: 403 });
    const f = await faulty.accounts(path);
    expect([f.status, f.json]).toEqual([400, { message: 'SNS_ID is Invalid.', code: 400 }]);
  },
  'token-details-missing-uri-not-signed-in': async (clean, faulty) => {
    const path = paths.tokenDetails('nhs');
    const c = await clean.request('GET', path, { headers: { authorization: basicAuth() } });
    expect([c.status, (c.json as J).message]).toEqual([400, 'redirect_uri is required']);
    const f = await faulty.request('GET', path, { headers: { authorization: basicAuth() } });
    expect([f.status, (f.json as J).message]).toEqual([400, 'User not logged in with NHS account']);
    expect((await tokenDetails(faulty, 'https://app.example/callback', basicAuth())).status).toBe(200);
  },
};

describeRowFaults('Document 3', D3_ROW_FAULTS, SCENARIOS);
