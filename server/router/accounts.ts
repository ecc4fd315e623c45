/**
 * Accounts operations (Document 3, 2.2, 4.1, 5, 7; DEC-D3-03..05). Every answer, error or not,
 * is `application/json`; errors are `{message, code}` with the messages of section 7, placeholders
 * filled. A bearer token is a user token (password grant) or a client token (client credentials);
 * a user reaches the sites it is connected to and their child sites. A missing or unknown token
 * is 401 `{message, code}`; an operation that needs a user answers a client token 400 `userId not
 * found in authentication token`; a missing required SU-SiteId is 400 `SU-SiteId is missing`.
 */
import type { AccessGrant, ClientAccount, Site, User } from '../repo/model.ts';
import {
  eventOf,
  roleOf,
  siteOf,
  siteUsersOf,
  subscriptionOf,
  userDetailsOf,
  userInfoOf,
} from '../resources/accounts.ts';
import { MessageError } from './errors.ts';
import { ok, type SandboxContext, type SandboxReply, type SandboxRequest } from './types.ts';

/** Default page size of list authorised sites v2 (DEC-D3-05). */
export const SITES_V2_DEFAULT_PAGE_SIZE = 10;

const fail = (status: number, message: string): never => {
  throw new MessageError(status, message, 'accounts');
};

interface AccountsCaller {
  grant: AccessGrant;
  user?: User;
}

/** The caller of a bearer token: a user token names its user, a client token none. */
export async function accountsCaller(req: SandboxRequest, ctx: SandboxContext): Promise<AccountsCaller> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  const grant = match ? await ctx.repo.accessGrant(match[1]) : undefined;
  if (!grant || grant.kind === 'diary') {
    throw new MessageError(
      401,
      match
        ? 'The access token is invalid, expired or revoked'
        : 'Authorization header with a Bearer token is required',
      'accounts',
      { 'www-authenticate': 'Bearer' },
    );
  }
  const user = grant.userId === undefined ? undefined : (await ctx.repo.users()).find((u) => u.id === grant.userId);
  return { grant, user };
}

/** The user of the token, or 400 `userId not found in authentication token` (7). */
function requireUser(caller: AccountsCaller): User {
  return caller.user ?? fail(400, 'userId not found in authentication token');
}

/** The active client account of a client token, or the 422s of section 7. */
async function activeClientAccount(ctx: SandboxContext, grant: AccessGrant): Promise<ClientAccount> {
  const account = (await ctx.repo.clientAccounts()).find((a) => a.clientId === grant.clientId);
  if (!account) return fail(422, 'No account is associated for this client');
  if (account.status !== 'ACTIVE') return fail(422, `The client account ${account.id} status should be ACTIVE`);
  return account;
}

/** The sites a user reaches: those it is connected to and their child sites, in id order. */
export function reachableSites(user: User, sites: readonly Site[]): Site[] {
  const connected = new Set(user.siteIds);
  return sites.filter((s) => connected.has(s.id) || (s.parentId !== undefined && connected.has(s.parentId)));
}

/** The user's connected sites that are ACTIVE (v1 and user details list only these). */
function activeConnectedSites(user: User, sites: readonly Site[]): Site[] {
  return sites.filter((s) => user.siteIds.includes(s.id) && s.status === 'ACTIVE');
}

function siteHeader(req: SandboxRequest, name: 'su-siteid' | 'su-userid'): string | undefined {
  const v = (req.headers[name] ?? '').trim();
  return v === '' ? undefined : v;
}

const siteById = async (ctx: SandboxContext, id: string): Promise<Site | undefined> =>
  (await ctx.repo.sites()).find((s) => s.id === id);

export async function introspect(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const caller = await accountsCaller(req, ctx);
  if (!caller.user) await activeClientAccount(ctx, caller.grant);
  const user = requireUser(caller);
  const siteId = siteHeader(req, 'su-siteid');
  if (siteId !== undefined) {
    const site = reachableSites(user, await ctx.repo.sites()).find((s) => s.id === siteId);
    if (!site) fail(403, `The SU-Site ${siteId} and SU-User ${user.id} authorisation is invalid`);
    else if (site.status !== 'ACTIVE') fail(403, `The SU-Site ${siteId} status should be ACTIVE`);
  }
  return ok({ status: 'success' });
}

export async function listFeatures(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const user = requireUser(await accountsCaller(req, ctx));
  const siteId = siteHeader(req, 'su-siteid');
  if (siteId !== undefined && !reachableSites(user, await ctx.repo.sites()).some((s) => s.id === siteId))
    fail(403, 'Features not found');
  const role = (await ctx.repo.roles()).find((r) => r.roleId === user.roleId);
  return role ? ok(roleOf(role)) : fail(403, 'Features not found');
}

