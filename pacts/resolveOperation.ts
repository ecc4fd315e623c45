/**
 * Which operation of the table a request at a sandbox reference address is (pact verification
 * and `pact check`): the route table (server/router/routes.ts) gives the operations served at the
 * method and path; operations sharing a route are told apart as the sandbox tells them apart:
 * Find Member by SVC-API-Version, the contract deletes by their query, the contract upserts and
 * price settings by the body (Document 3, 4.5). Pure: no I/O.
 */
import { matchRoute } from '../server/router/routes.ts';
import { operation } from '../spec/operations.ts';
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

/**
 * The operation a request at a sandbox reference address is, or undefined when the address is
 * none of the table's (the sandbox's own routes, an unknown path, a method the path does not
 * serve). `path` may carry a query string; `body` tells the contract operations apart that share
 * an address (without it, the first of the table is meant).
 */
export function resolveOperation(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Operation | undefined {
  const url = new URL(path, 'http://reference.invalid');
  const match = matchRoute(method.toUpperCase(), url.pathname);
  if (!('route' in match) || match.route.operations.length === 0) return undefined;
  return operation(choose(match.route.operations, url.searchParams, headers, body));
}
