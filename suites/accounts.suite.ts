/**
 * Accounts and subscriptions (Document 3, 2.2, 4.1, 5, 7): each operation with a user token, and
 * every message of the section 7 table provoked on purpose with the credential that causes it
 * (user, user without features, client-credentials tokens with and without an active account).
 */
import { test } from 'vitest';
import { accountsErrorAnswer, accountsErrorBody, requestRefused, sitesMatchSearch, sitesV2PagesDisjoint, sitesV2Pagination } from '../checks/index.ts';
import type { Exchange } from '../core/exchange.ts';
import { bodyOf, hasResponse, isRecord } from '../core/exchange.ts';
import type { CallOptions } from '../core/suite.ts';
import { call, describeOperation, record, runContext, tokenFor, verify } from '../core/suite.ts';
import { operation } from '../spec/operations.ts';
import { CREDENTIAL_CHECK, FIXTURE_CHECK, verifySuccess } from './common/steps.ts';

const A = () => runContext().fixtures.accounts ?? {};

/** Calls an operation as a named credential; undefined (and a skip) when the config lacks it. */
async function as(id: string, who: string, options: CallOptions, requirements: string[]): Promise<Exchange | undefined> {
  const token = await tokenFor(who);
  if (!token) {
    record(CREDENTIAL_CHECK, 'skip', `No credential "${who}" in the config (credentials.${who})`, { operation: id, level: 'MUST', requirements, decisions: ['DEC-D3-03'] });
    return undefined;
  }
  return call(id, { ...options, values: { ...options.values, token } });
}

/** A section 7 answer: exact status and message template, and the `{message, code}` body. */
function verifyAccountsError(x: Exchange | undefined, id: string, message: string, requirements: string[]): void {
  if (!x) return;
  const entry = operation(id).errors.find((e) => e.code === message);
  if (!entry) throw new Error(`Suite bug: ${id} has no documented message ${message}`);
  verify(x, accountsErrorAnswer({ status: entry.status, message }), { operation: id, level: 'MUST', requirements, decisions: ['DEC-D3-04'] });
  verify(x, accountsErrorBody, { operation: id, level: 'MUST', requirements: ['D3-7-01'], decisions: ['DEC-D3-04'] });
}

describeOperation('introspect', () => {
  const id = 'introspect';
  test('a user token is introspected, with and without a site to switch to', async () => {
    for (const withSite of [false, true]) {
      const x = await as(id, 'user', { omitHeaders: withSite ? [] : ['SU-SiteId'] }, ['D3-4.1-02']);
      if (x) verifySuccess(x, id, { success: ['D3-4.1-02'], schema: ['D3-4.1-02'] }, { status: 200 });
    }
  });

  test('a site not connected to the user, and an inactive site, are refused with 403', async () => {
    const { unconnectedSiteId, inactiveSiteId } = A();
    if (unconnectedSiteId) verifyAccountsError(await as(id, 'user', { headers: { 'SU-SiteId': unconnectedSiteId } }, ['D3-7-06']), id, 'The SU-Site <site_id> and SU-User <user_id> authorisation is invalid', ['D3-7-06', 'D3-4.1-04']);
    else record(FIXTURE_CHECK, 'skip', 'No fixture accounts.unconnectedSiteId', { operation: id, level: 'MUST', requirements: ['D3-7-06'] });
    if (inactiveSiteId) verifyAccountsError(await as(id, 'user', { headers: { 'SU-SiteId': inactiveSiteId } }, ['D3-7-07']), id, 'The SU-Site <site_id> status should be ACTIVE', ['D3-7-07']);
    else record(FIXTURE_CHECK, 'skip', 'No fixture accounts.inactiveSiteId', { operation: id, level: 'MUST', requirements: ['D3-7-07'] });
  });

  test('client-credentials tokens without an active client account are refused with 422', async () => {
    verifyAccountsError(await as(id, 'clientWithoutAccount', { omitHeaders: ['SU-SiteId'] }, ['D3-7-04']), id, 'No account is associated for this client', ['D3-7-04']);
    verifyAccountsError(await as(id, 'clientInactive', { omitHeaders: ['SU-SiteId'] }, ['D3-7-05']), id, 'The client account <client_account> status should be ACTIVE', ['D3-7-05']);
  });

  test('a request without a token is refused', async () => {
    verify(await call(id, { omitHeaders: ['Authorization', 'SU-SiteId'] }), requestRefused, { operation: id, level: 'MUST', requirements: ['D3-5-01'] });
  });
});

