/**
 * The one route table: every Document 1, 2 and 3 operation (operationTable.ts) at its sandbox
 * address (addresses.ts + the operation's pathSuffix), plus the sandbox's own routes (discovery
 * per service, token, health). Operations that share a method and path (find member versions;
 * the contract upserts, deletes and price settings) share one handler that tells them apart.
 * `dispatch` matches a request, runs the handler and sends anything thrown through the error edge
 * (errors.ts).
 */
import type { HttpMethod, Operation, ServiceId } from '../../spec/types.ts';
import { DISCOVERY_PATHS, addressOf } from './addresses.ts';
import { getPractitionerPhoto, searchRegisterPractitionerRoles, searchRegisterPractitioners } from './register.ts';
import { ackRemittance, getRemittanceDetails, listPendingRemittances } from './batches.ts';
import { getBill, searchBills } from './bills.ts';
import {
  getBookingPractitioner,
  getBookingPractitionerRole,
  searchBookingPractitionerRoles,
  searchBookingPractitioners,
} from './booking.ts';
import { getCodeSet } from './codeSets.ts';
import {
  getEventInfo,
  getSiteUsers,
  getUserDetails,
  getUserInfo,
  introspect,
  listAuthorisedSitesV1,
  listAuthorisedSitesV2,
  listFeatures,
  listSiteSubscriptions,
} from './accounts.ts';
import {
  deleteContractService,
  deletePayor,
  getEffectivePrices,
  listContractSubtypes,
  listContractTypes,
  listSitePayors,
  setContractPrice,
  upsertPayor,
} from './contracts.ts';
import {
  diaryPostAuth,
  diaryRefreshToken,
  listAppointmentStatuses,
  listEpisodeTypes,
  listRecurrenceTypes,
} from './diary.ts';
import { discoveryOf, health } from './discovery.ts';
import { ApiError, errorReply } from './errors.ts';
import { findMember } from './findMember.ts';
import { geocodePostcode, retrieveAddress, searchAddress, validatePostcode } from './addressSearch.ts';
import { listHospitalClaims, searchHospitalClaims } from './hospitalClaims.ts';
import { getInsurerControlParameters, listInsurers, lookupLocations, lookupPractitioners } from './lookups.ts';
import { OPENAPI_ROUTES } from './openapiDocs.ts';
import { SERVED_OPERATIONS, servedOperation } from './operationTable.ts';
import {
  createCondition,
  createPatient,
  deleteCondition,
  deletePatient,
  getPatient,
  updatePatient,
} from './patients.ts';
import { searchAuthorisation } from './authorisation.ts';
import { searchRemittanceDetail, searchRemittanceSummary } from './remittanceSearch.ts';
import { getIdpTokenDetails, logout, revokeToken } from './signOn.ts';
import { issueToken } from './token.ts';
import type { Handler, SandboxContext, SandboxReply, SandboxRequest, SandboxSetup, WireReply } from './types.ts';

export const JSON_MEDIA_TYPE = 'application/json; charset=utf-8';
export const FHIR_JSON_MEDIA_TYPE = 'application/fhir+json; charset=utf-8';

export interface Route {
  method: HttpMethod;
  /** Path with `{name}` placeholders for path parameters. */
  pattern: string;
  /** Operation ids served by this route ([] for the sandbox's own routes). */
  operations: readonly string[];
  /** Content-Type of JSON answers (success and error). */
  mediaType: string;
  handler: Handler;
  /**
   * The sandbox's own documents (the OpenAPI export), not an answer of the documented API: no
   * fault or variant changes them, so a tool reading them sees the same contract whatever is on.
   */
  unmodified?: boolean;
  /**
   * The service whose discovery document the route serves: the `discovery` members of the faults
   * and variants of that service's operations rewrite it (faults nearest the handler).
   */
  discovery?: ServiceId;
}

