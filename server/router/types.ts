/**
 * The transport-free request and reply of the sandbox router. The fastify adapter (../http.ts)
 * turns HTTP into a SandboxRequest and a SandboxReply back into HTTP; handlers never see fastify.
 */
import type { ActiveFaults } from '../faults/catalog.ts';
import type { Repository } from '../repo/repository.ts';

export interface SandboxRequest {
  method: string;
  /** Raw path without the query string (segments still percent-encoded). */
  path: string;
  query: URLSearchParams;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
  /** Set when the Content-Type is application/x-www-form-urlencoded. */
  form?: URLSearchParams;
  rawBody: string;
  /** Path parameters, filled by the route table. */
  params: Readonly<Record<string, string>>;
}

export interface SandboxReply {
  status: number;
  /** Serialised as JSON; undefined means an empty body without a Content-Type. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface SandboxContext {
  repo: Repository;
  faults: ActiveFaults;
  /** Legitimate choices switched on (server/variants); applied around the handlers by the route table. */
  variants: ActiveModifiers;
  /** Scheme, host and port the request was addressed to, without a trailing slash. */
  baseUrl: string;
}

/** A reply as it goes on the wire. */
export interface WireReply {
  status: number;
  headers: Record<string, string>;
  /** Serialised body; undefined for an empty body. */
  payload?: string;
}

/** What a modifier sees of the route: the operation ids it serves (shared routes serve several). */
export interface ModifierScope {
  operations: readonly string[];
  request: SandboxRequest;
}

/** A named modifier around the reference handlers (a variant): it may rewrite the request, the reply or the wire. */
export interface Modifier {
  /** Rewrites the request before the reference handler sees it. */
  request?: (request: SandboxRequest, scope: Omit<ModifierScope, 'request'>) => SandboxRequest;
  /** Rewrites the reply of the reference handler (success or documented error). */
  reply?: (reply: SandboxReply, scope: ModifierScope) => SandboxReply;
  /** Rewrites the serialised reply (serialisation and protocol choices). */
  wire?: (wire: WireReply, scope: ModifierScope) => WireReply;
}

/** The modifiers switched on, by the operations of a route. */
export interface ActiveModifiers {
  for(routeOperations: readonly string[]): readonly Modifier[];
  list(): string[];
}

export type Handler = (req: SandboxRequest, ctx: SandboxContext) => Promise<SandboxReply>;

/** A 200 answer with a JSON body. */
export function ok(body: unknown): SandboxReply {
  return { status: 200, body };
}
