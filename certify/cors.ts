/**
 * How a certification workspace answers a browser (Document 3, 4.2: logout is "Executed from a
 * browser"): a partner's browser client reaches the workspace from another origin, so the
 * browser sends a CORS preflight (`OPTIONS` with `Access-Control-Request-Method`) before a
 * request with an Authorization header. The documents say nothing of CORS; the workspace answers
 * as a permissive API gateway would, so that a browser client can be certified at all:
 *
 * - a preflight at an address the workspace serves (an operation's, the token endpoint, a
 *   discovery document) is answered 204 with `Access-Control-Allow-Origin` (the request's
 *   Origin, or `*`), `Access-Control-Allow-Methods` (the methods served at that address),
 *   `Access-Control-Allow-Headers` (those asked for, else the documented ones) and a max age;
 * - any answer to a request carrying `Origin` carries `Access-Control-Allow-Origin`, so that the
 *   browser lets the client read it.
 *
 * A preflight elsewhere keeps the sandbox's answer (404 outside the workspace's addresses), and
 * is judged as a request at no discovered address. A preflight is never judged as a request of
 * the operation (certify/certification.ts).
 */
import { isPreflight } from '../core/clientRequest.ts';
import { matchRoute } from '../server/router/routes.ts';
import type { ActiveModifiers, Modifier, SandboxRequest } from '../server/router/types.ts';

/** The headers the documents have a client send, allowed when a preflight names none. */
const DOCUMENTED_HEADERS = 'Authorization, Content-Type, SU-SiteId, SU-UserId, SVC-API-Version, ClientId, secret';

/** How long a browser may keep a preflight's answer (seconds). */
const MAX_AGE = '600';

/** The methods the workspace serves at a path ([] when it serves none there). */
export function methodsAt(path: string): string[] {
  const match = matchRoute('OPTIONS', path);
  return 'route' in match ? [match.route.method] : match.allowed.map(String);
}

function allowOrigin(request: SandboxRequest): Record<string, string> {
  const origin = request.headers.origin;
  return origin ? { 'access-control-allow-origin': origin, vary: 'Origin' } : { 'access-control-allow-origin': '*' };
}

/** The headers of the workspace's answer to a preflight at an address serving `methods`. */
export function preflightHeaders(request: SandboxRequest, methods: readonly string[]): Record<string, string> {
  const asked = request.headers['access-control-request-headers']?.trim();
  return {
    ...allowOrigin(request),
    'access-control-allow-methods': [...methods, 'OPTIONS'].join(', '),
    'access-control-allow-headers': asked ? asked : DOCUMENTED_HEADERS,
    'access-control-max-age': MAX_AGE,
  };
}

const cors: Modifier = {
  reply: (reply, { received }) => {
    if (!isPreflight(received.method, received.headers)) return reply;
    const methods = methodsAt(received.path);
    return methods.length === 0 ? reply : { status: 204, headers: preflightHeaders(received, methods) };
  },
  wire: (wire, { received }) =>
    received.headers.origin === undefined || wire.headers['access-control-allow-origin'] !== undefined
      ? wire
      : { ...wire, headers: { ...wire.headers, ...allowOrigin(received) } },
};

/** The workspace's CORS answers, outermost around the scenario's own modifiers (if any). */
export function withCors(scenario?: ActiveModifiers): ActiveModifiers {
  return {
    for: (operations) => [...(scenario?.for(operations) ?? []), cors],
    list: () => [...(scenario?.list() ?? []), 'CORS: preflights at served addresses answered 204'],
  };
}
