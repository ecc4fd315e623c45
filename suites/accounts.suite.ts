/**
 * Accounts and subscriptions (Document 3, 2.2, 4.1, 5, 7): each operation with a user token, and
 * every message of the section 7 table provoked on purpose with the credential that causes it
 * (user, user without features, client-credentials tokens with and without an active account).
 */
import type { OperationId } from '../spec/operations.ts';
import { on } from '../core/suite.ts';
import { CREDENTIAL_CONFIGURED } from '../core/decidedOutcomes.ts';
import { test } from 'vitest';
import {
  accountsErrorAnswer,
  accountsErrorBody,
  answerNamesRequested,
  idsListed,
  listMemberEmpty,
  mediaTypeIs,
  membersPresent,
  messageIs,
  notServerError,
  refusalReturnsNoData,
  requestRefused,
  sitesActive,
  successStatus,
  sitesMatchSearch,
  sitesV2PagesDisjoint,
  sitesV2Pagination,
} from '../checks/index.ts';
import { siteIdOf } from '../checks/sites.ts';
import type { Exchange } from '../core/exchange.ts';
import { bodyOf, hasResponse, isRecord } from '../core/exchange.ts';
import type { CallOptions } from '../core/suite.ts';
import { call, describeOperation, runContext, tokenFor } from '../core/suite.ts';
import { operation } from '../spec/operations.ts';
import { verifySuccess } from './common/steps.ts';
import { describeDerivedRequests, fixturesFrom } from './common/derivedRequests.ts';

const A = () => runContext().fixtures.accounts ?? {};

/** Calls an operation as a named credential; undefined (and a skip) when the config lacks it. */
async function as(
  id: OperationId,
  who: string,
  options: CallOptions,
  requirements: string[],
): Promise<Exchange | undefined> {
  const token = await tokenFor(who);
  if (!token) {
    on(id)
      .must(...requirements)
      .under('DEC-D3-03')
      .decided(CREDENTIAL_CONFIGURED, 'skip', `No credential "${who}" in the config (credentials.${who})`);
    return undefined;
  }
  return call(id, { ...options, values: { ...options.values, token } });
}

/**
 * D3 5 / DEC-D3-39: "Accounts operations: `Authorization: Bearer <ACCESS_TOKEN>`." A request without
 * a token, and one with an unknown token, each otherwise the request of the operation's success
 * step, must be refused with a 4xx status and return no data (no success answer in the refusal).
 */
function tokenRequired(id: OperationId, options: () => CallOptions | Promise<CallOptions>): void {
  test('a request without a token, or with an unknown one, is refused', async () => {
    const base = await options();
    const schema = operation(id).responseSchema;
    const noData = schema === undefined ? undefined : refusalReturnsNoData(schema);
    const without = await call(id, { ...base, omitHeaders: [...(base.omitHeaders ?? []), 'Authorization'] });
    on(id).must('D3-5-01').under('DEC-D3-39').check(without, requestRefused, { request: 'without a token' });
    if (noData) on(id).must('D3-5-01').under('DEC-D3-39').check(without, noData, { request: 'without a token' });
    const unknown = await call(id, { ...base, values: { ...base.values, token: 'not-a-valid-token-0000' } });
    on(id).must('D3-5-01').under('DEC-D3-39').check(unknown, requestRefused, { request: 'an unknown bearer token' });
    if (noData)
      on(id).must('D3-5-01').under('DEC-D3-39').check(unknown, noData, { request: 'an unknown bearer token' });
  });
}

/** A section 7 answer: exact status and message template, and the `{message, code}` body. */
function verifyAccountsError(x: Exchange | undefined, id: OperationId, message: string, requirements: string[]): void {
  if (!x) return;
  const entry = operation(id).errors.find((e) => e.code === message);
  if (!entry) throw new Error(`Suite bug: ${id} has no documented message ${message}`);
  on(id)
    .must(...requirements, 'D3-7-14')
    .under('DEC-D3-04')
    .check(x, accountsErrorAnswer({ status: entry.status, message }));
  on(id).must('D3-7-01', 'D3-2.2-01').under('DEC-D3-04').check(x, accountsErrorBody);
}

