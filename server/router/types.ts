/**
 * The transport-free request and reply of the sandbox router. The fastify adapter (../http.ts)
 * turns HTTP into a SandboxRequest and a SandboxReply back into HTTP; handlers never see fastify.
 */
import type { ActiveFaults } from '../faults/catalog.ts';
import type { Repository } from '../repo/repository.ts';
import type { ActiveVariants } from '../variants/catalog.ts';

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
  variants: ActiveVariants;
  /** Scheme, host and port the request was addressed to, without a trailing slash. */
  baseUrl: string;
}

export type Handler = (req: SandboxRequest, ctx: SandboxContext) => Promise<SandboxReply>;

/** A 200 answer with a JSON body. */
export function ok(body: unknown): SandboxReply {
  return { status: 200, body };
}
