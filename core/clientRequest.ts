/**
 * A request a client sends (or a partner's pact says its client sends), resolved to the operation
 * of the table it addresses: the subject of the client-side checks (checks/client*.ts). The raw
 * path and query are kept as sent, so that percent-encoding can be judged.
 */
import { errorCodesOf } from './readers/errorCode.ts';
import type { Operation } from '../spec/types.ts';

export interface ClientRequest {
  /** The operation of the table the request addresses (resolved by address, method and version header). */
  operation: Operation;
  method: string;
  /** Path as sent, percent-encoding kept. */
  rawPath: string;
  /** Query string as sent, without the leading `?` ('' when none). */
  rawQuery: string;
  /** Header names lower-cased; repeated headers joined with `, `. */
  headers: Readonly<Record<string, string>>;
  body?: string;
}

/** The header's value, whatever the case of its name. */
export const headerOf = (request: ClientRequest, name: string): string | undefined =>
  request.headers[name.toLowerCase()];

/** Lower-cases header names and joins repeated values (Pact files hold arrays or strings). */
export function normaliseHeaders(headers: Readonly<Record<string, unknown>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const text = Array.isArray(value) ? value.map(String).join(', ') : value === undefined ? undefined : String(value);
    if (text !== undefined) out[name.toLowerCase()] = text;
  }
  return out;
}

/**
 * A request a client made to a certification workspace and the answer it got, in the order made:
 * the subject of the client checks that judge a flow (a refinement after MULTIPLE_MATCH_FOUND, an
 * acknowledgement after the get).
 */
export interface ClientExchange {
  /** The operation the request addresses; undefined when it addresses none (not a discovered address). */
  operation?: Operation;
  method: string;
  rawPath: string;
  rawQuery: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
  status: number;
  responseBody?: string;
  /** The request was to the workspace's own routes (the token endpoint, a discovery document), not an operation. */
  own?: boolean;
  /**
   * The request is a CORS preflight (`OPTIONS` with `Access-Control-Request-Method`), which a
   * browser sends on its own before a cross-origin request (D3 4.2: logout is "Executed from a
   * browser"): the method it asks leave for, and the operation at its address (undefined when the
   * address is none the discovery documents publish). A preflight is no request of an operation:
   * `operation` stays undefined, and only its address is judged.
   */
  preflight?: { method: string; operation?: Operation };
  /**
   * For a request of no operation at an address that is served (a plain `OPTIONS`): the methods
   * the operations at that address are sent with. The address is a discovered one all the same.
   */
  servedMethods?: readonly string[];
}

/** True for a CORS preflight: an `OPTIONS` request naming the method it asks leave for. */
export function isPreflight(method: string, headers: Readonly<Record<string, string | undefined>>): boolean {
  return method.toUpperCase() === 'OPTIONS' && (headers['access-control-request-method'] ?? '').trim() !== '';
}

/** The form fields of a form request, or the query parameters of a GET. */
export function fieldsOf(x: Pick<ClientExchange, 'method' | 'body' | 'rawQuery'>): URLSearchParams {
  return new URLSearchParams(x.method === 'GET' ? x.rawQuery : (x.body ?? ''));
}

/** The error codes of an answer, read as every part of the suite reads them (core/readers/errorCode.ts). */
export function answerCodes(x: Pick<ClientExchange, 'responseBody'>): string[] {
  return errorCodesOf(jsonOf(x.responseBody), x.responseBody);
}

/** The first error code of an answer, when it carries one. */
export function answerCode(x: Pick<ClientExchange, 'responseBody'>): string | undefined {
  return answerCodes(x)[0];
}

/** A body or an answer parsed as JSON; undefined when absent or not JSON (a malformed answer). */
export function jsonOf(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The last segment of a request's path, percent-decoded: the id of a get, update, delete or acknowledgement. */
export function lastPathSegment(x: Pick<ClientExchange, 'rawPath'>): string {
  const last = x.rawPath.split('/').filter(Boolean).pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