/**
 * A successful accounts answer: documented shape, `application/json` (SHOULD) and, where named, every member
 * present (SHOULD).
 */
function verifyAccountsSuccess(
  x: Exchange,
  id: OperationId,
  success: string[],
  schema: string[],
  members?: { paths: string[]; requirements: string[] },
): boolean {
  if (!verifySuccess(x, id, { success: [...success, 'D3-4.1-01', 'D3-1-01'], schema }, { status: 200 })) return false;
  on(id).should('D3-4-03').under('DEC-D3-20').check(x, mediaTypeIs('application/json'));
  if (members)
    on(id)
      .should(...members.requirements)
      .under('DEC-D3-22')
      .check(x, membersPresent(members.paths));
  return true;
}

const SITE_MEMBERS = ['identifier'];

/**
 * Fixtures are declared on the tests that need them (core/suite.ts `op.test(name, needs, fn)`):
 * without one the test records one `fixture-configured` skip citing its rows, and a value the
 * target answers it does not know (a 4xx "not found" of the table, e.g. `Secret code not found`)
 * on a success step is a `fixture-held` skip naming it (suites/common/steps.ts), never a MUST
 * failure of the server. Steps that need no fixture stay in tests of their own.
 */
describeOperation('introspect', (op) => {
  const id = 'introspect';
  test('a user token is introspected, with and without a site to switch to', async () => {
    for (const withSite of [false, true]) {
      const x = await as(id, 'user', { omitHeaders: withSite ? [] : ['SU-SiteId'] }, ['D3-4.1-02']);
      if (x) verifyAccountsSuccess(x, id, withSite ? ['D3-4.1-02', 'D3-4.1-03'] : ['D3-4.1-02'], ['D3-4.1-02']);
    }
  });

  const unconnected = { fixtures: ['accounts.unconnectedSiteId'], cites: ['D3-7-06'] } as const;
  op.test('a site not connected to the user is refused with 403', unconnected, async ([site]) => {
    verifyAccountsError(
      await as(id, 'user', { headers: { 'SU-SiteId': site } }, ['D3-7-06']),
      id,
      'The SU-Site <site_id> and SU-User <user_id> authorisation is invalid',
      ['D3-7-06', 'D3-4.1-04'],
    );
  });

  const inactive = { fixtures: ['accounts.inactiveSiteId'], cites: ['D3-7-07'] } as const;
  op.test('an inactive site is refused with 403', inactive, async ([site]) => {
    verifyAccountsError(
      await as(id, 'user', { headers: { 'SU-SiteId': site } }, ['D3-7-07']),
      id,
      'The SU-Site <site_id> status should be ACTIVE',
      ['D3-7-07'],
    );
  });

  test('a client token with an active account: success, or 400 for a token without a user', async () => {
    const x = await as(id, 'client', { omitHeaders: ['SU-SiteId'] }, ['D3-4.1-06']);
    if (!x) return;
    // DEC-D3-40: either answer passes; a 400 must be the documented one, anything else must be the success answer.
    if (hasResponse(x) && x.response.status === 400)
      verifyAccountsError(x, id, 'userId not found in authentication token', ['D3-4.1-06']);
    else verifyAccountsSuccess(x, id, ['D3-4.1-06'], ['D3-4.1-06']);
  });

  test('client-credentials tokens without an active client account are refused with 422', async () => {
    verifyAccountsError(
      await as(id, 'clientWithoutAccount', { omitHeaders: ['SU-SiteId'] }, ['D3-7-04']),
      id,
      'No account is associated for this client',
      ['D3-7-04'],
    );
    verifyAccountsError(
      await as(id, 'clientInactive', { omitHeaders: ['SU-SiteId'] }, ['D3-7-05']),
      id,
      'The client account <client_account> status should be ACTIVE',
      ['D3-7-05'],
    );
  });

  tokenRequired(id, () => ({ omitHeaders: ['SU-SiteId'] }));
});