describeOperation('list-features', () => {
  const id = 'list-features';
  test('a user with features gets the role object', async () => {
    const x = await as(id, 'user', { omitHeaders: ['SU-SiteId'] }, ['D3-4.1-08']);
    if (x) verifySuccess(x, id, { success: ['D3-4.1-08'], schema: ['D3-2.2-02'] }, { status: 200 });
  });
  test('a user without features gets 403; a token without user 400', async () => {
    verifyAccountsError(await as(id, 'userWithoutFeatures', { omitHeaders: ['SU-SiteId'] }, ['D3-7-08']), id, 'Features not found', ['D3-7-08']);
    verifyAccountsError(await as(id, 'client', { omitHeaders: ['SU-SiteId'] }, ['D3-7-03']), id, 'userId not found in authentication token', ['D3-7-03']);
  });
});

describeOperation('get-user-info', () => {
  const id = 'get-user-info';
  test('a valid code gives the user info; an invalid one 422', async () => {
    const code = A().userInfoCode;
    if (code) {
      const x = await as(id, 'user', { query: { code } }, ['D3-4.1-11']);
      if (x) verifySuccess(x, id, { success: ['D3-4.1-11'], schema: ['D3-2.2-07'] }, { status: 200 });
    } else record(FIXTURE_CHECK, 'skip', 'No fixture accounts.userInfoCode', { operation: id, level: 'MUST', requirements: ['D3-4.1-11'] });
    verifyAccountsError(await as(id, 'user', { query: { code: 'NO-SUCH-CODE-000' } }, ['D3-7-09']), id, 'Secret code not found', ['D3-7-09']);
  });
});

const siteStatus = (s: unknown) => (isRecord(s) ? s.status : undefined);

describeOperation('list-authorised-sites-v1', () => {
  const id = 'list-authorised-sites-v1';
  test('the user\'s active sites are listed', async () => {
    const x = await as(id, 'user', {}, ['D3-4.1-13']);
    if (!x || !verifySuccess(x, id, { success: ['D3-4.1-13'], schema: ['D3-2.2-12'] }, { status: 200 })) return;
    const sites = Array.isArray(bodyOf(x)) ? (bodyOf(x) as unknown[]) : [];
    const inactive = sites.filter((s) => siteStatus(s) !== 'ACTIVE');
    record({ id: 'only-active-sites', summary: 'Only active sites are listed' }, inactive.length === 0 ? 'pass' : 'fail',
      inactive.length === 0 ? `${sites.length} sites, all ACTIVE` : `Expected only ACTIVE sites, received ${inactive.length} with another status`,
      { operation: id, level: 'MUST', requirements: ['D3-4.1-14'], exchange: x, decisions: ['DEC-D3-26'] });
  });
});

describeOperation('list-authorised-sites-v2', () => {
  const id = 'list-authorised-sites-v2';
  test('pagination: pages, counts and links agree; pages do not overlap', async () => {
    const max = 4;
    const pages = [];
    let complete = false;
    for (let page = 1; page <= 15; page++) {
      const x = await as(id, 'user', { query: { pageNumber: String(page), maxRecordsPerPage: String(max) } }, ['D3-4.1-18']);
      if (!x || !verifySuccess(x, id, { success: ['D3-4.1-16'], schema: ['D3-4.1-17', 'D3-2.2-12'] }, { status: 200 }) || !hasResponse(x)) return;
      verify(x, sitesV2Pagination({ pageNumber: page, maxRecordsPerPage: max }), { operation: id, level: 'MUST', requirements: ['D3-4.1-18', 'D3-4.1-19', 'D3-4.1-20', 'D3-4.1-21', 'D3-4.1-22'], decisions: ['DEC-D3-05'] });
      pages.push(x);
      const body = bodyOf(x);
      const p = isRecord(body) && isRecord(body.pagination) ? body.pagination : {};
      if (p.nextPage === null || p.nextPage === undefined) {
        complete = true;
        break;
      }
    }
    if (pages.length) verify({ pages, complete }, sitesV2PagesDisjoint, { operation: id, level: 'MUST', requirements: ['D3-4.1-23'], exchange: pages[pages.length - 1], decisions: ['DEC-D3-05'] });
  });

  test('search keeps sites by id or name', async () => {
    const search = A().siteSearch;
    if (!search) return record(FIXTURE_CHECK, 'skip', 'No fixture accounts.siteSearch', { operation: id, level: 'MUST', requirements: ['D3-4.1-18'] });
    const x = await as(id, 'user', { query: { search, maxRecordsPerPage: '50' } }, ['D3-4.1-18']);
    if (x && verifySuccess(x, id, { success: ['D3-4.1-16'] }, { status: 200 })) verify(x, sitesMatchSearch(search), { operation: id, level: 'MUST', requirements: ['D3-4.1-24', 'D3-4.1-25'], decisions: ['DEC-D3-05'] });
  });
});

