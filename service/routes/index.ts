/**
 * Every route of the service, as data: method, URL, who may use it, and its handler. The app
 * (service/app.ts) installs them with one access check in front of each: a route's `:organisationId`,
 * `:productId` and `:runId` must name a row of the signed-in person's organisation (the operator
 * sees every organisation), else the answer is 404 (not 403: another organisation's ids are not
 * confirmed to exist). test/serviceAccess.test.ts walks this list with another organisation's ids.
 * A `:certificateId` is not an owned row: a certificate's page and status are public, and its one
 * other route (revoke) is the operator's; a `:userId` is named by the operator's routes alone.
 */
import { ACCOUNT_ROUTES } from './accounts.ts';
import { AUDIT_ROUTES } from './audit.ts';
import { CERTIFICATE_ROUTES } from './certificates.ts';
import { LIFECYCLE_ROUTES } from './lifecycle.ts';
import { PRODUCT_ROUTES } from './products.ts';
import { RUN_ROUTES } from './runs.ts';
import { PACT_ROUTES } from './pacts.ts';
import { WORKSPACE_ROUTES } from './workspaces.ts';
import type { RouteSpec } from './shared.ts';

export { createInvite } from './accounts.ts';
export { historyChart } from './runs.ts';
export { notFound, OWNED_PARAMS, type OwnedParam, ownerOf, type RouteSpec } from './shared.ts';
export { SESSION_COOKIE } from '../sessions.ts';

export const ROUTES: RouteSpec[] = [
  ...ACCOUNT_ROUTES,
  ...LIFECYCLE_ROUTES,
  ...PRODUCT_ROUTES,
  ...RUN_ROUTES,
  ...WORKSPACE_ROUTES,
  ...PACT_ROUTES,
  ...CERTIFICATE_ROUTES,
  ...AUDIT_ROUTES,
];