describeOperation('list-features', () => {
  const id = 'list-features';
  tokenRequired(id, () => ({ omitHeaders: ['SU-SiteId'] }));
  test('a user with features gets the role object', async () => {
    const x = await as(id, 'user', { omitHeaders: ['SU-SiteId'] }, ['D3-4.1-08']);
    if (x)
      verifyAccountsSuccess(x, id, ['D3-4.1-08'], ['D3-4.1-08', 'D3-2.2-02', 'D3-2.2-03', 'D3-2.2-04'], {
        paths: [
          'roleId',
          'code',
          'name',
          'status',
          'features[].id',
          'features[].name',
          'features[].code',
          'features[].identifier',
          'features[].description',
          'features[].status',
          'clientassignable',
          'siteassignable',
          'userassignable',
          'accountmanagerassignable',
          'publicaccess',
          'productGroup.id',
          'productGroup.name',
          'productGroup.identifier',
          'productGroup.description',
          'createdby',
        ],
        requirements: ['D3-2.2-05'],
      });
  });
  test("with the optional SU-SiteId of the run's site, the role object", async () => {
    const x = await as(id, 'user', {}, ['D3-4.1-09']);
    if (x)
      verifySuccess(
        x,
        id,
        { success: ['D3-4.1-09'], schema: ['D3-4.1-09', 'D3-2.2-02'] },
        { status: 200, decisions: ['DEC-D3-42'] },
      );
  });
  test('a user without features gets 403; a token without user 400', async () => {
    verifyAccountsError(
      await as(id, 'userWithoutFeatures', { omitHeaders: ['SU-SiteId'] }, ['D3-7-08']),
      id,
      'Features not found',
      ['D3-7-08'],
    );
    verifyAccountsError(
      await as(id, 'client', { omitHeaders: ['SU-SiteId'] }, ['D3-7-03']),
      id,
      'userId not found in authentication token',
      ['D3-7-03'],
    );
  });
});

describeOperation('get-user-info', (op) => {
  const id = 'get-user-info';
  // The configured code is spent once per run (DEC-D3-43): an invented one, refused either way.
  tokenRequired(id, () => ({ query: { code: 'NO-SUCH-CODE-000' } }));
  const needs = { fixtures: ['accounts.userInfoCode'], cites: ['D3-4.1-11'] } as const;
  op.test('a valid code gives the user info', needs, async ([code]) => {
    const x = await as(id, 'user', { query: { code } }, ['D3-4.1-11']);
    if (x)
      verifyAccountsSuccess(x, id, ['D3-4.1-11'], ['D3-4.1-11', 'D3-2.2-07', 'D3-2.2-08', 'D3-2.2-10', 'D3-2.1-10'], {
        paths: [
          'user.id',
          'user.title',
          'user.family',
          'user.given',
          'user.middlename',
          'user.loginEmailAddress',
          'user.manageSubscriptions',
          'user.roles',
          'user.creationdate',
          'user.lastupdatedon',
          'homesite.id',
          'homesite.name',
          'site.id',
          'site.name',
          'site.type',
        ],
        requirements: ['D3-2.2-11'],
      });
  });

  test('an unknown code is 422; a request without a code is refused', async () => {
    verifyAccountsError(
      await as(id, 'user', { query: { code: 'NO-SUCH-CODE-000' } }, ['D3-7-09']),
      id,
      'Secret code not found',
      ['D3-7-09'],
    );
    const without = await as(id, 'user', {}, ['D3-4.1-12']);
    if (without) on(id).must('D3-4.1-12').under('DEC-D3-43').check(without, requestRefused);
  });
});

