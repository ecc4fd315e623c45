/**
 * What every route module shares: a route as data (method, URL, who may use it, its handler), the
 * owned-row parameters the access check reads, and the page helpers.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { html, page, type Raw } from '../html.ts';
import type { Who } from '../sessions.ts';

export type Access = 'public' | 'signed-in' | 'operator';

interface RouteBase {
  method: 'GET' | 'POST';
  url: string;
  /** Sign-in: attempts per address are limited (settings.signIn). */
  rateLimited?: boolean;
  /** Bytes a request's body may hold (default: the app's 1 MiB). */
  bodyLimit?: number;
  /** Read by programs (an export): not signed in is 401, never a redirect to the sign-in page. */
  forPrograms?: boolean;
}

/** A public route may be used signed in or not; the others only signed in (the operator's only by the operator). */
export type RouteSpec =
  | (RouteBase & {
      access: 'public';
      handler(
        request: FastifyRequest,
        reply: FastifyReply,
        ctx: ServiceContext,
        who: Who | undefined,
      ): Promise<unknown>;
    })
  | (RouteBase & {
      access: 'signed-in' | 'operator';
      handler(request: FastifyRequest, reply: FastifyReply, ctx: ServiceContext, who: Who): Promise<unknown>;
    });

/** The route parameters that name a row owned by an organisation. */
export const OWNED_PARAMS = ['organisationId', 'productId', 'runId'] as const;
export type OwnedParam = (typeof OWNED_PARAMS)[number];

/** The organisation owning the row a parameter names, or undefined when there is none. */
export async function ownerOf(ctx: ServiceContext, param: OwnedParam, id: string): Promise<string | undefined> {
  if (param === 'organisationId') {
    const row = await ctx.db.selectFrom('organisations').select('id').where('id', '=', id).executeTakeFirst();
    return row?.id;
  }
  const table = param === 'productId' ? 'products' : 'runs';
  const row = await ctx.db.selectFrom(table).select('organisation_id').where('id', '=', id).executeTakeFirst();
  return row?.organisation_id;
}

export type Body = Record<string, string | undefined>;
export const bodyOf = (request: FastifyRequest): Body => (request.body ?? {}) as Body;
export const param = (request: FastifyRequest, name: string): string =>
  (request.params as Record<string, string>)[name];

export function send(reply: FastifyReply, title: string, body: Raw, who?: Who, status = 200): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(page(title, body, who ? { email: who.email, csrf: who.csrf, operator: who.role === 'operator' } : undefined));
}

/** Whether the request asks for JSON (an Accept naming application/json and not text/html): answered as JSON. */
export function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return /application\/json/.test(accept) && !/text\/html/.test(accept);
}

/** A refusal: `{ "error": message }` to a request asking for JSON, else a page saying it. */
export function refuse(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  title: string,
  message: string,
  who?: Who,
): FastifyReply {
  if (wantsJson(request)) return reply.code(status).type('application/json').send({ error: message });
  return send(reply, title, html`<p class="problem" id="refused">${message}</p>`, who, status);
}

export function notFound(reply: FastifyReply, who?: Who): FastifyReply {
  return send(reply, 'Not found', html`<p>There is nothing at this address.</p>`, who, 404);
}

/**
 * A typed value's problem when longer than `max` characters (names NAME_MAX, free text TEXT_MAX),
 * one line naming the field; undefined when it fits.
 */
export function tooLong(field: string, value: string, max: number): string | undefined {
  return value.length > max
    ? `Expected the ${field} in ${max} characters or fewer, received ${value.length}.`
    : undefined;
}

export function origin(request: FastifyRequest, ctx: ServiceContext): string {
  return (ctx.settings.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
}

/** A file the pages load (a script or a style sheet), public: the pages' policy allows nothing inline. */
export function assetRoute(url: string, type: 'text/javascript' | 'text/css', text: string): RouteSpec {
  return {
    method: 'GET',
    url,
    access: 'public',
    async handler(_request, reply) {
      return reply.type(`${type}; charset=utf-8`).send(text);
    },
  };
}

/** The product a route's `:productId` names (the access check made sure it exists and may be seen). */
export function productOf(ctx: ServiceContext, request: FastifyRequest) {
  return ctx.db
    .selectFrom('products')
    .selectAll()
    .where('id', '=', param(request, 'productId'))
    .executeTakeFirstOrThrow();
}

/** The run a route's `:runId` names, with its product's name and version (the access check made sure it may be seen). */
export function runOf(ctx: ServiceContext, request: FastifyRequest) {
  return ctx.db
    .selectFrom('runs')
    .innerJoin('products', 'products.id', 'runs.product_id')
    .selectAll('runs')
    .select(['products.name', 'products.version'])
    .where('runs.id', '=', param(request, 'runId'))
    .executeTakeFirstOrThrow();
}
