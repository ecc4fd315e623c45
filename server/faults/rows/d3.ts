/**
 * Faults of Document 3 written to prove its MUST rows that no derived shape fault reaches (issue
 * 30, item 1). Each breaks one documented rule, names the rows it proves and the check that must
 * catch it citing them; its scenario is in d3.test.ts.
 */
import { operation, operations } from '../../../spec/operations.ts';
import type { Repository } from '../../repo/repository.ts';
import { subscriptionOf } from '../../resources/accounts.ts';
import { arr, isObject, withQuery, type JsonObject } from '../../modifiers/json.ts';
import { listAuthorisedSitesV2 } from '../../router/accounts.ts';
import { postAuthFields } from '../../router/diary.ts';
import { ApiError, errorReply } from '../../router/errors.ts';
import type { SandboxReply, SandboxRequest } from '../../router/types.ts';
import type { RowFault } from './types.ts';

/** The operations of D3 5's accounts line ("Accounts operations: `Authorization: Bearer <ACCESS_TOKEN>`"). */
const ACCOUNTS_OPERATIONS = operations.filter((o) => o.suite === 'accounts').map((o) => o.id);
/** The sandbox's partner client (server/fixtures/accounts.ts), through which the fault signs a user in. */
const SANDBOX_CLIENT = 'sandbox-client';

const bearerOf = (req: SandboxRequest) => /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
const withHeaders = (req: SandboxRequest, headers: Record<string, string>): SandboxRequest => ({
  ...req,
  headers: { ...req.headers, ...headers },
});
const accountsError = (status: number, message: string): SandboxReply => ({
  status,
  body: { message, code: status },
});

/** The user a bearer token names (undefined for client and diary tokens, and unknown tokens). */
async function userOfToken(req: SandboxRequest, repo: Repository) {
  const token = bearerOf(req);
  const grant = token === undefined ? undefined : await repo.accessGrant(token);
  return grant?.userId === undefined ? undefined : (await repo.users()).find((u) => u.id === grant.userId);
}

/** The active client account of a client-credentials bearer token, if any. */
async function clientTokenAccount(req: SandboxRequest, repo: Repository) {
  const token = bearerOf(req);
  const grant = token === undefined ? undefined : await repo.accessGrant(token);
  if (!grant || grant.kind === 'diary' || grant.userId !== undefined) return { grant: undefined, account: undefined };
  const account = (await repo.clientAccounts()).find((a) => a.clientId === grant.clientId);
  return { grant, account };
}

/** The request's Authorization swapped for a user token of `userId` issued to the token's client. */
async function asUser(req: SandboxRequest, repo: Repository, clientId: string, userId: string) {
  const tokens = await repo.issueUserTokens(clientId, userId);
  return withHeaders(req, { authorization: `Bearer ${tokens.accessToken}` });
}

/**
 * Every site list authorised sites v2 answers the request's caller, unpaged and unsearched (the
 * reference handler asked for them all), as the answer's site objects.
 */
async function allSitesV2(req: SandboxRequest, repo: Repository): Promise<JsonObject[] | undefined> {
  const query = new URLSearchParams({ pageNumber: '1', maxRecordsPerPage: '100000' });
  const reply = await listAuthorisedSitesV2(
    { ...req, query },
    { repo, served: operation, baseUrl: '', faultNames: [] },
  ).catch(() => undefined);
  const body = reply?.body;
  return isObject(body) ? arr(body.sites).filter(isObject) : undefined;
}

/** A v2 answer of `sites` paged as the request asks (the reference paging rules, DEC-D3-05). */
function pagedV2(req: SandboxRequest, sites: readonly unknown[]): JsonObject {
  const page = Number(req.query.get('pageNumber') ?? '1') || 1;
  const size = Number(req.query.get('maxRecordsPerPage') ?? '10') || 10;
  const totalPages = Math.ceil(sites.length / size);
  return {
    pagination: {
      totalRecords: sites.length,
      currentPage: page,
      totalPages,
      nextPage: page >= totalPages ? null : page + 1,
      prevPage: page > 1 ? page - 1 : null,
    },
    sites: sites.slice((page - 1) * size, page * size),
  };
}

/** A v2 search answered by one of its two documented keys only ("site id or name", 4.1). */
function searchOneKey(keep: (site: JsonObject, search: string) => boolean): Pick<RowFault, 'reply'> {
  return {
    reply: async (reply, { request, repo }) => {
      const search = (request.query.get('search') ?? '').trim().toLowerCase();
      if (reply.status !== 200 || search === '') return reply;
      const all = await allSitesV2(request, repo);
      return all
        ? {
            ...reply,
            body: pagedV2(
              request,
              all.filter((s) => keep(s, search)),
            ),
          }
        : reply;
    },
  };
}

/** A diary token answer (`{access_token, response: 2}`) whose token is replaced by one never stored. */
const unstoredDiaryToken = (reply: SandboxReply): SandboxReply => {
  const body = reply.body;
  if (!isObject(body) || body.response !== 2 || typeof body.access_token !== 'string') return reply;
  return { ...reply, body: { ...body, access_token: `${body.access_token}-unstored` } };
};

/** A diary list answer whose items are rewritten. */
const mapDiaryItems =
  (edit: (item: JsonObject) => JsonObject) =>
  (reply: SandboxReply): SandboxReply =>
    reply.status === 200 && isObject(reply.body) && Array.isArray(reply.body.data)
      ? { ...reply, body: { ...reply.body, data: reply.body.data.map((i) => (isObject(i) ? edit(i) : i)) } }
      : reply;

/** An item with member `from` renamed `to` (the value kept). */
const renamed = (item: JsonObject, from: string, to: string): JsonObject => {
  const { [from]: value, ...rest } = item;
  return { ...rest, [to]: value };
};

/** True when a Patient names a last name (`name[].family`, a non-empty text). */
const hasFamilyName = (resource: unknown) =>
  isObject(resource) && arr(resource.name).some((n) => isObject(n) && typeof n.family === 'string' && n.family !== '');

/** The accounts answer to a bearer token the server does not know (router/accounts.ts). */
const UNKNOWN_TOKEN = 'The access token is invalid, expired or revoked';