describeOperation('list-authorised-sites-v1', () => {
  const id = 'list-authorised-sites-v1';
  tokenRequired(id, () => ({}));
  test("the user's active sites are listed", async () => {
    const x = await as(id, 'user', {}, ['D3-4.1-13']);
    if (
      !x ||
      !verifyAccountsSuccess(x, id, ['D3-4.1-13'], ['D3-4.1-13', 'D3-2.2-12', 'D3-2.1-09', 'D3-2.2-13', 'D3-9-01'], {
        paths: SITE_MEMBERS.map((m) => `[].${m}`),
        requirements: ['D3-2.2-14'],
      })
    )
      return;
    const sites = Array.isArray(bodyOf(x)) ? (bodyOf(x) as unknown[]) : [];
    on(id)
      .must('D3-4.1-14')
      .under('DEC-D3-26')
      .check(x, sitesActive({ list: '[]', idMember: 'id', statusRequired: true }));
    const listed = sites.map(siteIdOf).filter((s): s is string => s !== undefined);
    const own = runContext().siteId;
    on(id)
      .should('D3-4.1-15')
      .under('DEC-D3-25')
      .with({ exchange: x })
      .check({ ids: listed }, idsListed("the run's site among the authorised sites", [own]));
    const other = listed.find((s) => s !== own) ?? listed[0];
    if (other && runContext().addresses.introspect) {
      const i = await as('introspect', 'user', { headers: { 'SU-SiteId': other } }, ['D3-4.1-15']);
      if (i) on('introspect').should('D3-4.1-15').under('DEC-D3-25').check(i, successStatus(200), { siteId: other });
    }
  });
});

