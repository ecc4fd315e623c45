/**
 * The one route table: every Document 1 operation of spec/operations.ts at its sandbox address
 * (addresses.ts + the operation's pathSuffix), plus the sandbox's own routes (discovery, token,
 * health). `dispatch` matches a request, runs the handler and sends anything thrown through the
 * error edge (errors.ts).
 */
import { operations } from '../../spec/operations.ts';
import type { HttpMethod } from '../../spec/types.ts';
import { ADDRESSES, DISCOVERY_PATHS } from './addresses.ts';
import { ackRemittance, getRemittanceDetails, listPendingRemittances } from './batches.ts';
import { getBill, searchBills } from './bills.ts';
import { claimsDiscovery, health, membershipDiscovery } from './discovery.ts';
import { ApiError, errorReply } from './errors.ts';
import { findMember } from './findMember.ts';
import { listHospitalClaims, searchHospitalClaims } from './hospitalClaims.ts';
import { searchAuthorisation } from './authorisation.ts';
import { searchRemittanceDetail, searchRemittanceSummary } from './remittanceSearch.ts';
import { issueToken } from './token.ts';
import type { Handler, SandboxContext, SandboxRequest } from './types.ts';

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
};

function buildRoutes(): Route[] {
  const routes: (Route & { operations: string[] })[] = [];
  const add = (method: HttpMethod, pattern: string, operationId: string, mediaType: string, handler: Handler) => {
    const same = routes.find((r) => r.method === method && r.pattern === pattern);
    if (!same) routes.push({ method, pattern, operations: [operationId], mediaType, handler });
    else if (same.handler === handler) same.operations.push(operationId);
  };
  const d1 = operations.filter((o) => o.document === 'D1');
  for (const op of d1) {
    const handler = HANDLERS[op.id];
    if (!handler) throw new Error(`No sandbox handler for operation ${op.id}`);
    const mediaType = op.service === 'claims' ? FHIR_JSON_MEDIA_TYPE : JSON_MEDIA_TYPE;
    add(op.method, `${ADDRESSES[op.discoveryKey]}${op.pathSuffix}`, op.id, mediaType, handler);
  }
  // The bare address of an operation with path parameters, where no other operation lives there:
  // the handler then refuses the missing path parameter with the documented code.
  for (const op of d1.filter((o) => o.pathSuffix !== '')) {
    const pattern = ADDRESSES[op.discoveryKey];
    if (!routes.some((r) => r.method === op.method && r.pattern === pattern)) {
      add(op.method, pattern, op.id, op.service === 'claims' ? FHIR_JSON_MEDIA_TYPE : JSON_MEDIA_TYPE, HANDLERS[op.id]);
    }
  }
  return [
    ...routes,
    { method: 'GET', pattern: DISCOVERY_PATHS.membership, operations: [], mediaType: JSON_MEDIA_TYPE, handler: membershipDiscovery },
    { method: 'GET', pattern: DISCOVERY_PATHS.claims, operations: [], mediaType: JSON_MEDIA_TYPE, handler: claimsDiscovery },
    { method: 'POST', pattern: '/oauth/token', operations: [], mediaType: JSON_MEDIA_TYPE, handler: issueToken },
    { method: 'GET', pattern: '/_sandbox/health', operations: [], mediaType: JSON_MEDIA_TYPE, handler: health },
  ];
}

export const ROUTES: readonly Route[] = buildRoutes();

const segmentsOf = (path: string): string[] =>
  path.split('/').slice(1).map((s) => {
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
  const hit = fits.find((m) => m.route.method === wanted && literalCount(m.route.pattern) === literalCount(fits[0].route.pattern));
  if (hit) return hit;
  return { allowed: [...new Set(fits.filter((m) => literalCount(m.route.pattern) === literalCount(fits[0].route.pattern)).map((m) => m.route.method))] };
}

/** A reply as it goes on the wire. */
export interface WireReply {
  status: number;
  headers: Record<string, string>;
  /** Serialised body; undefined for an empty body. */
  payload?: string;
}

export async function dispatch(request: Omit<SandboxRequest, 'params'>, ctx: SandboxContext): Promise<WireReply> {
  const match = matchRoute(request.method, request.path);
  if (!('route' in match)) {
    const error =
      match.allowed.length === 0
        ? new ApiError(404, 'MSG_NOT_FOUND', `No resource at ${request.path}`)
        : new ApiError(405, 'MSG_METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${request.path}`, { allow: match.allowed.join(', ') });
    return toWire(errorReply(error, { operations: [], faults: ctx.faults }), JSON_MEDIA_TYPE);
  }
  const { route, params } = match;
  let reply;
  try {
    reply = await route.handler({ ...request, params }, ctx);
  } catch (error) {
    reply = errorReply(error, { operations: route.operations, faults: ctx.faults });
  }
  const plainText = route.operations.some((o) => ctx.faults.on('content-type-text-plain', o));
  return toWire(reply, plainText ? 'text/plain; charset=utf-8' : route.mediaType);
}

function toWire(reply: { status: number; body?: unknown; headers?: Record<string, string> }, mediaType: string): WireReply {
  const headers = { ...reply.headers };
  if (reply.body === undefined) return { status: reply.status, headers };
  return { status: reply.status, headers: { ...headers, 'content-type': mediaType }, payload: JSON.stringify(reply.body) };
}
