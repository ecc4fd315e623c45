/**
 * The transport-free request and reply of the sandbox router. The fastify adapter (../http.ts)
 * turns HTTP into a SandboxRequest and a SandboxReply back into HTTP; handlers never see fastify.
 */
import type { Operation, ServiceId } from '../../spec/types.ts';
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

/** What a reference handler sees of the sandbox it runs in. */
export interface SandboxContext {
  /** The data, as the route's faults let the handler see it (a state fault may wrap it). */
  repo: Repository;
  /** The operation row as this sandbox serves it: the table's row, unless a fault serves a changed one. */
  served(operationId: string): Operation;
  /** Scheme, host and port the request was addressed to, without a trailing slash. */
  baseUrl: string;
  /** Names of the faults switched on (the health route lists them). */
  faultNames: readonly string[];
}

/** Named modifiers switched on in one sandbox (faults or variants), by the operations of a route. */
export interface ActiveModifiers {
  for(routeOperations: readonly string[]): readonly Modifier[];
  list(): string[];
}

/** One sandbox: its data, its faults and variants; dispatch makes each handler's context from it. */
export interface SandboxSetup {
  repo: Repository;
  /** Broken rules switched on (server/faults): applied nearest the handler. */
  faults: ActiveModifiers;
  /** Legitimate choices switched on (server/variants): applied around the faults. */
  variants: ActiveModifiers;
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
  /** The request as the handler saw it (after the request modifiers). */
  request: SandboxRequest;
  /** The request as it arrived, before any modifier. */
  received: SandboxRequest;
  /** The sandbox's data (unwrapped), for modifiers that look something up. */
  repo: Repository;
}

/**
 * A named modifier around the reference handlers (a fault or a variant): it may rewrite the
 * request, the reply or the wire, wrap the data the handler sees (state faults) or serve an
 * operation's row changed (validation faults). The routers stay the reference behaviour alone.
 */
export interface Modifier {
  /** Rewrites the request before the reference handler sees it. */
  request?: (
    request: SandboxRequest,
    scope: Omit<ModifierScope, 'request' | 'received'>,
  ) => SandboxRequest | Promise<SandboxRequest>;
  /** Rewrites the reply of the reference handler (success or documented error). */
  reply?: (reply: SandboxReply, scope: ModifierScope) => SandboxReply | Promise<SandboxReply>;
  /** Rewrites the serialised reply (serialisation and protocol choices). */
  wire?: (wire: WireReply, scope: ModifierScope) => WireReply;
  /** Wraps the data the handler reads and writes (a server that forgets or keeps what it should not). */
  repo?: (repo: Repository, scope: Omit<ModifierScope, 'received'>) => Repository;
  /** Serves an operation's row changed (a server that accepts what the documents refuse). */
  served?: (operation: Operation) => Operation;
  /**
   * Rewrites the discovery document of a service that serves one of the modifier's operations (a
   * server whose document leaves a key out, or that does not publish it at its address). The
   * discovery routes serve no operation, so no other member of a modifier reaches them.
   */
  discovery?: (reply: SandboxReply, scope: DiscoveryScope) => SandboxReply;
}

/** What a discovery modifier sees: the service whose document it is and that service's operations. */
export interface DiscoveryScope {
  service: ServiceId;
  /** The ids of the operations the document addresses. */
  operations: readonly string[];
  request: SandboxRequest;
}

export type Handler = (req: SandboxRequest, ctx: SandboxContext) => Promise<SandboxReply>;

/** A 200 answer with a JSON body. */
export function ok(body: unknown): SandboxReply {
  return { status: 200, body };
}