describeOperation('list-authorised-sites-v2', (op) => {
  const id = 'list-authorised-sites-v2';
  tokenRequired(id, () => ({}));
  test('pagination: pages, counts and links agree; pages do not overlap', async () => {
    const max = 4;
    const pages = [];
    let complete = false;
    for (let page = 1; page <= 15; page++) {
      const x = await as(id, 'user', { query: { pageNumber: String(page), maxRecordsPerPage: String(max) } }, [
        'D3-4.1-18',
      ]);
      if (
        !x ||
        !verifyAccountsSuccess(x, id, ['D3-4.1-16'], ['D3-4.1-17', 'D3-2.2-12', 'D3-2.1-09', 'D3-2.2-13', 'D3-9-01'], {
          paths: SITE_MEMBERS.map((m) => `sites[].${m}`),
          requirements: ['D3-2.2-14'],
        }) ||
        !hasResponse(x)
      )
        return;
      on(id)
        .must('D3-4.1-18', 'D3-4.1-19', 'D3-4.1-20', 'D3-4.1-21', 'D3-4.1-22')
        .under('DEC-D3-05')
        .check(x, sitesV2Pagination({ pageNumber: page, maxRecordsPerPage: max }));
      pages.push(x);
      const body = bodyOf(x);
      const p = isRecord(body) && isRecord(body.pagination) ? body.pagination : {};
      if (p.nextPage === null || p.nextPage === undefined) {
        complete = true;
        break;
      }
    }
    if (pages.length)
      on(id)
        .must('D3-4.1-23')
        .under('DEC-D3-05')
        .with({ exchange: pages[pages.length - 1] })
        .check({ pages, complete }, sitesV2PagesDisjoint);
  });

  op.test('every site version 1 lists is on a page of version 2', { cites: ['D3-4.1-27'] }, async () => {
    const v1 = runContext().addresses['list-authorised-sites-v1']
      ? await as('list-authorised-sites-v1', 'user', {}, ['D3-4.1-27'])
      : undefined;
    if (!v1 || !hasResponse(v1) || v1.response.status !== 200 || !Array.isArray(bodyOf(v1))) return;
    const v2: string[] = [];
    let last: Exchange | undefined;
    for (let page = 1; page <= 20; page++) {
      const x = await as(id, 'user', { query: { pageNumber: String(page), maxRecordsPerPage: '50' } }, ['D3-4.1-27']);
      if (!x || !hasResponse(x) || x.response.status !== 200) return;
      last = x;
      const body = bodyOf(x);
      if (!isRecord(body) || !Array.isArray(body.sites)) return;
      v2.push(...body.sites.map(siteIdOf).filter((s): s is string => s !== undefined));
      if (!isRecord(body.pagination) || body.pagination.nextPage === null || body.pagination.nextPage === undefined)
        break;
    }
    const v1Ids = (bodyOf(v1) as unknown[]).map(siteIdOf).filter((s): s is string => s !== undefined);
    on(id)
      .should('D3-4.1-27')
      .under('DEC-D3-25')
      .with({ exchange: last })
      .check({ ids: v2 }, idsListed('every version-1 site in version 2', v1Ids));
    // Declared where it is needed (the rest of the test needs no fixture): a skip when absent.
    const child = op.need('accounts.childSiteId', 'D3-4.1-26');
    if (child !== undefined)
      on(id)
        .must('D3-4.1-26')
        .under('DEC-D3-25')
        .with({ exchange: last })
        .check({ ids: v2 }, idsListed('the configured child site on a page of version 2', [child]));
  });

  test('a page beyond the last and invalid paging values are not server errors', async () => {
    for (const query of [
      { pageNumber: '9999' },
      { pageNumber: '0' },
      { pageNumber: 'abc' },
      { maxRecordsPerPage: '-1' },
      { maxRecordsPerPage: '1.5' },
    ]) {
      const x = await as(id, 'user', { query }, ['D3-4.1-28']);
      if (x) on(id).must('D3-4.1-28').under('DEC-D3-45').check(x, notServerError, { query });
    }
  });

  /** The site ids of every page of one search (pages walked until `nextPage` is null), with its last page. */
  async function searched(search: string, cites: string[]): Promise<{ ids: string[]; last: Exchange } | undefined> {
    const ids: string[] = [];
    for (let page = 1; page <= 10; page++) {
      const x = await as(id, 'user', { query: { search, pageNumber: String(page), maxRecordsPerPage: '50' } }, cites);
      if (!x || !verifySuccess(x, id, { success: ['D3-4.1-16'] }, { status: 200 })) return undefined;
      on(id)
        .must(...cites)
        .under('DEC-D3-05')
        .check(x, sitesMatchSearch(search));
      const body = bodyOf(x);
      if (isRecord(body) && Array.isArray(body.sites))
        ids.push(...body.sites.map(siteIdOf).filter((s): s is string => s !== undefined));
      if (
        !isRecord(body) ||
        !isRecord(body.pagination) ||
        body.pagination.nextPage === null ||
        body.pagination.nextPage === undefined
      )
        return { ids, last: x };
    }
    return undefined;
  }

  op.test(
    "search by a listed site's id, and by its name, keeps that site",
    { cites: ['D3-4.1-24', 'D3-4.1-25'] },
    async () => {
      // A site the target lists unfiltered: searched by its own id and by its own name, as listed.
      const all = await as(id, 'user', { query: { maxRecordsPerPage: '50' } }, ['D3-4.1-24', 'D3-4.1-25']);
      const body = all ? bodyOf(all) : undefined;
      const sites = isRecord(body) && Array.isArray(body.sites) ? body.sites : [];
      const site = sites.find(
        (s) => isRecord(s) && siteIdOf(s) !== undefined && typeof s.name === 'string' && s.name !== '',
      );
      if (!isRecord(site)) return;
      const siteId = siteIdOf(site) as string;
      for (const [search, row, what] of [
        [siteId, 'D3-4.1-24', 'the site searched by its id'],
        [String(site.name), 'D3-4.1-25', 'the site searched by its name'],
      ] as const) {
        const found = await searched(search, [row]);
        if (found)
          on(id)
            .must(row)
            .under('DEC-D3-05')
            .with({ exchange: found.last })
            .check({ ids: found.ids }, idsListed(what, [siteId]));
      }
    },
  );

  const needs = { fixtures: ['accounts.siteSearch'], cites: ['D3-4.1-18'] } as const;
  op.test('search keeps sites by id or name', needs, async ([search]) => {
    const x = await as(id, 'user', { query: { search, maxRecordsPerPage: '50' } }, ['D3-4.1-18']);
    if (x && verifySuccess(x, id, { success: ['D3-4.1-16'] }, { status: 200 }))
      on(id).must('D3-4.1-24', 'D3-4.1-25').under('DEC-D3-05').check(x, sitesMatchSearch(search));
  });
});