export async function getUserInfo(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await accountsCaller(req, ctx);
  const code = (req.query.get('code') ?? '').trim();
  const known = (await ctx.repo.userInfoCodes()).find((c) => c.code === code);
  const user = known && (await ctx.repo.users()).find((u) => u.id === known.userId);
  if (!known || !user) return fail(422, 'Secret code not found');
  const sites = await ctx.repo.sites();
  const home = sites.find((s) => s.id === user.homeSiteId);
  const current = sites.find((s) => s.id === known.siteId);
  if (!home || !current) throw new Error(`User info code ${code} names an unknown site`);
  return ok(
    userInfoOf(
      user,
      (await ctx.repo.roles()).filter((r) => r.roleId === user.roleId),
      home,
      current,
    ),
  );
}

export async function listAuthorisedSitesV1(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const user = requireUser(await accountsCaller(req, ctx));
  return ok(activeConnectedSites(user, await ctx.repo.sites()).map(siteOf));
}

function positiveInteger(req: SandboxRequest, name: string, fallback: number): number {
  const raw = req.query.get(name);
  if (raw === null || raw.trim() === '') return fallback;
  if (!/^[1-9]\d{0,8}$/.test(raw.trim())) fail(400, `${name} must be a positive integer, received ${raw}`);
  return Number(raw.trim());
}

/** Version 2 (DEC-D3-05): reachable sites of any status, paged, `search` by id or name. */
export async function listAuthorisedSitesV2(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const user = requireUser(await accountsCaller(req, ctx));
  const pageNumber = positiveInteger(req, 'pageNumber', 1);
  const size = positiveInteger(req, 'maxRecordsPerPage', SITES_V2_DEFAULT_PAGE_SIZE);
  const search = (req.query.get('search') ?? '').trim().toLowerCase();
  const matches = reachableSites(user, await ctx.repo.sites()).filter(
    (s) => search === '' || s.id.toLowerCase() === search || s.name.toLowerCase().includes(search),
  );
  const totalPages = Math.ceil(matches.length / size);
  const last = pageNumber >= totalPages;
  const nextPage = last ? null : pageNumber + 1;
  return ok({
    pagination: {
      totalRecords: matches.length,
      currentPage: pageNumber,
      totalPages,
      nextPage,
      prevPage: pageNumber > 1 ? pageNumber - 1 : null,
    },
    sites: matches.slice((pageNumber - 1) * size, pageNumber * size).map(siteOf),
  });
}

export async function listSiteSubscriptions(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const caller = await accountsCaller(req, ctx);
  const siteId = siteHeader(req, 'su-siteid') ?? fail(400, 'SU-SiteId is missing');
  const user = requireUser(caller);
  const subscription = (await ctx.repo.subscriptions()).find((s) => s.siteId === siteId);
  if (!reachableSites(user, await ctx.repo.sites()).some((s) => s.id === siteId) || !subscription) {
    return fail(403, 'Loggedin user does not have permission to perform this operation.');
  }
  return ok(subscriptionOf(subscription));
}

export async function getUserDetails(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const caller = await accountsCaller(req, ctx);
  let user = caller.user;
  if (!user) {
    const account = await activeClientAccount(ctx, caller.grant);
    const userId = siteHeader(req, 'su-userid') ?? fail(422, 'SU-UserId is missing');
    user = account.userIds.includes(userId) ? (await ctx.repo.users()).find((u) => u.id === userId) : undefined;
    if (!user) return fail(403, `The client account ${account.id} does not have access to this user ${userId}`);
  }
  const sites = await ctx.repo.sites();
  const home = sites.find((s) => s.id === user.homeSiteId);
  if (!home) throw new Error(`User ${user.id} has an unknown home site`);
  return ok(userDetailsOf(user, home, activeConnectedSites(user, sites)));
}

export async function getEventInfo(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await accountsCaller(req, ctx);
  const snsId = (req.query.get('sns_id') ?? '').trim();
  const event = (await ctx.repo.events()).find((e) => e.snsId === snsId);
  const site = event && (await siteById(ctx, event.siteId));
  if (!event || !site) return fail(403, 'SNS_ID is Invalid.');
  return ok(eventOf(event, site, site.parentId === undefined ? undefined : await siteById(ctx, site.parentId)));
}

/** 4.1: an invalid site id is HTTP 200 with a message; a site without users has an empty list. */
export async function getSiteUsers(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await accountsCaller(req, ctx);
  if (siteHeader(req, 'su-siteid') === undefined) fail(400, 'SU-SiteId is missing');
  const siteId = (req.params.siteId ?? '').trim();
  const site = siteId === '' ? undefined : await siteById(ctx, siteId);
  if (!site) {
    return ok({ message: `Siteid is invalid : ${siteId}` });
  }
  return ok(
    siteUsersOf(
      site,
      (await ctx.repo.users()).filter((u) => u.siteIds.includes(site.id)),
    ),
  );
}
