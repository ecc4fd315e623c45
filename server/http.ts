/**
 * The thin fastify adapter of the sandbox: one catch-all route hands every request to the
 * transport-free router (router/routes.ts). Bodies are kept as raw text so the router, not
 * fastify, decides about content types and errors.
 */
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { ActiveFaults } from './faults/catalog.ts';
import { ActiveVariants } from './variants/catalog.ts';
import { applyStateChange, parseStateChange, resettableRepository } from './providerStates.ts';
import { FORM_MEDIA_TYPE, mediaType } from './router/auth.ts';
import { operationOutcome } from './router/errors.ts';
import { JSON_MEDIA_TYPE, dispatch, matchRoute, type WireReply } from './router/routes.ts';
import type { ActiveModifiers, SandboxSetup } from './router/types.ts';
import type { Seed } from './fixtures/seed.ts';

export interface SandboxOptions {
  host?: string;
  port?: number;
  faults?: readonly string[];
  /** Named variants (server/variants/catalog.ts): legitimate choices, combinable with faults. */
  variants?: readonly string[];
  /** Data of its own (a certification workspace's clients); default the seed. */
  seed?: Seed;
  /**
   * Serve everything under this path (`/w/<id>`): discovery documents publish prefixed addresses,
   * and a request outside the prefix is answered 404 (a client that did not read discovery).
   */
  pathPrefix?: string;
  /** Told every request and its answer (certification mode records them). */
  onExchange?: (exchange: ServedExchange) => void;
  /** Further modifiers around the handlers (a certification scenario's answers), outermost. */
  modifiers?: ActiveModifiers;
  /**
   * The address clients reach the sandbox at (behind a TLS front or a gateway): discovery documents
   * publish it, whatever the request's Host or protocol.
   */
  publicUrl?: string;
  /**
   * Honour `X-Forwarded-Proto` and `X-Forwarded-Host` (set by a TLS-terminating proxy in front):
   * discovery then names the address the client used. Off by default: a client could write them.
   */
  trustProxy?: boolean;
  /** Serve TLS itself, with this certificate and key (PEM text). */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /**
   * Milliseconds waited before answering each request (`serve --latency`): a server as far away as
   * a staging server in another region, for the benchmark (`npm run bench -- --latency 50`).
   */
  latencyMs?: number;
}

/** A request the sandbox served and its answer, as it went over the wire. */
export interface ServedExchange {
  at: string;
  method: string;
  /** Path and query as received, percent-encoding kept (the prefix included). */
  rawUrl: string;
  /** The path after the workspace prefix, still percent-encoded; undefined when outside it. */
  path?: string;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  body: string;
  /** Operation ids of the route the request matched ([] for the sandbox's own routes or none). */
  operations: readonly string[];
  status: number;
  responseHeaders: Record<string, string>;
  responseBody?: string;
}

export interface RunningSandbox {
  url: string;
  close(): Promise<void>;
  /** Requests received so far, and the most it held at once (the benchmark prints them). */
  load(): SandboxLoad;
}

/** What a sandbox has served: requests received, and the most in flight at once (received, not yet answered). */
export interface SandboxLoad {
  requests: number;
  mostInFlight: number;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

function headersOf(request: FastifyRequest): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers))
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** Content codings a variant may announce (`Content-Encoding`); the payload is encoded here, as it goes on the wire. */
const ENCODERS: Record<string, (bytes: Buffer) => Buffer> = {
  gzip: (b) => gzipSync(b),
  deflate: (b) => deflateSync(b),
  br: (b) => brotliCompressSync(b),
};

function send(reply: FastifyReply, wire: WireReply): FastifyReply {
  reply.code(wire.status).headers(wire.headers);
  if (wire.payload === undefined) return reply.send();
  const encode = ENCODERS[wire.headers['content-encoding']?.trim().toLowerCase() ?? ''];
  const bytes = Buffer.from(wire.payload);
  return reply.send(encode ? encode(bytes) : bytes);
}