const HANDLERS: Readonly<Record<string, Handler>> = {
  'find-member-v1': findMember,
  'find-member-v2': findMember,
  'search-authorisation': searchAuthorisation,
  'search-remittance-summary': searchRemittanceSummary,
  'search-remittance-detail': searchRemittanceDetail,
  'list-pending-remittances': listPendingRemittances,
  'get-remittance-details': getRemittanceDetails,
  'ack-remittance': ackRemittance,
  'list-hospital-claims': listHospitalClaims,
  'search-hospital-claims': searchHospitalClaims,
  'search-bills': searchBills,
  'get-bill': getBill,
  'get-code-set': getCodeSet,
  'lookup-practitioners': lookupPractitioners,
  'lookup-locations': lookupLocations,
  'list-insurers': listInsurers,
  'get-insurer-control-parameters': getInsurerControlParameters,
  'search-address': searchAddress,
  'retrieve-address': retrieveAddress,
  'geocode-postcode': geocodePostcode,
  'validate-postcode': validatePostcode,
  'search-register-practitioners': searchRegisterPractitioners,
  'get-practitioner-photo': getPractitionerPhoto,
  'search-register-practitioner-roles': searchRegisterPractitionerRoles,
  'get-booking-practitioner': getBookingPractitioner,
  'search-booking-practitioners': searchBookingPractitioners,
  'get-booking-practitioner-role': getBookingPractitionerRole,
  'search-booking-practitioner-roles': searchBookingPractitionerRoles,
  introspect,
  'list-features': listFeatures,
  'get-user-info': getUserInfo,
  'list-authorised-sites-v1': listAuthorisedSitesV1,
  'list-authorised-sites-v2': listAuthorisedSitesV2,
  'list-site-subscriptions': listSiteSubscriptions,
  'get-user-details': getUserDetails,
  'get-event-info': getEventInfo,
  'get-site-users': getSiteUsers,
  logout,
  'revoke-token': revokeToken,
  'get-idp-token-details': getIdpTokenDetails,
  'diary-post-auth': diaryPostAuth,
  'diary-refresh-token': diaryRefreshToken,
  'list-episode-types': listEpisodeTypes,
  'list-appointment-statuses': listAppointmentStatuses,
  'list-recurrence-types': listRecurrenceTypes,
  'create-patient': createPatient,
  'get-patient': getPatient,
  'update-patient': updatePatient,
  'delete-patient': deletePatient,
  'create-condition': createCondition,
  'delete-condition': deleteCondition,
  'get-effective-prices': getEffectivePrices,
  'list-contract-types': listContractTypes,
  'list-contract-subtypes': listContractSubtypes,
  'list-site-payors': listSitePayors,
  'upsert-payor': upsertPayor,
  'upsert-contact-payor': upsertPayor,
  'delete-payor': deletePayor,
  'delete-contact-payor': deletePayor,
  'set-contract-service': setContractPrice,
  'set-contract-service-with-procedure': setContractPrice,
  'set-contract-price': setContractPrice,
  'delete-contract-service': deleteContractService,
  'delete-contract-service-with-procedure': deleteContractService,
};

/**
 * Services whose operations are FHIR-style (`application/fhir+json`, DEC-D2-26; Document 3: the
 * patient and contract resources); the others answer `application/json`.
 */
export const FHIR_SERVICES: ReadonlySet<ServiceId> = new Set([
  'claims',
  'reference',
  'register',
  'booking',
  'patients',
  'contracts',
]);

export const mediaTypeOf = (op: Operation): string =>
  FHIR_SERVICES.has(op.service) ? FHIR_JSON_MEDIA_TYPE : JSON_MEDIA_TYPE;

/**
 * The suffixes an operation is served at: its pathSuffix, then without each optional trailing
 * path parameter (`{codes_valueset_namespace}/{set_name}` as well as `/{set_name}/{scheme}`).
 */
function suffixesOf(op: Operation): string[] {
  const suffixes = [op.pathSuffix];
  let parts = op.pathSuffix.split('/');
  for (;;) {
    const name = /^\{(.+)\}$/.exec(parts[parts.length - 1] ?? '')?.[1];
    if (name === undefined || op.parameters.some((p) => p.in === 'path' && p.name === name && p.required)) break;
    parts = parts.slice(0, -1);
    suffixes.push(parts.join('/'));
  }
  return suffixes;
}