describeOperation('list-site-subscriptions', (op) => {
  const id = 'list-site-subscriptions';
  tokenRequired(id, () => ({}));
  test("the site's subscriptions; a request without SU-SiteId is refused", async () => {
    const x = await as(id, 'user', {}, ['D3-4.1-30']);
    if (
      x &&
      verifyAccountsSuccess(x, id, ['D3-4.1-30'], ['D3-4.1-30', 'D3-2.2-16', 'D3-2.2-17', 'D3-2.1-10'], {
        paths: ['siteId', 'subscriptions'],
        requirements: ['D3-2.2-18'],
      })
    )
      on(id)
        .must('D3-4.1-30')
        .under('DEC-D3-24')
        .check(x, answerNamesRequested('siteId', runContext().siteId, 'SU-SiteId'));
    const body = x ? bodyOf(x) : undefined;
    if (x && isRecord(body) && body.subscriptions !== undefined) {
      // One subscription or a list of them (form not shown): each carries the named members.
      const each = Array.isArray(body.subscriptions) ? 'subscriptions[].' : 'subscriptions.';
      on(id)
        .should('D3-2.2-18')
        .under('DEC-D3-22')
        .check(
          x,
          membersPresent(
            [
              'subscriptionId',
              'plan.planId',
              'plan.planName',
              'plan.planDescription',
              'plan.planSlab',
              'plan.siteTypes',
            ].map((m) => each + m),
          ),
        );
    }
    on(id)
      .must('D3-4.1-31')
      .check(
        await call(id, {
          omitHeaders: ['SU-SiteId'],
          values: { token: (await tokenFor('user')) ?? runContext().token },
        }),
        requestRefused,
      );
  });

  op.test('another site of the user: the answer names that site', { cites: ['D3-4.1-30'] }, async () => {
    // A second site the user holds, from version 1 (its active sites); a site without a subscription
    // may be refused (not shown), so only a 200 is judged.
    const v1 = runContext().addresses['list-authorised-sites-v1']
      ? await as('list-authorised-sites-v1', 'user', {}, ['D3-4.1-30'])
      : undefined;
    const listed = v1 && Array.isArray(bodyOf(v1)) ? (bodyOf(v1) as unknown[]).map(siteIdOf) : [];
    const other = listed.find((s): s is string => s !== undefined && s !== runContext().siteId);
    if (other === undefined) return;
    const x = await as(id, 'user', { headers: { 'SU-SiteId': other } }, ['D3-4.1-30']);
    if (x && hasResponse(x) && x.response.status === 200)
      on(id)
        .must('D3-4.1-30')
        .under('DEC-D3-24')
        .check(x, answerNamesRequested('siteId', other, 'SU-SiteId'));
  });

  const unconnected = { fixtures: ['accounts.unconnectedSiteId'], cites: ['D3-7-10'] } as const;
  op.test('a site without access is 403', unconnected, async ([site]) => {
    verifyAccountsError(
      await as(id, 'user', { headers: { 'SU-SiteId': site } }, ['D3-7-10']),
      id,
      'Loggedin user does not have permission to perform this operation.',
      ['D3-7-10'],
    );
  });
});