describeOperation('list-site-subscriptions', () => {
  const id = 'list-site-subscriptions';
  test('the site\'s subscriptions; a site without access is 403', async () => {
    const x = await as(id, 'user', {}, ['D3-4.1-30']);
    if (x) verifySuccess(x, id, { success: ['D3-4.1-30'], schema: ['D3-2.2-16'] }, { status: 200 });
    const other = A().unconnectedSiteId;
    if (other) verifyAccountsError(await as(id, 'user', { headers: { 'SU-SiteId': other } }, ['D3-7-10']), id, 'Loggedin user does not have permission to perform this operation.', ['D3-7-10']);
    verify(await call(id, { omitHeaders: ['SU-SiteId'], values: { token: (await tokenFor('user')) ?? runContext().token } }), requestRefused, { operation: id, level: 'MUST', requirements: ['D3-4.1-31'] });
  });
});

describeOperation('get-user-details', () => {
  const id = 'get-user-details';
  test('a user token gives the user\'s details', async () => {
    const x = await as(id, 'user', { omitHeaders: ['SU-UserId'] }, ['D3-4.1-32']);
    if (x) verifySuccess(x, id, { success: ['D3-4.1-32'], schema: ['D3-2.2-20'] }, { status: 200 });
  });
  test('client-credentials tokens: SU-UserId required, accessible user only, active account only', async () => {
    const { userId, inaccessibleUserId } = A();
    verifyAccountsError(await as(id, 'client', { omitHeaders: ['SU-UserId'] }, ['D3-7-11']), id, 'SU-UserId is missing', ['D3-7-11', 'D3-5-03']);
    if (userId) {
      const x = await as(id, 'client', { values: { userId } }, ['D3-4.1-33']);
      if (x) verifySuccess(x, id, { success: ['D3-4.1-33', 'D3-5-02'], schema: ['D3-2.2-20'] }, { status: 200 });
    }
    if (inaccessibleUserId) verifyAccountsError(await as(id, 'client', { values: { userId: inaccessibleUserId } }, ['D3-7-12']), id, 'The client account <client_account> does not have access to this user <user_id>', ['D3-7-12']);
    verifyAccountsError(await as(id, 'clientWithoutAccount', { values: { userId: userId ?? 'U-1' } }, ['D3-7-04']), id, 'No account is associated for this client', ['D3-7-04']);
    verifyAccountsError(await as(id, 'clientInactive', { values: { userId: userId ?? 'U-1' } }, ['D3-7-05']), id, 'The client account <client_account> status should be ACTIVE', ['D3-7-05']);
  });
});

describeOperation('get-event-info', () => {
  const id = 'get-event-info';
  test('a known sns_id gives the event; an unknown one is 403', async () => {
    const snsId = A().snsId;
    if (snsId) {
      const x = await as(id, 'user', { query: { sns_id: snsId } }, ['D3-4.1-35']);
      if (x) verifySuccess(x, id, { success: ['D3-4.1-35'], schema: ['D3-2.2-25'] }, { status: 200 });
    }
    verifyAccountsError(await as(id, 'user', { query: { sns_id: 'NO-SUCH-SNS-000' } }, ['D3-7-13']), id, 'SNS_ID is Invalid.', ['D3-7-13']);
  });
});

describeOperation('get-site-users', () => {
  const id = 'get-site-users';
  test('users of a site, and the two HTTP 200 quirks', async () => {
    const site = runContext().siteId;
    const x = await as(id, 'user', { path: { siteId: site } }, ['D3-4.1-37']);
    if (x) verifySuccess(x, id, { success: ['D3-4.1-37'], schema: ['D3-2.2-23'] }, { status: 200 });
    const invalid = await as(id, 'user', { path: { siteId: 'NO-SUCH-SITE-000' } }, ['D3-4.1-38']);
    if (invalid && verifySuccess(invalid, id, { success: ['D3-4.1-38'] }, { status: 200 })) {
      const body = bodyOf(invalid);
      const ok = isRecord(body) && body.message === 'Siteid is invalid : NO-SUCH-SITE-000';
      record({ id: 'invalid-site-message', summary: 'An invalid site id is answered 200 with the documented message' }, ok ? 'pass' : 'fail',
        ok ? 'Siteid is invalid : NO-SUCH-SITE-000' : `Expected {message: "Siteid is invalid : NO-SUCH-SITE-000"}, received ${JSON.stringify(body).slice(0, 120)}`,
        { operation: id, level: 'MUST', requirements: ['D3-4.1-38'], exchange: invalid });
    }
    const empty = A().siteWithoutUsers;
    if (empty) {
      const e = await as(id, 'user', { path: { siteId: empty } }, ['D3-4.1-39']);
      if (e && verifySuccess(e, id, { success: ['D3-4.1-39'] }, { status: 200 })) {
        const body = bodyOf(e);
        const ok = isRecord(body) && Array.isArray(body.users) && body.users.length === 0;
        record({ id: 'empty-users-list', summary: 'A site without users is answered 200 with an empty users list' }, ok ? 'pass' : 'fail',
          ok ? 'users: []' : `Expected an empty users list, received ${JSON.stringify(body).slice(0, 120)}`, { operation: id, level: 'MUST', requirements: ['D3-4.1-39'], exchange: e });
      }
    }
  });
});