function buildRoutes(): Route[] {
  const routes: (Route & { operations: string[] })[] = [];
  const add = (method: HttpMethod, pattern: string, operationId: string, mediaType: string, handler: Handler) => {
    const same = routes.find((r) => r.method === method && r.pattern === pattern);
    if (!same) routes.push({ method, pattern, operations: [operationId], mediaType, handler });
    else if (same.handler !== handler)
      throw new Error(
        `${operationId} and ${same.operations.join(', ')} share ${method} ${pattern} but not their handler`,
      );
    else if (!same.operations.includes(operationId)) same.operations.push(operationId);
  };
  for (const op of SERVED_OPERATIONS) {
    const handler = HANDLERS[op.id];
    if (!handler) throw new Error(`No sandbox handler for operation ${op.id}`);
    for (const suffix of suffixesOf(op))
      add(op.method, `${addressOf(op.service, op.discoveryKey)}${suffix}`, op.id, mediaTypeOf(op), handler);
  }
  // The bare address of an operation whose path parameters follow it directly, where no other
  // operation lives there: the handler then refuses the missing path parameter with the
  // documented code. (Not for a service base such as `{accounts_url}`.)
  for (const op of SERVED_OPERATIONS.filter((o) => o.pathSuffix.startsWith('/{'))) {
    const pattern = addressOf(op.service, op.discoveryKey);
    const taken = routes.find((r) => r.method === op.method && r.pattern === pattern);
    if (!taken || taken.handler === HANDLERS[op.id]) add(op.method, pattern, op.id, mediaTypeOf(op), HANDLERS[op.id]);
  }
  const discovery = (Object.keys(DISCOVERY_PATHS) as ServiceId[]).map(
    (service): Route => ({
      method: 'GET',
      pattern: DISCOVERY_PATHS[service],
      operations: [],
      mediaType: JSON_MEDIA_TYPE,
      handler: discoveryOf(service),
      discovery: service,
    }),
  );
  return [
    ...routes,
    ...discovery,
    { method: 'POST', pattern: '/oauth/token', operations: [], mediaType: JSON_MEDIA_TYPE, handler: issueToken },
    { method: 'GET', pattern: '/_sandbox/health', operations: [], mediaType: JSON_MEDIA_TYPE, handler: health },
    ...OPENAPI_ROUTES.map(
      ({ pattern, handler }): Route => ({
        method: 'GET',
        pattern,
        operations: [],
        mediaType: JSON_MEDIA_TYPE,
        handler,
        unmodified: true,
      }),
    ),
  ];
}

export const ROUTES: readonly Route[] = buildRoutes();

const segmentsOf = (path: string): string[] =>
  path
    .split('/')
    .slice(1)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });

/** Path parameters when the path fits the pattern; literal segments compare exactly. */
function matchPattern(pattern: string, segments: readonly string[]): Record<string, string> | undefined {
  const parts = pattern.split('/').slice(1);
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const name = /^\{(.+)\}$/.exec(parts[i])?.[1];
    if (name !== undefined) params[name] = segments[i];
    else if (parts[i] !== segments[i]) return undefined;
  }
  return params;
}

const literalCount = (pattern: string) => pattern.split('/').filter((p) => p !== '' && !p.startsWith('{')).length;

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/** The matching route (the most literal one wins), or the methods the path allows. */
export function matchRoute(method: string, path: string): RouteMatch | { allowed: HttpMethod[] } {
  const segments = segmentsOf(path);
  const wanted = method === 'HEAD' ? 'GET' : method;
  const fits = ROUTES.map((route) => ({ route, params: matchPattern(route.pattern, segments) }))
    .filter((m): m is RouteMatch => m.params !== undefined)
    .sort((a, b) => literalCount(b.route.pattern) - literalCount(a.route.pattern));
  const hit = fits.find(
    (m) => m.route.method === wanted && literalCount(m.route.pattern) === literalCount(fits[0].route.pattern),
  );
  if (hit) return hit;
  return {
    allowed: [
      ...new Set(
        fits
          .filter((m) => literalCount(m.route.pattern) === literalCount(fits[0].route.pattern))
          .map((m) => m.route.method),
      ),
    ],
  };
}