describeOperation('get-user-details', (op) => {
  const id = 'get-user-details';
  tokenRequired(id, () => ({ omitHeaders: ['SU-UserId'] }));
  test("a user token gives the user's details", async () => {
    const x = await as(id, 'user', { omitHeaders: ['SU-UserId'] }, ['D3-4.1-32']);
    if (
      !x ||
      !verifyAccountsSuccess(x, id, ['D3-4.1-32'], ['D3-2.2-20', 'D3-2.1-10'], {
        paths: [
          'userId',
          'title',
          'firstName',
          'lastName',
          'middlename',
          'loginEmailAddress',
          'status',
          'homesite.id',
          'homesite.name',
          'sites[].siteId',
          'sites[].siteName',
          'sites[].description',
          'sites[].siteType',
        ],
        requirements: ['D3-2.2-22'],
      })
    )
      return;
    // optional fixture: the token's user is the configured one (DEC-D3-27).
    const own = A().userId;
    if (own !== undefined)
      on(id)
        .must('D3-4.1-32')
        .under('DEC-D3-27')
        .check(x, answerNamesRequested('userId', own, 'configured user'));
    // optional fixture: a configured inactive site must not be listed; an id the target does not hold
    // is not listed either.
    const inactive = A().inactiveSiteId;
    on(id)
      .must('D3-2.2-21')
      .under('DEC-D3-26', 'DEC-D3-27')
      .check(
        x,
        sitesActive({
          list: 'sites',
          idMember: 'siteId',
          statusRequired: false,
          ...(inactive ? { inactiveId: inactive } : {}),
        }),
      );
  });
  test('client-credentials tokens: SU-UserId is required', async () => {
    verifyAccountsError(
      await as(id, 'client', { omitHeaders: ['SU-UserId'] }, ['D3-7-11']),
      id,
      'SU-UserId is missing',
      ['D3-7-11', 'D3-5-03'],
    );
  });

  // The account refusals name the configured user, so that the account is their one reason.
  const user = { fixtures: ['accounts.userId'], cites: ['D3-4.1-33', 'D3-7-04', 'D3-7-05'] } as const;
  op.test(
    'client-credentials tokens: an accessible user is served, with an active account only',
    user,
    async ([userId]) => {
      const x = await as(id, 'client', { values: { userId } }, ['D3-4.1-33']);
      if (
        x &&
        verifySuccess(x, id, { success: ['D3-4.1-33', 'D3-5-02'], schema: ['D3-2.2-20', 'D3-2.1-10'] }, { status: 200 })
      )
        on(id)
          .must('D3-4.1-33')
          .under('DEC-D3-24')
          .check(x, answerNamesRequested('userId', userId, 'SU-UserId'));
      verifyAccountsError(
        await as(id, 'clientWithoutAccount', { values: { userId } }, ['D3-7-04']),
        id,
        'No account is associated for this client',
        ['D3-7-04'],
      );
      verifyAccountsError(
        await as(id, 'clientInactive', { values: { userId } }, ['D3-7-05']),
        id,
        'The client account <client_account> status should be ACTIVE',
        ['D3-7-05'],
      );
    },
  );

  const inaccessible = { fixtures: ['accounts.inaccessibleUserId'], cites: ['D3-7-12'] } as const;
  op.test('client-credentials tokens: a user the client cannot access is refused', inaccessible, async ([userId]) => {
    verifyAccountsError(
      await as(id, 'client', { values: { userId } }, ['D3-7-12']),
      id,
      'The client account <client_account> does not have access to this user <user_id>',
      ['D3-7-12'],
    );
  });
});

describeOperation('get-event-info', (op) => {
  const id = 'get-event-info';
  // The configured sns_id when there is one (an invented one is refused either way).
  tokenRequired(id, () => ({ query: { sns_id: A().snsId ?? 'NO-SUCH-SNS-000' } }));
  const needs = { fixtures: ['accounts.snsId'], cites: ['D3-4.1-35'] } as const;
  op.test('a known sns_id gives the event', needs, async ([snsId]) => {
    const x = await as(id, 'user', { query: { sns_id: snsId } }, ['D3-4.1-35']);
    if (
      x &&
      verifyAccountsSuccess(x, id, ['D3-4.1-35', 'D3-6-01'], ['D3-4.1-35', 'D3-2.2-25', 'D3-2.2-26', 'D3-2.1-10'])
    ) {
      const body = bodyOf(x);
      if (isRecord(body) && typeof body.eventType === 'string' && body.eventType.startsWith('SITE_')) {
        on(id)
          .should('D3-2.2-27')
          .under('DEC-D3-28')
          .check(
            x,
            membersPresent(
              [
                'id',
                'name',
                'creationDate',
                'createdBy',
                'isSyncWithCrm',
                'account.id',
                'account.name',
                'account.status',
                'account.isAccountManager',
                'account.isSyncWithCrm',
                'account.is2FaEnforced',
                'parentSite.id',
                'parentSite.name',
                'parentSite.status',
                'parentSite.type',
                'parentSite.isSyncWithCrm',
              ].map((m) => `resource.${m}`),
            ),
          );
      }
    }
  });

  test('an unknown sns_id is 403; a request without one is refused', async () => {
    verifyAccountsError(
      await as(id, 'user', { query: { sns_id: 'NO-SUCH-SNS-000' } }, ['D3-7-13']),
      id,
      'SNS_ID is Invalid.',
      ['D3-7-13'],
    );
    const without = await as(id, 'user', {}, ['D3-4.1-36']);
    if (without) on(id).must('D3-4.1-36').under('DEC-D3-43').check(without, requestRefused);
  });
});

