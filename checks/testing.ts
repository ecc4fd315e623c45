/**
 * Test support: build a `RespondedExchange` from a few fields, so check tests stay short.
 * Not used by checks themselves.
 */
import type { RespondedExchange } from '../core/exchange.ts';
import { operation } from '../spec/operations.ts';

export interface ExchangeParts {
  status?: number;
  /** Header names are lower-cased, as the recorder does. */
  headers?: Record<string, string>;
  /** A string is used as is; anything else is JSON-encoded with `content-type: application/json`. */
  body?: unknown | string;
  method?: string;
  url?: string;
  requestBody?: string;
  /** Mark the body as cut at the size cap. */
  truncated?: boolean;
}

let counter = 0;

export function respondedExchange(partial: ExchangeParts = {}): RespondedExchange {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(partial.headers ?? {})) headers[name.toLowerCase()] = value;
  let bodyText = '';
  if (typeof partial.body === 'string') bodyText = partial.body;
  else if (partial.body !== undefined) {
    bodyText = JSON.stringify(partial.body) ?? '';
    if (headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  }
  counter += 1;
  return {
    id: `test-${counter}`,
    startedAt: '2024-01-01T00:00:00.000Z',
    durationMs: 1,
    request: {
      method: partial.method ?? 'GET',
      url: partial.url ?? 'https://target.example/test',
      headers: {},
      ...(partial.requestBody !== undefined ? { body: partial.requestBody } : {}),
    },
    response: {
      status: partial.status ?? 200,
      headers,
      bodyText,
      size: Buffer.byteLength(bodyText),
      truncated: partial.truncated ?? false,
    },
  };
}

/** A Bundle body holding the given resources. */
export function bundle(resources: readonly unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    total: resources.length,
    entry: resources.map((resource) => ({ resource })),
    ...extra,
  };
}

/** A ValueSet body whose expansion holds the given items (`offset`/`total` overridable). */
export function valueSet(items: readonly unknown[], expansion: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    resourceType: 'ValueSet',
    id: 'vs',
    name: 'test',
    expansion: { total: items.length, offset: 0, contains: items, ...expansion },
  };
}

/** A role-search Bundle: role entries with `search.mode` match, then included entries with include. */
export function roleBundle(roles: readonly unknown[], included: readonly unknown[] = []): Record<string, unknown> {
  const entry = [
    ...roles.map((resource) => ({ resource, search: { mode: 'match' } })),
    ...included.map((resource) => ({ resource, search: { mode: 'include' } })),
  ];
  return { resourceType: 'Bundle', type: 'searchset', total: roles.length, entry };
}

/** A client's request and its answer in a certification workspace, for the client flow checks. */
export function clientExchange(
  operationId: string | undefined,
  parts: Partial<Omit<import('../core/clientRequest.ts').ClientExchange, 'operation'>> & { code?: string } = {},
): import('../core/clientRequest.ts').ClientExchange {
  const { code, ...rest } = parts;
  return {
    ...(operationId ? { operation: operation(operationId) } : {}),
    method: 'POST',
    rawPath: '/x',
    rawQuery: '',
    headers: {},
    status: 200,
    ...(code ? { status: 400, responseBody: JSON.stringify({ issue: [{ details: { coding: [{ code }] } }] }) } : {}),
    ...rest,
  };
}