export type { WireReply } from './types.ts';

export async function dispatch(request: Omit<SandboxRequest, 'params'>, setup: SandboxSetup): Promise<WireReply> {
  const match = matchRoute(request.method, request.path);
  if (!('route' in match)) {
    const error =
      match.allowed.length === 0
        ? new ApiError(404, 'MSG_NOT_FOUND', `No resource at ${request.path}`)
        : new ApiError(405, 'MSG_METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${request.path}`, {
            allow: match.allowed.join(', '),
          });
    return applyModifiers(setup, [], { ...request, params: {} }, async () => errorReply(error, []), JSON_MEDIA_TYPE);
  }
  const { route, params } = match;
  const handler =
    route.discovery === undefined ? route.handler : discoveryModified(route.handler, route.discovery, setup);
  return applyModifiers(
    setup,
    route.operations,
    { ...request, params },
    async (req, ctx) => {
      try {
        return await handler(req, ctx);
      } catch (error) {
        return errorReply(error, route.operations);
      }
    },
    route.mediaType,
    route.unmodified !== true,
  );
}

/**
 * A discovery document's handler inside the `discovery` members of the faults and variants of the
 * service's operations: the faults nearest the handler, then the variants.
 */
function discoveryModified(handler: Handler, service: ServiceId, setup: SandboxSetup): Handler {
  const operations = SERVED_OPERATIONS.filter((op) => op.service === service).map((op) => op.id);
  return async (request, ctx) => {
    let reply = await handler(request, ctx);
    const scope = { service, operations, request };
    for (const m of [...setup.faults.for(operations), ...setup.variants.for(operations)])
      if (m.discovery) reply = m.discovery(reply, scope);
    return reply;
  };
}

/**
 * Runs the reference handler inside the route's modifiers: the variants outermost, the faults
 * nearest the handler (a faulty server, then a legitimate choice of form over it). Requests pass
 * the variants then the faults; replies and the wire the faults then the variants.
 */
async function applyModifiers(
  setup: SandboxSetup,
  operations: readonly string[],
  received: SandboxRequest,
  handle: (request: SandboxRequest, ctx: SandboxContext) => Promise<SandboxReply>,
  mediaType: string,
  modifiable = true,
): Promise<WireReply> {
  const faults = modifiable ? setup.faults.for(operations) : [];
  const variants = modifiable ? setup.variants.for(operations) : [];
  const inward = [...variants, ...faults];
  const outward = [...faults, ...variants];
  const base = { operations, repo: setup.repo };
  let request = received;
  for (const m of inward) if (m.request) request = await m.request(request, base);
  let repo = setup.repo;
  for (const m of outward) if (m.repo) repo = m.repo(repo, { ...base, request });
  const ctx: SandboxContext = {
    repo,
    baseUrl: setup.baseUrl,
    faultNames: setup.faults.list(),
    served: (operationId) => outward.reduce((op, m) => (m.served ? m.served(op) : op), servedOperation(operationId)),
  };
  let reply = await handle(request, ctx);
  const scope = { ...base, request, received };
  for (const m of outward) if (m.reply) reply = await m.reply(reply, scope);
  let wire = toWire(reply, mediaType);
  for (const m of outward) if (m.wire) wire = m.wire(wire, scope);
  return wire;
}

function toWire(
  reply: { status: number; body?: unknown; headers?: Record<string, string> },
  mediaType: string,
): WireReply {
  const headers = { ...reply.headers };
  if (reply.body === undefined) return { status: reply.status, headers };
  return {
    status: reply.status,
    headers: { ...headers, 'content-type': mediaType },
    payload: JSON.stringify(reply.body),
  };
}