/** Marks a revoke whose `refresh_token` hint names a token that is no live refresh token. */
const HINT_MISMATCH = 'x-fault-hint-mismatch';

export const D3_ROW_FAULTS: readonly RowFault[] = [
  {
    name: 'logout-keeps-refresh-token',
    kind: 'state',
    rule: 'D3 4.2 / DEC-D3-17: logout "removes tokens and session so the user must log in again"',
    description:
      'Logout answers 200 and ends the access token sent, but not its session: the refresh token issued with it still gives new access tokens.',
    operations: ['logout'],
    expectedCheck: 'refresh-token-refused',
    rows: ['D3-4.2-03'],
    repo: (repo) => ({ ...repo, revokeSession: async () => {} }),
  },
  {
    name: 'logout-ends-nothing',
    kind: 'state',
    rule: 'D3 4.2 / DEC-D3-17: logout removes the tokens; the token logged out is refused afterwards',
    description: 'Logout answers 200 but revokes nothing: the token logged out and its refresh token stay live.',
    operations: ['logout'],
    expectedCheck: 'request-refused',
    rows: ['D3-4.2-02'],
    repo: (repo) => ({ ...repo, revokeAccessToken: async () => true, revokeSession: async () => {} }),
  },
  {
    name: 'logout-redirects-to-login',
    kind: 'status',
    rule: 'D3 4.2: logout answers HTTP 200',
    description: 'Logout ends the session but answers 302 with `Location: /login`, as a browser flow would.',
    operations: ['logout'],
    expectedCheck: 'success-status',
    rows: ['D3-4.2-01', 'D3-1-02'],
    reply: (reply) => (reply.status === 200 ? { status: 302, headers: { location: '/login' } } : reply),
  },
  {
    name: 'site-users-of-header-site',
    kind: 'wrong-record',
    rule: 'D3 4.1 / DEC-D3-24: Get users by site answers the users of the path `siteId`',
    description: 'Get users by site reads the site from the `SU-SiteId` header and ignores the path `siteId`.',
    operations: ['get-site-users'],
    expectedCheck: 'answer-names-requested',
    rows: ['D3-4.1-37'],
    request: (req) => {
      const header = (req.headers['su-siteid'] ?? '').trim();
      return header === '' ? req : { ...req, params: { ...req.params, siteId: header } };
    },
  },
  {
    name: 'subscriptions-of-home-site',
    kind: 'wrong-record',
    rule: 'D3 4.1 / DEC-D3-24: List site subscriptions answers the subscription of the `SU-SiteId` site',
    description:
      "List site subscriptions checks the user's access to `SU-SiteId`, then answers the subscription of the user's home site.",
    operations: ['list-site-subscriptions'],
    expectedCheck: 'answer-names-requested',
    rows: ['D3-4.1-30'],
    reply: async (reply, { request, repo }) => {
      if (reply.status !== 200) return reply;
      const user = await userOfToken(request, repo);
      const home = user && (await repo.subscriptions()).find((s) => s.siteId === user.homeSiteId);
      return home ? { ...reply, body: subscriptionOf(home) } : reply;
    },
  },
  {
    name: 'sites-v2-child-sites-missing',
    kind: 'filter',
    rule: 'D3 4.1 / DEC-D3-25: list authorised sites v2 "includes child sites"',
    description: 'List authorised sites v2 leaves out child sites (as version 1 does).',
    operations: ['list-authorised-sites-v2'],
    expectedCheck: 'ids-listed',
    rows: ['D3-4.1-26'],
    repo: (repo) => ({ ...repo, sites: async () => (await repo.sites()).filter((s) => s.parentId === undefined) }),
  },
  {
    name: 'sites-v2-pages-overlap',
    kind: 'paging',
    rule: 'D3 4.1 / DEC-D3-05: the pages of one query do not overlap',
    description:
      'List authorised sites v2 starts every page after the first one site early (an off-by-one offset): the last site of a page opens the next.',
    operations: ['list-authorised-sites-v2'],
    expectedCheck: 'sites-v2-pages-disjoint',
    rows: ['D3-4.1-23'],
    reply: async (reply, { request, repo }) => {
      const page = Number(request.query.get('pageNumber') ?? '1');
      const size = Number(request.query.get('maxRecordsPerPage') ?? '10');
      const body = reply.body;
      if (reply.status !== 200 || !(page > 1) || !(size > 0) || !isObject(body)) return reply;
      const all = await allSitesV2(request, repo);
      const search = (request.query.get('search') ?? '').trim();
      if (!all || search !== '') return reply;
      return { ...reply, body: { ...body, sites: all.slice((page - 1) * size - 1, page * size - 1) } };
    },
  },
  {
    name: 'sites-v2-search-by-id-ignored',
    kind: 'filter',
    rule: 'D3 4.1 / DEC-D3-05: `search` takes a site id or name; a site id keeps the site with that id',
    description: 'List authorised sites v2 matches `search` against site names only: a site id finds nothing.',
    operations: ['list-authorised-sites-v2'],
    expectedCheck: 'ids-listed',
    rows: ['D3-4.1-24'],
    ...searchOneKey((site, search) =>
      String(site.name ?? '')
        .toLowerCase()
        .includes(search),
    ),
  },
  {
    name: 'sites-v2-search-by-name-ignored',
    kind: 'filter',
    rule: 'D3 4.1 / DEC-D3-05: `search` takes a site id or name; a site name keeps the sites of that name',
    description: 'List authorised sites v2 matches `search` against site ids only: a site name finds nothing.',
    operations: ['list-authorised-sites-v2'],
    expectedCheck: 'ids-listed',
    rows: ['D3-4.1-25'],
    ...searchOneKey((site, search) => String(site.id ?? '').toLowerCase() === search),
  },
  {
    name: 'site-without-users-invalid',
    kind: 'wrong-answer',
    rule: 'D3 4.1 / DEC-D3-44: a site with no users is answered 200 with an empty `users` list',
    description:
      'Get users by site finds sites through their users: a site without users is answered as an invalid one (`Siteid is invalid : <site_id>`).',
    operations: ['get-site-users'],
    expectedCheck: 'list-member-empty',
    rows: ['D3-4.1-39'],
    reply: (reply) =>
      reply.status === 200 && isObject(reply.body) && Array.isArray(reply.body.users) && reply.body.users.length === 0
        ? { ...reply, body: { message: `Siteid is invalid : ${String(reply.body.siteId)}` } }
        : reply,
  },
  {
    name: 'user-info-code-optional',
    kind: 'validation',
    rule: 'D3 4.1 / DEC-D3-43: Get user info takes `code` (required); a request without it is refused',
    description: "Get user info without `code` answers the token's user (the info of their own code).",
    operations: ['get-user-info'],
    expectedCheck: 'request-refused',
    rows: ['D3-4.1-12'],
    request: async (req, { repo }) => {
      if ((req.query.get('code') ?? '').trim() !== '') return req;
      const user = await userOfToken(req, repo);
      const own = user && (await repo.userInfoCodes()).find((c) => c.userId === user.id);
      return own ? withQuery(req, (q) => q.set('code', own.code)) : req;
    },
  },
  {
    name: 'user-info-unknown-code-served',
    kind: 'validation',
    rule: 'D3 7: Get user info, an invalid `code` is answered HTTP 422 `Secret code not found`',
    description: "Get user info answers an unknown `code` with the token's user (the info of their own code).",
    operations: ['get-user-info'],
    expectedCheck: 'accounts-error-answer',
    rows: ['D3-7-09'],
    request: async (req, { repo }) => {
      const code = (req.query.get('code') ?? '').trim();
      const codes = await repo.userInfoCodes();
      if (code === '' || codes.some((c) => c.code === code)) return req;
      const user = await userOfToken(req, repo);
      const own = user && codes.find((c) => c.userId === user.id);
      return own ? withQuery(req, (q) => q.set('code', own.code)) : req;
    },
  },
  {
    name: 'subscriptions-site-optional',
    kind: 'validation',
    rule: 'D3 4.1 / DEC-D3-43: List site subscriptions takes `SU-SiteId` (required); a request without it is refused',
    description: "List site subscriptions without `SU-SiteId` answers the subscription of the user's home site.",
    operations: ['list-site-subscriptions'],
    expectedCheck: 'request-refused',
    rows: ['D3-4.1-31'],
    request: async (req, { repo }) => {
      if ((req.headers['su-siteid'] ?? '').trim() !== '') return req;
      const user = await userOfToken(req, repo);
      return user ? withHeaders(req, { 'su-siteid': user.homeSiteId }) : req;
    },
  },
  {
    name: 'event-without-sns-id-served',
    kind: 'validation',
    rule: 'D3 4.1 / DEC-D3-43: Get event info takes `sns_id` (required); a request without it is refused',
    description: 'Get event info without `sns_id` answers the latest event.',
    operations: ['get-event-info'],
    expectedCheck: 'request-refused',
    rows: ['D3-4.1-36'],
    request: async (req, { repo }) => {
      if ((req.query.get('sns_id') ?? '').trim() !== '') return req;
      const latest = (await repo.events()).at(-1);
      return latest ? withQuery(req, (q) => q.set('sns_id', latest.snsId)) : req;
    },
  },
  {
    name: 'features-refused-with-site',
    kind: 'status',
    rule: "D3 4.1 / DEC-D3-42: List features takes an optional `SU-SiteId`; with the run's site it answers 200 with the role",
    description:
      'List features with `SU-SiteId` answers 403 `Features not found` (features looked up per site, none found).',
    operations: ['list-features'],
    expectedCheck: 'success-status',
    rows: ['D3-4.1-09'],
    reply: (reply, { request }) =>
      reply.status === 200 && (request.headers['su-siteid'] ?? '').trim() !== ''
        ? accountsError(403, 'Features not found')
        : reply,
  },
  {
    name: 'features-need-site',
    kind: 'status',
    rule: 'D3 4.1: List features (optional `SU-SiteId`) answers the role of a user who has features with 200',
    description:
      'List features without `SU-SiteId` answers 403 `Features not found` (the optional header made required).',
    operations: ['list-features'],
    expectedCheck: 'success-status',
    rows: ['D3-4.1-08', 'D3-1-01'],
    reply: (reply, { request }) =>
      reply.status === 200 && (request.headers['su-siteid'] ?? '').trim() === ''
        ? accountsError(403, 'Features not found')
        : reply,
  },
  {
    name: 'introspect-post-only',
    kind: 'method',
    rule: 'D3 4.1: every accounts operation is a GET; Introspect is GET `{accounts_url}/api/introspect`',
    description: 'Introspect is served as POST only (as RFC 7662 token introspection): a GET is answered 405.',
    operations: ['introspect'],
    expectedCheck: 'success-status',
    rows: ['D3-4.1-01', 'D3-1-01', 'D3-4.1-02'],
    reply: (reply) =>
      reply.status === 200
        ? { status: 405, body: { message: 'Method Not Allowed', code: 405 }, headers: { allow: 'POST' } }
        : reply,
  },
  {
    name: 'user-details-refuses-client-token',
    kind: 'auth',
    rule: 'D3 5: an accounts token can be a client-credentials token; Get user details with one and `SU-UserId` answers 200',
    description:
      'Get user details treats every token as a user token: a client-credentials token is answered 400 `userId not found in authentication token`.',
    operations: ['get-user-details'],
    expectedCheck: 'success-status',
    rows: ['D3-5-02', 'D3-4.1-33'],
    reply: async (reply, { request, repo }) => {
      const { grant } = await clientTokenAccount(request, repo);
      return grant ? accountsError(400, 'userId not found in authentication token') : reply;
    },
  },
  {
    name: 'user-details-without-user-id-served',
    kind: 'validation',
    rule: 'D3 5, 7: with a client-credentials token Get user details requires `SU-UserId` (422 `SU-UserId is missing`)',
    description:
      "Get user details with a client-credentials token and no `SU-UserId` answers the client account's first user.",
    operations: ['get-user-details'],
    expectedCheck: 'accounts-error-answer',
    rows: ['D3-7-11', 'D3-5-03'],
    request: async (req, { repo }) => {
      if ((req.headers['su-userid'] ?? '').trim() !== '') return req;
      const { account } = await clientTokenAccount(req, repo);
      const first = account?.status === 'ACTIVE' ? account.userIds[0] : undefined;
      return first === undefined ? req : withHeaders(req, { 'su-userid': first });
    },
  },
  {
    name: 'client-account-unchecked',
    kind: 'auth',
    rule: 'D3 7: a client-credentials token without client account is answered HTTP 422 `No account is associated for this client`',
    description:
      'Get user details does not look for the client account of a client-credentials token: without one, the `SU-UserId` user is served.',
    operations: ['get-user-details'],
    expectedCheck: 'accounts-error-answer',
    rows: ['D3-7-04'],
    request: async (req, { repo }) => {
      const { grant, account } = await clientTokenAccount(req, repo);
      const userId = (req.headers['su-userid'] ?? '').trim();
      const user = (await repo.users()).find((u) => u.id === userId);
      if (!grant?.clientId || account || !user) return req;
      return asUser(req, repo, grant.clientId, user.id);
    },
  },
  {
    name: 'features-client-token-served',
    kind: 'auth',
    rule: 'D3 7: List features, a token that has no user is answered HTTP 400 `userId not found in authentication token`',
    description: "List features answers a client-credentials token with the role of its client account's first user.",
    operations: ['list-features'],
    expectedCheck: 'accounts-error-answer',
    rows: ['D3-7-03'],
    request: async (req, { repo }) => {
      const { grant, account } = await clientTokenAccount(req, repo);
      const first = account?.userIds[0];
      return grant?.clientId && first !== undefined ? asUser(req, repo, grant.clientId, first) : req;
    },
  },
  {
    name: 'user-without-features-empty-role',
    kind: 'wrong-answer',
    rule: 'D3 7: List features, a user with no features assigned is answered HTTP 403 `Features not found`',
    description: 'List features answers a user without features 200 with an empty role (no features).',
    operations: ['list-features'],
    expectedCheck: 'accounts-error-answer',
    rows: ['D3-7-08'],
    reply: (reply, { request }) =>
      reply.status === 403 && (request.headers['su-siteid'] ?? '').trim() === ''
        ? {
            status: 200,
            body: {
              roleId: '',
              code: '',
              name: '',
              status: 'ACTIVE',
              features: [],
              clientassignable: false,
              siteassignable: false,
              userassignable: false,
              accountmanagerassignable: false,
              publicaccess: false,
              productGroup: { id: '', name: '', identifier: '', description: '' },
              createdby: '',
            },
          }
        : reply,
  },
  {
    name: 'subscriptions-permission-unchecked',
    kind: 'auth',
    rule: 'D3 7: List site subscriptions, a site the user has no access to is answered HTTP 403 `Loggedin user does not have permission to perform this operation.`',
    description: 'List site subscriptions answers the subscription of any site, whether or not the user reaches it.',
    operations: ['list-site-subscriptions'],
    expectedCheck: 'accounts-error-answer',
    rows: ['D3-7-10'],
    reply: async (reply, { request, repo }) => {
      if (reply.status !== 403) return reply;
      const siteId = (request.headers['su-siteid'] ?? '').trim();
      const sub = (await repo.subscriptions()).find((s) => s.siteId === siteId);
      return sub ? { status: 200, body: subscriptionOf(sub) } : reply;
    },
  },
  {
    name: 'token-details-invalid-uri-server-error',
    kind: 'server-error',
    rule: 'D3 4.2 / DEC-D3-48: a `redirect_uri` that is not a valid URL is not answered with a 5xx status',
    description:
      'Token details parses `redirect_uri` as a URL before looking it up: a value that is no URL gives HTTP 500.',
    operations: ['get-idp-token-details'],
    expectedCheck: 'not-server-error',
    rows: ['D3-4.2-18'],
    reply: (reply, { request }) => {
      const uri = request.query.get('redirect_uri');
      if (uri === null || uri.trim() === '' || reply.status === 401 || URL.canParse(uri)) return reply;
      return { status: 500, body: { status: 'fail', message: 'Invalid URL', code: 500 } };
    },
  },
  {
    name: 'revoke-hint-mismatch-server-error',
    kind: 'server-error',
    rule: 'D3 4.2 / DEC-D3-47: a revoke with a hint that does not match the token is not answered with a 5xx status',
    description:
      'Revoke looks a token hinted `refresh_token` up among refresh tokens only and fails with HTTP 500 when it is not one (an access token, an unknown token).',
    operations: ['revoke-token'],
    expectedCheck: 'not-server-error',
    rows: ['D3-4.2-13'],
    request: async (req, { repo }) => {
      const token = (req.form?.get('token') ?? '').trim();
      if (req.form?.get('token_type_hint') !== 'refresh_token' || token === '') return req;
      return (await repo.refreshGrant(token)) ? req : withHeaders(req, { [HINT_MISMATCH]: 'yes' });
    },
    reply: (reply, { request }) =>
      request.headers[HINT_MISMATCH] && reply.status < 500
        ? { status: 500, body: { error: 'server_error', error_description: 'refresh token not found' } }
        : reply,
  },
  {
    name: 'revoke-secret-unchecked',
    kind: 'auth',
    rule: 'D3 5 / DEC-D3-39: token revocation takes Basic authentication; wrong Basic credentials are refused',
    description: 'Revoke checks the client id of the Basic credentials but not the secret.',
    operations: ['revoke-token'],
    expectedCheck: 'request-refused',
    rows: ['D3-5-04'],
    request: async (req, { repo }) => {
      const basic = /^Basic\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
      if (basic === undefined) return req;
      const clientId = Buffer.from(basic, 'base64').toString('utf8').split(':')[0] ?? '';
      const client = await repo.client(clientId);
      if (!client) return req;
      const fixed = Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64');
      return withHeaders(req, { authorization: `Basic ${fixed}` });
    },
  },
  {
    name: 'token-details-bearer-accepted',
    kind: 'auth',
    rule: 'D3 4.2, 5 / DEC-D3-48: token details takes Basic authentication; "bearer tokens must not be used"',
    description: 'Token details accepts a bearer token in place of Basic, as the client the token was issued to.',
    operations: ['get-idp-token-details'],
    expectedCheck: 'request-refused',
    rows: ['D3-5-06'],
    request: async (req, { repo }) => {
      const token = bearerOf(req);
      const grant = token === undefined ? undefined : await repo.accessGrant(token);
      const client = grant?.clientId === undefined ? undefined : await repo.client(grant.clientId);
      if (!client) return req;
      const basic = Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64');
      return withHeaders(req, { authorization: `Basic ${basic}` });
    },
  },
  {
    name: 'accounts-json-as-text',
    kind: 'media-type',
    rule: 'D3 4 / DEC-D3-20: every response body is JSON with a JSON media type (accounts: `application/json`)',
    description: 'List features answers its JSON body as `text/plain; charset=utf-8`.',
    operations: ['list-features'],
    expectedCheck: 'content-type-is-json',
    rows: ['D3-4-02'],
    wire: (wire) =>
      wire.payload === undefined
        ? wire
        : { ...wire, headers: { ...wire.headers, 'content-type': 'text/plain; charset=utf-8' } },
  },
  {
    name: 'subscription-plan-slab-text',
    kind: 'shape',
    rule: 'D3 2.2: a subscription `plan` has `planSlab` integer',
    description: 'List site subscriptions answers `plan.planSlab` as text ("2").',
    operations: ['list-site-subscriptions'],
    expectedCheck: 'matches-schema',
    rows: ['D3-2.2-17'],
    reply: (reply) => {
      const body = reply.body;
      if (reply.status !== 200 || !isObject(body)) return reply;
      const textSlab = (s: unknown) =>
        isObject(s) && isObject(s.plan) ? { ...s, plan: { ...s.plan, planSlab: String(s.plan.planSlab) } } : s;
      const subscriptions = Array.isArray(body.subscriptions)
        ? body.subscriptions.map(textSlab)
        : textSlab(body.subscriptions);
      return { ...reply, body: { ...body, subscriptions } };
    },
  },
  {
    name: 'site-users-user-id-renamed',
    kind: 'shape',
    rule: 'D3 2.2: site users `users[]` carry `userId`',
    description: "Get users by site names each user's id `id` instead of `userId`.",
    operations: ['get-site-users'],
    expectedCheck: 'matches-schema',
    rows: ['D3-2.2-23'],
    reply: (reply) => {
      const body = reply.body;
      if (reply.status !== 200 || !isObject(body) || !Array.isArray(body.users)) return reply;
      const users = body.users.map((u) => {
        if (!isObject(u)) return u;
        const { userId, ...rest } = u;
        return { id: userId, ...rest };
      });
      return { ...reply, body: { ...body, users } };
    },
  },
  {
    name: 'sites-v1-paged-object',
    kind: 'shape',
    rule: 'D3 4.1, 9: version 1 answers an array of Sites; version 2 the object `{pagination, sites[]}`',
    description: 'List authorised sites v1 answers in the form of version 2: `{pagination, sites[]}`.',
    operations: ['list-authorised-sites-v1'],
    expectedCheck: 'matches-schema',
    rows: ['D3-4.1-13', 'D3-9-01'],
    reply: (reply) => {
      const sites = reply.body;
      if (reply.status !== 200 || !Array.isArray(sites)) return reply;
      const pagination = { totalRecords: sites.length, currentPage: 1, totalPages: 1, nextPage: null, prevPage: null };
      return { ...reply, body: { pagination, sites } };
    },
  },
  {
    name: 'inactive-patient-update-stored',
    kind: 'state',
    rule: 'D3 3 / DEC-D3-08: "A patient that is inactive cannot be updated": the refused update leaves it unchanged',
    description:
      'Update of an inactive patient answers the documented refusal (422 `INVALID_RESOURCE`) but stores the update.',
    operations: ['update-patient'],
    expectedCheck: 'resource-unchanged',
    rows: ['D3-3-03'],
    // The handler sees every patient as active, so it stores; the answer is then the refusal.
    repo: (repo) => ({
      ...repo,
      patient: async (siteId, id) => {
        const record = await repo.patient(siteId, id);
        return record && { ...record, resource: { ...record.resource, active: true } };
      },
    }),
    reply: async (reply, { request, repo, operations }) => {
      const id = isObject(reply.body) ? reply.body.id : undefined;
      if (reply.status !== 200 || typeof id !== 'string' || reply.body === undefined) return reply;
      const stored = await repo.patient((request.headers['su-siteid'] ?? '').trim(), id);
      return stored && !stored.resource.active
        ? errorReply(
            new ApiError(422, 'INVALID_RESOURCE', `Patient ${id} is inactive and cannot be updated`),
            operations,
          )
        : reply;
    },
  },
  {
    name: 'episode-type-named-name',
    kind: 'shape',
    rule: 'D3 2.3 / DEC-D3-29: episode type items carry `id` and `type`',
    description: "List episode types names each item's type `name` (`{id, name, description}`).",
    operations: ['list-episode-types'],
    expectedCheck: 'matches-schema',
    rows: ['D3-2.3-05'],
    reply: mapDiaryItems((item) => renamed(item, 'type', 'name')),
  },
  {
    name: 'recurrence-type-id-as-code',
    kind: 'shape',
    rule: 'D3 2.3 / DEC-D3-29: recurrence type items carry `id` and `type`',
    description: "List recurrence types names each item's id `code` (`{code, type, description}`).",
    operations: ['list-recurrence-types'],
    expectedCheck: 'matches-schema',
    rows: ['D3-2.3-07'],
    reply: mapDiaryItems((item) => renamed(item, 'id', 'code')),
  },
  {
    name: 'diary-refreshed-token-unstored',
    kind: 'auth',
    rule: 'D3 4.3 / DEC-D3-51: the refreshed access token is accepted by the diary list operations',
    description: 'Refresh token answers response 2 with a new access token it never stores: the lists answer it 401.',
    operations: ['diary-refresh-token'],
    expectedCheck: 'success-status',
    rows: ['D3-4.3-10'],
    reply: unstoredDiaryToken,
  },
  {
    name: 'diary-postauth-token-unstored',
    kind: 'auth',
    rule: 'D3 5: the diary access token of post-authorisation outcome 2 is accepted by refresh and by the list operations',
    description:
      'Post authorisation answers response 2 with an access token it never stores: refresh answers it response 1 and the lists 401.',
    // Caught where the token is refused: the lists.
    operations: ['diary-post-auth', 'list-episode-types', 'list-appointment-statuses', 'list-recurrence-types'],
    expectedCheck: 'success-status',
    rows: ['D3-5-08'],
    reply: unstoredDiaryToken,
  },
  {
    name: 'user-info-flattened',
    kind: 'shape',
    rule: 'D3 4.1, 2.2: Get user info with a valid code answers 200 with user info `{user, homesite, site}`',
    description: 'Get user info answers the members of `user` at the top level, without `homesite` and `site`.',
    operations: ['get-user-info'],
    expectedCheck: 'matches-schema',
    rows: ['D3-4.1-11'],
    reply: (reply) =>
      reply.status === 200 && isObject(reply.body) && isObject(reply.body.user)
        ? { ...reply, body: { ...reply.body.user } }
        : reply,
  },
  {
    name: 'event-info-as-list',
    kind: 'shape',
    rule: 'D3 4.1, 2.2: Get event info with a known `sns_id` answers 200 with the event',
    description: 'Get event info answers the event inside a list of one (`[event]`).',
    operations: ['get-event-info'],
    expectedCheck: 'matches-schema',
    rows: ['D3-4.1-35'],
    reply: (reply) => (reply.status === 200 && isObject(reply.body) ? { ...reply, body: [reply.body] } : reply),
  },
  {
    name: 'event-read-by-event-id',
    kind: 'validation',
    rule: 'D3 4.1, 6: events are read through Get event info with the `sns_id` generated when the event was created or updated',
    description:
      'Get event info reads the event by a query `eventId`: a request naming the event by `sns_id` only is refused 400 `eventId is missing`.',
    operations: ['get-event-info'],
    expectedCheck: 'success-status',
    rows: ['D3-6-01', 'D3-4.1-35'],
    reply: (reply, { request }) =>
      reply.status === 200 && (request.query.get('eventId') ?? '').trim() === ''
        ? accountsError(400, 'eventId is missing')
        : reply,
  },
  {
    name: 'patient-family-name-required',
    kind: 'validation',
    rule: 'D3 2.4: only the patient identifier is 1-1; a Patient without a last name (0-1) is accepted by create',
    description:
      'Create patient refuses a Patient without `name[].family` with 400 `MSG_MISSING_MANDATORY_PARAM` (the optional last name made mandatory).',
    operations: ['create-patient'],
    expectedCheck: 'success-status',
    rows: ['D3-2.4-10'],
    repo: (repo) => ({
      ...repo,
      savePatient: async (record) => {
        if (!hasFamilyName(record.resource))
          throw new ApiError(400, 'MSG_MISSING_MANDATORY_PARAM', 'Patient.name.family is required');
        return repo.savePatient(record);
      },
    }),
  },
  {
    name: 'patient-create-answers-id-only',
    kind: 'wrong-answer',
    rule: 'D3 4.4 / DEC-D3-33: create answers the created Patient, carrying the values sent',
    description:
      'Create patient stores the Patient whole but answers only `{resourceType, id, active}`: get returns what was sent, the create answer does not.',
    operations: ['create-patient'],
    expectedCheck: 'patient-round-trip',
    rows: ['D3-4.4-05'],
    reply: (reply) =>
      reply.status === 201 && isObject(reply.body)
        ? { ...reply, body: { resourceType: 'Patient', id: reply.body.id, active: reply.body.active } }
        : reply,
  },
  {
    name: 'condition-note-dated',
    kind: 'wrong-answer',
    rule: 'D3 4.4 / DEC-D3-33: the created Condition carries the note and evidence sent',
    description:
      'Add condition answers each note text prefixed with the date it was added (`2026-11-21: <text>`) and each evidence detail `display` upper-cased.',
    operations: ['create-condition'],
    expectedCheck: 'condition-round-trip',
    rows: ['D3-4.4-16'],
    reply: (reply) => {
      const body = reply.body;
      if (reply.status !== 201 || !isObject(body)) return reply;
      const note = arr(body.note).map((n) => (isObject(n) ? { ...n, text: `2026-11-21: ${String(n.text ?? '')}` } : n));
      const evidence = arr(body.evidence).map((e) =>
        isObject(e)
          ? {
              ...e,
              detail: arr(e.detail).map((d) =>
                isObject(d) && typeof d.display === 'string' ? { ...d, display: d.display.toUpperCase() } : d,
              ),
            }
          : e,
      );
      return { ...reply, body: { ...body, note, ...(body.evidence === undefined ? {} : { evidence }) } };
    },
  },
  {
    name: 'payor-create-not-stored',
    kind: 'state',
    rule: "D3 4.5 / DEC-D3-37, DEC-D3-58: after a payor or contact payor is created the site's payor listing names it",
    description:
      "Create payor and create contact as payor answer the Contract with a new id but store nothing: the site's listing does not name the payor (updates of stored payors are kept).",
    operations: ['upsert-payor', 'upsert-contact-payor'],
    expectedCheck: 'ids-listed',
    rows: ['D3-4.5-18', 'D3-4.5-24'],
    repo: (repo) => ({
      ...repo,
      savePayor: async (payor) => {
        if ((await repo.payors(payor.siteId)).some((p) => p.contractId === payor.contractId))
          await repo.savePayor(payor);
      },
    }),
  },
  {
    name: 'payor-delete-not-applied',
    kind: 'state',
    rule: "D3 4.5 / DEC-D3-37, DEC-D3-58: after a payor or contact payor is deleted the site's payor listing no longer names it",
    description:
      "Delete payor and delete contact as payor answer `MSG_DELETED_ID` but keep the payor: the site's listing still names it.",
    operations: ['delete-payor', 'delete-contact-payor'],
    expectedCheck: 'ids-listed',
    rows: ['D3-4.5-18', 'D3-4.5-24'],
    repo: (repo) => ({ ...repo, removePayor: async () => true }),
  },
  {
    name: 'sites-v2-invalid-paging-server-error',
    kind: 'validation',
    rule: 'D3 4.1 / DEC-D3-45: a `pageNumber` or `maxRecordsPerPage` that is not a positive integer is not answered with a 5xx',
    description:
      'List authorised sites v2 serves every valid page, but a `pageNumber` or `maxRecordsPerPage` that is not a positive integer (`0`, `abc`, `-1`, `1.5`) breaks its paging arithmetic: HTTP 500.',
    operations: ['list-authorised-sites-v2'],
    expectedCheck: 'not-server-error',
    rows: ['D3-4.1-28'],
    reply: (reply, { request }) => {
      const invalid = ['pageNumber', 'maxRecordsPerPage'].some((name) => {
        const v = request.query.get(name);
        return v !== null && !/^\s*[1-9]\d*\s*$/.test(v);
      });
      return invalid ? accountsError(500, 'Internal server error: invalid array length') : reply;
    },
  },
  {
    name: 'diary-post-auth-without-code-server-error',
    kind: 'validation',
    rule: 'D3 4.3 / DEC-D3-51: a post authorisation without `Code` is not answered with a 5xx',
    description:
      'Post authorisation answers every code as the reference does, but a request without the `Code` field fails dereferencing it: HTTP 500.',
    operations: ['diary-post-auth'],
    expectedCheck: 'not-server-error',
    rows: ['D3-4.3-08'],
    reply: (reply, { request }) =>
      postAuthFields(request).has('Code')
        ? reply
        : {
            status: 500,
            body: { error: 'System.NullReferenceException: Object reference not set to an instance of an object.' },
          },
  },
  {
    name: 'diary-lists-token-in-query-only',
    kind: 'auth',
    rule: 'D3 4.3, 5: the diary lists answer HTTP 200 to a GET with the diary bearer token',
    description:
      'The three diary lists read the diary token only from a query parameter `access_token`: a request carrying it as `Authorization: Bearer` is answered 401 with no body.',
    operations: ['list-episode-types', 'list-appointment-statuses', 'list-recurrence-types'],
    expectedCheck: 'success-status',
    rows: ['D3-4.3-13', 'D3-4.3-14', 'D3-4.3-15'],
    request: (req) => {
      const { authorization: _dropped, ...headers } = req.headers;
      void _dropped;
      const token = (req.query.get('access_token') ?? '').trim();
      return { ...req, headers: token === '' ? headers : { ...headers, authorization: `Bearer ${token}` } };
    },
  },
  {
    name: 'patient-read-not-modified',
    kind: 'status',
    rule: 'D3 4.4 / DEC-D3-52: a successful patient operation is answered with a 2xx status',
    description:
      'Get patient answers a read of a patient it holds 304 Not Modified with an `ETag` and no body, as if every request were conditional (no `If-None-Match` is sent).',
    operations: ['get-patient'],
    expectedCheck: 'success-status',
    rows: ['D3-4.4-19'],
    reply: (reply, { request }) =>
      reply.status === 200 && isObject(reply.body) && request.headers['if-none-match'] === undefined
        ? { status: 304, headers: { etag: `W/"${String(reply.body.id)}"` } }
        : reply,
  },
  {
    name: 'patient-unparsable-body-unsupported-media',
    kind: 'validation',
    rule: 'D3 7 / DEC-D3-53: a create body that is not JSON is refused with a code of the table at its status (400 MSG_CANT_PARSE_CONTENT)',
    description:
      'Create patient and add condition refuse a body that is not JSON with HTTP 415 and the code `MSG_UNSUPPORTED_MEDIA_TYPE`, which the table does not list.',
    operations: ['create-patient', 'create-condition'],
    expectedCheck: 'error-status-and-code',
    rows: ['D3-7-23'],
    reply: (reply, { operations }) =>
      reply.status === 400 && JSON.stringify(reply.body ?? null).includes('MSG_CANT_PARSE_CONTENT')
        ? errorReply(
            new ApiError(415, 'MSG_UNSUPPORTED_MEDIA_TYPE', 'The request body is not application/fhir+json'),
            operations,
          )
        : reply,
  },
  {
    name: 'patient-invalid-extension-400',
    kind: 'status',
    rule: 'D3 7: patient update answers `INVALID_EXTENSION` with HTTP 422 (the update table is all 422)',
    description:
      'Update patient refuses an extension whose URL is none of 2.4 with `INVALID_EXTENSION`, as the reference does, but with HTTP 400 (the status of the create table).',
    operations: ['update-patient'],
    expectedCheck: 'documented-code-has-its-status',
    rows: ['D3-7-36', 'D3-7-39'],
    reply: (reply) =>
      reply.status === 422 && JSON.stringify(reply.body ?? null).includes('INVALID_EXTENSION')
        ? { ...reply, status: 400 }
        : reply,
  },
  {
    name: 'contract-delete-missing-server-error',
    kind: 'validation',
    rule: 'D3 4.5, 7 / DEC-D3-59: deleting a payor, contact payor or service that does not exist is not a 5xx',
    description:
      'The four contract deletes remove what exists as the reference does, but deleting something that does not exist fails reading the missing record: HTTP 500.',
    operations: [
      'delete-payor',
      'delete-contact-payor',
      'delete-contract-service',
      'delete-contract-service-with-procedure',
    ],
    expectedCheck: 'not-server-error',
    rows: ['D3-4.5-38'],
    reply: (reply, { operations }) =>
      reply.status === 404
        ? errorReply(new TypeError("Cannot read properties of undefined (reading 'contractId')"), operations)
        : reply,
  },
  {
    name: 'contract-value-sets-not-modified',
    kind: 'status',
    rule: 'D3 4.5 / DEC-D3-52: a successful contract operation is answered with a 2xx status',
    description:
      'The contract type and sub-type value sets answer 304 Not Modified with an `ETag` and no body, as if every request were conditional (no `If-None-Match` is sent).',
    operations: ['list-contract-types', 'list-contract-subtypes'],
    expectedCheck: 'success-status',
    rows: ['D3-4.5-40'],
    reply: (reply, { request }) =>
      reply.status === 200 && isObject(reply.body) && request.headers['if-none-match'] === undefined
        ? { status: 304, headers: { etag: `W/"${String(reply.body.id ?? 'valueset')}"` } }
        : reply,
  },
  {
    name: 'effective-prices-site-dropped-with-payor',
    kind: 'filter',
    rule: 'D3 4.5 / DEC-D3-56: `site` gives the prices of that site; every returned Contract with a `Site/` subject names it',
    description:
      'Effective prices honour `site` alone, but when `payor` is given too they answer the prices of that payor at every site (each Contract naming its own site as its subject, as the sandbox does).',
    operations: ['get-effective-prices'],
    expectedCheck: 'entries-match-filter',
    rows: ['D3-4.5-03'],
    repo: (repo, { request }) => ({
      ...repo,
      priceContracts: async (siteId) =>
        (request.query.get('payor') ?? '').trim() === '' ? repo.priceContracts(siteId) : repo.priceContracts(undefined),
    }),
  },
  {
    name: 'effective-prices-count-tag-default',
    kind: 'paging',
    rule: 'D3 4.5 / DEC-D3-56, DEC-D1-12: the paging tags of an effective-prices Bundle agree with the request',
    description:
      'Effective prices page as asked, but the `count` tag always says the default page size (`10`), whatever `count` was sent.',
    operations: ['get-effective-prices'],
    expectedCheck: 'paging-tags-match-request',
    rows: ['D3-4.5-07'],
    reply: (reply) => {
      const body = reply.body;
      if (reply.status !== 200 || !isObject(body) || !isObject(body.meta)) return reply;
      const tag = arr(body.meta.tag).map((t) => (isObject(t) && t.code === 'count' ? { ...t, display: '10' } : t));
      return { ...reply, body: { ...body, meta: { ...body.meta, tag } } };
    },
  },
  {
    name: 'effective-prices-unpriced-not-found',
    kind: 'validation',
    rule: 'D3 7 / DEC-D3-56: "no match yields an empty result set": effective prices of a service nothing is priced for is an empty Bundle',
    description:
      'Effective prices answer a `service-code` that no contract prices with 404 `MSG_ENTITY_NOT_FOUND_IN_DATABASE` instead of an empty Bundle.',
    operations: ['get-effective-prices'],
    expectedCheck: 'success-status',
    rows: ['D3-7-44'],
    reply: (reply, { request, operations }) => {
      const body = reply.body;
      const empty = isObject(body) && arr(body.entry).length === 0;
      return reply.status === 200 && empty && (request.query.get('service-code') ?? '').trim() !== ''
        ? errorReply(
            new ApiError(404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE', 'No contract prices the service'),
            operations,
          )
        : reply;
    },
  },
  {
    name: 'sites-unknown-token-empty-list',
    kind: 'auth',
    rule: 'D3 5 / DEC-D3-39: an accounts request with an unknown token is refused with a 4xx status',
    description:
      'List authorised sites (both versions) refuse a request without a token, but answer an unknown token as a user with no sites: HTTP 200 with an empty list.',
    operations: ['list-authorised-sites-v1', 'list-authorised-sites-v2'],
    expectedCheck: 'request-refused',
    rows: ['D3-5-01'],
    reply: (reply, { request, operations }) => {
      if (reply.status !== 401 || !isObject(reply.body) || reply.body.message !== UNKNOWN_TOKEN) return reply;
      return operations.includes('list-authorised-sites-v2')
        ? { status: 200, body: pagedV2(request, []) }
        : { status: 200, body: [] };
    },
  },
  {
    name: 'accounts-refusal-carries-data',
    kind: 'auth',
    rule: 'D3 5 / DEC-D3-39: a request without a token, or with an unknown one, is refused with a 4xx status and returns no data',
    description:
      "The accounts operations answer a request without a token, or with an unknown one, 401, but with the body a signed-in user would get (the sandbox's first user, as if signed in through its client).",
    operations: ACCOUNTS_OPERATIONS,
    expectedCheck: 'refusal-returns-no-data',
    rows: ['D3-5-01'],
    request: async (req, { repo }) => {
      const token = /^Bearer\s+(\S+)$/i.exec((req.headers.authorization ?? '').trim())?.[1];
      if (token !== undefined && (await repo.accessGrant(token)) !== undefined) return req;
      const [user] = await repo.users();
      if (user === undefined) return req;
      const issued = await repo.issueUserTokens(SANDBOX_CLIENT, user.id);
      return { ...req, headers: { ...req.headers, authorization: `Bearer ${issued.accessToken}` } };
    },
    reply: (reply, { request, received }) =>
      request.headers.authorization !== received.headers.authorization && reply.status >= 200 && reply.status < 300
        ? { ...reply, status: 401 }
        : reply,
  },
  {
    name: 'user-details-inaccessible-user-not-found',
    kind: 'status',
    rule: 'D3 7: a user the client account has no access to is answered 403 `The client account <client_account> does not have access to this user <user_id>`',
    description:
      'Get user details answers a user the client account may not see as if it did not exist: 404 `User <user_id> not found`.',
    operations: ['get-user-details'],
    expectedCheck: 'accounts-error-answer',
    rows: ['D3-7-12'],
    reply: (reply, { request }) =>
      reply.status === 403 &&
      isObject(reply.body) &&
      /does not have access to this user/.test(String(reply.body.message))
        ? accountsError(404, `User ${(request.headers['su-userid'] ?? '').trim()} not found`)
        : reply,
  },
  {
    name: 'event-invalid-sns-id-400',
    kind: 'status',
    rule: 'D3 7: an invalid `sns_id` is answered HTTP 403 `SNS_ID is Invalid.`',
    description:
      'Get event info answers an unknown `sns_id` with the documented message, but with HTTP 400 (and `code` 400).',
    operations: ['get-event-info'],
    expectedCheck: 'accounts-error-answer',
    rows: ['D3-7-13'],
    reply: (reply) =>
      reply.status === 403 && isObject(reply.body) && reply.body.message === 'SNS_ID is Invalid.'
        ? accountsError(400, 'SNS_ID is Invalid.')
        : reply,
  },
  {
    name: 'token-details-missing-uri-not-signed-in',
    kind: 'validation',
    rule: 'D3 7 / DEC-D3-65: token details without `redirect_uri` is refused 400 `redirect_uri is required`',
    description:
      'Token details looks the sign-in up before reading `redirect_uri`: a request without it is answered 400 `User not logged in with NHS account`.',
    operations: ['get-idp-token-details'],
    expectedCheck: 'invalid-request-answered',
    rows: ['D3-7-45'],
    reply: (reply) =>
      isObject(reply.body) && reply.body.message === 'redirect_uri is required'
        ? { ...reply, body: { ...reply.body, message: 'User not logged in with NHS account' } }
        : reply,
  },
];
