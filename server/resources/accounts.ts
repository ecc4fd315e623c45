/**
 * Accounts objects (Document 3, 2.2): site, role (feature list), user info, user details, site
 * users, subscription, event. Dates of users are `YYYY-MM-DD HH:MM:SS` as the document shows.
 */
import { SITE_TYPE_NAMES } from '../fixtures/accounts.ts';
import type { AccountEvent, Role, Site, Subscription, User } from '../repo/model.ts';

/** A site; `parentsite` only for a child site. */
export function siteOf(s: Site): Record<string, unknown> {
  return {
    id: s.id,
    name: s.name,
    identifier: s.identifier,
    description: s.description,
    status: s.status,
    type: s.type,
    ...(s.parentId === undefined ? {} : { parentsite: { id: s.parentId } }),
  };
}

export function roleOf(r: Role): Record<string, unknown> {
  return { ...r, features: r.features.map((f) => ({ ...f })), productGroup: { ...r.productGroup } };
}

export function userInfoOf(u: User, roles: readonly Role[], home: Site, current: Site): Record<string, unknown> {
  return {
    user: {
      id: u.id,
      title: u.title,
      family: u.family,
      given: u.given,
      middlename: u.middlename,
      loginEmailAddress: u.email,
      manageSubscriptions: [],
      roles: roles.map((r) => ({ roleId: r.roleId, code: r.code, name: r.name })),
      creationdate: u.creationDate,
      lastupdatedon: u.lastUpdated,
    },
    homesite: { id: home.id, name: home.name },
    site: { id: current.id, name: current.name, type: current.type },
  };
}

/** User details with the user's active sites (4.1). */
export function userDetailsOf(u: User, home: Site, activeSites: readonly Site[]): Record<string, unknown> {
  return {
    userId: u.id,
    title: u.title,
    firstName: u.given,
    lastName: u.family,
    middlename: u.middlename,
    loginEmailAddress: u.email,
    status: u.status,
    homesite: { id: home.id, name: home.name },
    sites: activeSites.map((s) => ({ siteId: s.id, siteName: s.name, description: s.description, siteType: s.type })),
  };
}

export function siteUsersOf(s: Site, users: readonly User[]): Record<string, unknown> {
  return {
    siteId: s.id,
    siteName: s.name,
    users: users.map((u) => ({
      userId: u.id,
      firstName: u.given,
      lastName: u.family,
      middleName: u.middlename,
      status: u.status,
      loginEmailAddress: u.email,
    })),
  };
}

export function subscriptionOf(s: Subscription): Record<string, unknown> {
  return {
    siteId: s.siteId,
    subscriptions: {
      subscriptionId: s.subscriptionId,
      plan: {
        planId: s.planId,
        planName: s.planName,
        planDescription: s.planDescription,
        planSlab: s.planSlab,
        siteTypes: s.siteTypes.map((code) => ({ code, name: SITE_TYPE_NAMES[code] })),
      },
    },
  };
}

/** A site event (2.2, 6): the resource is the site with its account and parent site. */
export function eventOf(e: AccountEvent, site: Site, parent: Site | undefined): Record<string, unknown> {
  return {
    eventId: e.eventId,
    eventStatus: e.eventStatus,
    eventType: e.eventType,
    resource: {
      id: site.id,
      name: site.name,
      creationDate: e.creationDate,
      createdBy: e.createdBy,
      isSyncWithCrm: false,
      account: {
        id: e.accountId,
        name: e.accountName,
        status: 'ACTIVE',
        isAccountManager: false,
        isSyncWithCrm: false,
        is2FaEnforced: true,
      },
      ...(parent === undefined
        ? {}
        : {
            parentSite: {
              id: parent.id,
              name: parent.name,
              status: parent.status,
              type: parent.type,
              isSyncWithCrm: false,
            },
          }),
    },
  };
}