/** The variants, then further modifiers outermost (a certification scenario's answers). */
function withModifiers(variants: ActiveModifiers, more: ActiveModifiers | undefined): ActiveModifiers {
  if (!more) return variants;
  return {
    for: (operations) => [...more.for(operations), ...variants.for(operations)],
    list: () => [...more.list(), ...variants.list()],
  };
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const faults = new ActiveFaults(opts.faults ?? []);
  const variants = withModifiers(new ActiveVariants(opts.variants ?? []), opts.modifiers);
  // Provider states (POST /_pact/provider-states) reset the data to the seed; tokens survive.
  const data = resettableRepository(opts.seed);
  const prefix = opts.pathPrefix?.replace(/\/+$/, '') ?? '';
  const repo = data.repo;
  const host = opts.host ?? '127.0.0.1';
  const app = Fastify({
    logger: false,
    ...(opts.trustProxy ? { trustProxy: true } : {}),
    ...(opts.tls ? { https: { cert: opts.tls.cert, key: opts.tls.key } } : {}),
    // The https server's type differs from the plain one; the routes below use neither.
  } as FastifyServerOptions) as unknown as FastifyInstance;
  const publicBase = opts.publicUrl?.replace(/\/+$/, '');

  const latencyMs = opts.latencyMs ?? 0;
  const load: SandboxLoad = { requests: 0, mostInFlight: 0 };
  let inFlight = 0;
  const open = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', async (request) => {
    load.requests += 1;
    open.add(request);
    load.mostInFlight = Math.max(load.mostInFlight, ++inFlight);
    if (latencyMs > 0) await sleep(latencyMs);
  });
  // A request leaves once: answered (onResponse), or given up by its client (onRequestAbort).
  const left = async (request: FastifyRequest) => {
    if (open.delete(request)) inFlight -= 1;
  };
  app.addHook('onResponse', left);
  app.addHook('onRequestAbort', left);

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(FORM_MEDIA_TYPE, { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  let fallbackBase = '';
  // Pact's state endpoint (pacts/README.md): registered before the catch-all so it never reaches the router.
  app.post('/_pact/provider-states', async (request, reply) => {
    const change = parseStateChange(typeof request.body === 'string' ? request.body : '');
    const answer =
      typeof change === 'string' ? { status: 400, body: { error: change } } : await applyStateChange(change, data);
    return send(reply, {
      status: answer.status,
      headers: { 'content-type': JSON_MEDIA_TYPE },
      payload: JSON.stringify(answer.body),
    });
  });

  app.route({
    method: METHODS,
    url: '/*',
    handler: async (request, reply) => {
      const url = new URL(request.url, 'http://sandbox.invalid');
      const headers = headersOf(request);
      const rawBody = typeof request.body === 'string' ? request.body : '';
      const inside = prefix === '' || url.pathname === prefix || url.pathname.startsWith(`${prefix}/`);
      const path = inside ? url.pathname.slice(prefix.length) || '/' : undefined;
      const setup: SandboxSetup = {
        repo,
        faults,
        variants,
        // The address the client used: --public-url, else the request's protocol and host (from
        // X-Forwarded-Proto and -Host with --trust-proxy), else where the sandbox listens.
        baseUrl: `${publicBase ?? (request.host ? `${request.protocol}://${request.host}` : fallbackBase)}${prefix}`,
      };
      const wire =
        path === undefined
          ? {
              status: 404,
              headers: { 'content-type': JSON_MEDIA_TYPE },
              payload: JSON.stringify(
                operationOutcome(
                  'MSG_NOT_FOUND',
                  `No resource at ${url.pathname}: the addresses are in the discovery documents`,
                ),
              ),
            }
          : await dispatch(
              {
                method: request.method,
                path,
                query: url.searchParams,
                headers,
                rawBody,
                form: mediaType(headers['content-type']) === FORM_MEDIA_TYPE ? new URLSearchParams(rawBody) : undefined,
              },
              setup,
            );
      if (opts.onExchange) {
        const match = path === undefined ? undefined : matchRoute(request.method, path);
        opts.onExchange({
          at: new Date().toISOString(),
          method: request.method,
          rawUrl: request.url,
          ...(path !== undefined ? { path } : {}),
          headers,
          body: rawBody,
          operations: match && 'route' in match ? match.route.operations : [],
          status: wire.status,
          responseHeaders: wire.headers,
          ...(wire.payload !== undefined ? { responseBody: wire.payload } : {}),
        });
      }
      return send(reply, wire);
    },
  });

  // Transport-level failures (body too large, malformed request) still answer an OperationOutcome.
  app.setErrorHandler((error: { statusCode?: number; message?: string }, _request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
    const code = status < 500 ? 'MSG_CANT_PARSE_CONTENT' : 'MSG_INTERNAL_ERROR';
    return send(reply, {
      status,
      headers: { 'content-type': JSON_MEDIA_TYPE },
      payload: JSON.stringify(operationOutcome(code, error.message ?? 'Request failed')),
    });
  });

  await app.listen({ host, port: opts.port ?? 0 });
  const { port } = app.server.address() as AddressInfo;
  const url = `${opts.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  fallbackBase = url;
  return { url, close: () => app.close(), load: () => ({ ...load }) };
}