describeOperation('get-site-users', (op) => {
  const id = 'get-site-users';
  tokenRequired(id, () => ({ path: { siteId: runContext().siteId } }));
  test('users of a site, and the two HTTP 200 quirks', async () => {
    const site = runContext().siteId;
    const x = await as(id, 'user', { path: { siteId: site } }, ['D3-4.1-37']);
    if (
      x &&
      verifyAccountsSuccess(x, id, ['D3-4.1-37'], ['D3-4.1-37', 'D3-2.2-23'], {
        paths: [
          'siteId',
          'siteName',
          'users[].userId',
          'users[].firstName',
          'users[].lastName',
          'users[].middleName',
          'users[].status',
          'users[].loginEmailAddress',
        ],
        requirements: ['D3-2.2-24'],
      })
    )
      on(id)
        .must('D3-4.1-37')
        .under('DEC-D3-24')
        .check(x, answerNamesRequested('siteId', site, 'path siteId'));
    const invalid = await as(id, 'user', { path: { siteId: 'NO-SUCH-SITE-000' } }, ['D3-4.1-38']);
    if (invalid && verifySuccess(invalid, id, { success: ['D3-4.1-38'] }, { status: 200 })) {
      on(id).must('D3-4.1-38').under('DEC-D3-44').check(invalid, messageIs('Siteid is invalid : NO-SUCH-SITE-000'));
    }
  });

  const needs = { fixtures: ['accounts.siteWithoutUsers'], cites: ['D3-4.1-39'] } as const;
  op.test('a site without users gives an empty list', needs, async ([empty]) => {
    const e = await as(id, 'user', { path: { siteId: empty } }, ['D3-4.1-39']);
    if (e && verifySuccess(e, id, { success: ['D3-4.1-39'] }, { status: 200 })) {
      on(id).must('D3-4.1-39').under('DEC-D3-44').check(e, listMemberEmpty('users'));
      // The SU-SiteId sent is the run's site: the answer names the site of the path, not the header's.
      on(id)
        .must('D3-4.1-37')
        .under('DEC-D3-24')
        .check(e, answerNamesRequested('siteId', empty, 'path siteId'));
    }
  });
});

/** Accounts operations are called with the user's token, as their tests do. */
const asUser = async (id: OperationId, options: CallOptions): Promise<Exchange> =>
  call(id, { ...options, values: { ...options.values, token: (await tokenFor('user')) ?? runContext().token } });

describeDerivedRequests({
  // A user-info code may be single-use (DEC-D3-43): the configured one is not sent here.
  'get-user-info': { send: asUser },
  'list-authorised-sites-v2': {
    send: asUser,
    fixtures: fixturesFrom({ search: runContext().fixtures.accounts?.siteSearch }),
  },
  'get-event-info': { send: asUser, fixtures: fixturesFrom({ sns_id: runContext().fixtures.accounts?.snsId }) },
  'get-site-users': { send: asUser, fixtures: { siteId: runContext().siteId } },
});
