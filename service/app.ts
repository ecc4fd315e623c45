/**
 * The service's web application: fastify with forms, cookies, CSRF protection and a sign-in
 * rate limit, and every route of service/routes/ behind one access check.
 *
 * Every answer carries a Content-Security-Policy: the pages load scripts and styles from the
 * service alone (the page layout's one <style> by its hash), may not be framed, post forms only to
 * the service and set no base. A partner's report (report.html, self-contained with inline script
 * and style) is served under a policy of its own: sandboxed (an opaque origin: no cookie, no call
 * to the service), inline script and style allowed, nothing loaded from anywhere.
 */
import { createHash } from 'node:crypto';
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { proxyHops, type ServiceContext } from './context.ts';
import { html, page } from './html.ts';
import { RunRefused } from './jobs/claims.ts';
import { notFound, OWNED_PARAMS, ownerOf, ROUTES, type RouteSpec } from './routes/index.ts';
import { refuse, wantsJson } from './routes/shared.ts';
import { loadSession, startSessionSweep, type Who } from './sessions.ts';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The hash of the page layout's one inline <style> (service/html.ts), read from a page it renders. */
const LAYOUT_STYLE = sha256(/<style>([\s\S]*?)<\/style>/.exec(page('', html``))?.[1] ?? '');

/** The policy of every page (and of every other answer: an error, an event stream, a script). */
export function pagePolicy(): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' ${LAYOUT_STYLE}`,
    "img-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "base-uri 'none'",
  ].join('; ');
}

/** The policy of a partner's report: self-contained, sandboxed into an origin of its own. */
export const REPORT_POLICY = [
  'sandbox allow-scripts',
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  "frame-ancestors 'none'",
  "form-action 'none'",
  "base-uri 'none'",
].join('; ');

/** Routes that serve a run's report.html. */
const REPORT_ROUTES = new Set(['/runs/:runId/report']);

/** How often expired sessions and invites are deleted (service/sessions.ts). */
export const SWEEP_MS = 10 * 60_000;

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
  options: { trustProxy?: boolean | number; sweepMs?: number } = {},
): Promise<FastifyInstance> {
  // A number of hops (proxy-addr): the client is the Nth address from the right of X-Forwarded-For.
  // `true` would trust every hop, the left-most address the client writes itself: never passed as such.
  const hops = proxyHops(options.trustProxy);
  const app = Fastify({
    logger: false,
    trustProxy: hops > 0 ? (_address: string, hop: number) => hop < hops : false,
    bodyLimit: 1_048_576,
  });
  await app.register(cookie);
  await app.register(formbody);
  await app.register(csrf, { sessionPlugin: '@fastify/session' });
  await app.register(rateLimit, { global: false });
  app.decorateRequest('session', undefined as unknown as { _csrf?: string });
  app.decorateRequest('who', undefined);
  app.decorateRequest('sessionHash', undefined);
  const stopSweep = startSessionSweep(ctx, options.sweepMs ?? SWEEP_MS);
  app.addHook('onClose', async () => stopSweep());
  app.addHook('onRequest', async (request, reply) => {
    // On the raw answer too, so that an answer written past fastify (the run's event stream) has them.
    reply.raw.setHeader('content-security-policy', pagePolicy());
    reply.raw.setHeader('x-frame-options', 'DENY');
    reply.raw.setHeader('x-content-type-options', 'nosniff');
    await loadSession(ctx, request, reply);
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header(
      'content-security-policy',
      REPORT_ROUTES.has(request.routeOptions.url ?? '') && reply.statusCode === 200 ? REPORT_POLICY : pagePolicy(),
    );
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    // Pages are never cached; an answer that says otherwise (the public key set) keeps its own.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  for (const route of ROUTES) {
    app.route({
      method: route.method,
      url: route.url,
      ...(route.bodyLimit !== undefined ? { bodyLimit: route.bodyLimit } : {}),
      ...(route.rateLimited
        ? { config: { rateLimit: { max: ctx.settings.signIn.max, timeWindow: ctx.settings.signIn.windowMs } } }
        : {}),
      preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
        if (!(await allowed(ctx, route, request))) {
          // Not signed in (or no longer: a session ended by the operator, a password change): a page
          // to the sign-in page, anything else 401; signed in: the row is not theirs, and does not exist for them.
          if (!request.who) {
            if (wantsJson(request) || route.forPrograms)
              return reply.code(401).type('application/json').send({ error: 'Sign in first.' });
            return route.method === 'GET'
              ? reply.redirect('/')
              : reply.code(401).type('text/html').send(page('Sign in first', html`<p><a href="/">Sign in</a></p>`));
          }
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
    // A run not started (the organisation's limit, a disabled organisation): the page or JSON says why.
    if (error instanceof RunRefused)
      return refuse(request, reply, error.status, 'Run not started', error.message, request.who);
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
