/**
 * The service's web application: fastify with forms, cookies, CSRF protection and a sign-in
 * rate limit, and every route of service/routes/ behind one access check.
 */
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { ServiceContext } from './context.ts';
import { html, page } from './html.ts';
import { notFound, OWNED_PARAMS, ownerOf, ROUTES, type RouteSpec } from './routes/index.ts';
import { loadSession, type Who } from './sessions.ts';

/** Whether the signed-in person may use a route with these parameters: false answers 404. */
async function allowed(ctx: ServiceContext, route: RouteSpec, request: FastifyRequest): Promise<boolean> {
  const who = request.who;
  if (route.access === 'public') return true;
  if (!who) return false;
  if (route.access === 'operator' && who.role !== 'operator') return false;
  const params = (request.params ?? {}) as Record<string, string>;
  for (const name of OWNED_PARAMS) {
    if (params[name] === undefined) continue;
    const owner = await ownerOf(ctx, name, params[name]);
    if (owner === undefined) return false;
    if (who.role !== 'operator' && owner !== who.organisationId) return false;
  }
  return true;
}

export async function buildServiceApp(
  ctx: ServiceContext,
  options: { trustProxy?: boolean } = {},
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, trustProxy: options.trustProxy ?? false, bodyLimit: 1_048_576 });
  await app.register(cookie);
  await app.register(formbody);
  await app.register(csrf, { sessionPlugin: '@fastify/session' });
  await app.register(rateLimit, { global: false });
  app.decorateRequest('session', undefined as unknown as { _csrf?: string });
  app.decorateRequest('who', undefined);
  app.decorateRequest('sessionHash', undefined);
  app.addHook('onRequest', async (request, reply) => {
    await loadSession(ctx, request, reply);
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('cache-control', 'no-store');
  });

  for (const route of ROUTES) {
    app.route({
      method: route.method,
      url: route.url,
      ...(route.rateLimited
        ? { config: { rateLimit: { max: ctx.settings.signIn.max, timeWindow: ctx.settings.signIn.windowMs } } }
        : {}),
      preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
        if (!(await allowed(ctx, route, request))) {
          // Not signed in: to the sign-in page; signed in: the row is not theirs, and does not exist for them.
          if (!request.who)
            return route.method === 'GET'
              ? reply.redirect('/')
              : reply.code(401).type('text/html').send(page('Sign in first', html`<p><a href="/">Sign in</a></p>`));
          return notFound(reply, request.who);
        }
        if (route.method === 'POST') {
          await new Promise<void>((resolve, reject) =>
            app.csrfProtection(request, reply, (e?: Error) => (e ? reject(e) : resolve())),
          );
        }
      },
      // allowed() has checked that someone is signed in for every route but the public ones.
      handler: (request, reply) =>
        route.access === 'public'
          ? route.handler(request, reply, ctx, request.who)
          : route.handler(request, reply, ctx, request.who as Who),
    });
  }

  app.setNotFoundHandler((request, reply) => notFound(reply, request.who));
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    const status = error.statusCode ?? 500;
    const message = error.code?.startsWith('FST_CSRF')
      ? 'Expected the form’s CSRF token, received none or a wrong one: reload the page and send the form again.'
      : status === 429
        ? 'Too many attempts: wait a minute and try again.'
        : status < 500
          ? error.message.split('\n')[0]
          : 'The service could not answer: an internal error (its log says more).';
    if (status >= 500) request.log.error(error);
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(
        page(
          status === 429 ? 'Slow down' : status === 403 ? 'Form refused' : 'Problem',
          html`<p class="problem">${message}</p>`,
        ),
      );
  });
  return app;
}
