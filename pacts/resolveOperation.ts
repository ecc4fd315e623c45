/**
 * Which operation of the table a request addresses (pact verification and `pact check`): the
 * route table (server/router/routes.ts) gives the operations served at the method and the path
 * after any base prefix; operations sharing a route are told apart as the sandbox tells them apart:
 * Find Member by SVC-API-Version, the contract deletes by their query, the contract upserts and
 * price settings by the body (Document 3, 4.5). Pure: no I/O.
 */
import { matchRoute } from '../server/router/routes.ts';
import { operation as operationOf } from '../spec/operations.ts';
import type { Operation } from '../spec/types.ts';

const headerOf = (headers: Record<string, string>, name: string): string | undefined => {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : headers[key];
};

function parseJson(body: string | undefined): unknown {
  if (body === undefined || body === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** Every valued item of a Contract request body. */
function valuedItems(body: unknown): Record<string, unknown>[] {
  const terms = (body as { term?: { asset?: { valuedItem?: unknown[] }[] }[] } | undefined)?.term ?? [];
  if (!Array.isArray(terms)) return [];
  return terms.flatMap((t) =>
    (Array.isArray(t?.asset) ? t.asset : []).flatMap((a) =>
      (Array.isArray(a?.valuedItem) ? a.valuedItem : []).filter(
        (v): v is Record<string, unknown> => typeof v === 'object' && v !== null,
      ),
    ),
  );
}

/** The chosen operation among those served by one route. */
function choose(ids: readonly string[], query: URLSearchParams, headers: Record<string, string>, body?: string) {
  if (ids.length === 1) return ids[0];
  if (ids.includes('find-member-v1')) {
    // Without the header the current version is meant; the sandbox refuses such a request anyway.
    return headerOf(headers, 'SVC-API-Version')?.trim() === '1' ? 'find-member-v1' : 'find-member-v2';
  }
  if (ids.includes('upsert-contact-payor')) {
    const authority = (parseJson(body) as { authority?: { reference?: unknown }[] } | undefined)?.authority;
    const reference = Array.isArray(authority) ? authority[0]?.reference : undefined;
    return typeof reference === 'string' && reference.startsWith('Person/') ? 'upsert-contact-payor' : 'upsert-payor';
  }
  if (ids.includes('delete-contact-payor'))
    return (query.get('payorType') ?? query.get('payerType')) === 'C' ? 'delete-contact-payor' : 'delete-payor';
  if (ids.includes('delete-contract-service-with-procedure'))
    return (query.get('procedureCode') ?? '').trim() !== ''
      ? 'delete-contract-service-with-procedure'
      : 'delete-contract-service';
  if (ids.includes('set-contract-price')) {
    const items = valuedItems(parseJson(body));
    if (items.some((i) => i.net !== undefined)) return 'set-contract-price';
    const procedure = items.some((i) => JSON.stringify(i.entityCodeableConcept ?? '').includes('/procedure"'));
    return procedure ? 'set-contract-service-with-procedure' : 'set-contract-service';
  }
  return ids[0];
}

/** Results about an interaction that addresses no operation of the table are filed under this name. */
export const NO_OPERATION = '(no operation of the documents)';

/** The operation a request addresses, and where its address starts in the request's path. */
export interface ResolvedRequest {
  operation: Operation;
  /**
   * The base the path carries before the operation's address ('' when none): a gateway prefix
   * such as `/api/v2` before `/membership/find-member`.
   */
  base: string;
  /** The path from the operation's address on, with the query string when there was one. */
  path: string;
}

/**
 * The operation a request addresses, read by the address shape the discovery documents publish:
 * D1 1, "The address of each operation is read from a discovery document by a named key", so the
 * base before a key's address is the server's own (a gateway prefix, a version segment) and a
 * path is matched by the operation's address after any base prefix, the shortest prefix first.
 * Undefined when no operation's address ends the path (the sandbox's own routes, an unknown
 * path, a method the address does not serve). `path` may carry a query string; `body` tells the
 * contract operations apart that share an address (without it, the first of the table is meant).
 */
export function resolveRequest(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): ResolvedRequest | undefined {
  const url = new URL(path, 'http://reference.invalid');
  const segments = url.pathname.split('/').slice(1);
  for (let k = 0; k < segments.length; k++) {
    const rest = `/${segments.slice(k).join('/')}`;
    const match = matchRoute(method.toUpperCase(), rest);
    if (!('route' in match) || match.route.operations.length === 0) continue;
    const operation = choose(match.route.operations, url.searchParams, headers, body);
    const base = k === 0 ? '' : `/${segments.slice(0, k).join('/')}`;
    return { operation: operationOf(operation), base, path: `${rest}${url.search}` };
  }
  return undefined;
}

/** The operation a request addresses (resolveRequest), without where its address starts. */
export function resolveOperation(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Operation | undefined {
  return resolveRequest(method, path, headers, body)?.operation;
}
