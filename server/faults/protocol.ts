/**
 * Faults of the rules every Document 1 operation shares (Document 1, 1, 2.1, 5, 7): tokens, the
 * site header, content types, parameters and the paging tags. Each is a modifier around the
 * reference handlers (server/router/types.ts `Modifier`); catalog.ts describes them.
 */
import { DEFAULT_CLIENT_ID } from '../fixtures/clients.ts';
import { arr, isObject, parameterOf, withParameter, withQuery, withForm } from '../modifiers/json.ts';
import { bearerOf } from '../router/auth.ts';
import { DEFAULT_COUNT } from '../router/paging.ts';
import { FORMATS } from '../router/params.ts';
import { servedOperation } from '../router/operationTable.ts';
import type { Modifier, SandboxReply, SandboxRequest } from '../router/types.ts';

/** A request parameter that is a valid page or count (the faults leave malformed ones to the reference checks). */
const isPositiveInteger = (v: string | undefined): v is string => v !== undefined && /^[1-9]\d{0,8}$/.test(v.trim());

/** The bundle with its paging tags rewritten (`page`, `count`, `maxCount` / `maxRecords`). */
export function withTags(
  reply: SandboxReply,
  rewrite: (tag: { code: string; display: unknown }) => { code: string; display: unknown },
): SandboxReply {
  const body = reply.body;
  if (!isObject(body) || !isObject(body.meta) || !Array.isArray(body.meta.tag)) return reply;
  const tag = arr(body.meta.tag).map((t) => (isObject(t) ? rewrite(t as { code: string; display: unknown }) : t));
  return { ...reply, body: { ...body, meta: { ...body.meta, tag } } };
}

const setTag = (code: string, display: string) => (t: { code: string; display: unknown }) =>
  t.code === code ? { ...t, display } : t;

export const PROTOCOL_FAULTS = {
  // A missing or unknown bearer token is served as the default client.
  'auth-not-enforced': {
    request: (req) =>
      bearerOf(req) === undefined ? { ...req, headers: { ...req.headers, authorization: 'Bearer any' } } : req,
    repo: (repo) => ({
      ...repo,
      clientForToken: async (token) => (await repo.clientForToken(token)) ?? repo.client(DEFAULT_CLIENT_ID),
    }),
  },
  // A request without SU-SiteId acts for the token's site.
  'site-header-not-enforced': {
    request: async (req, { repo }) => {
      if ((req.headers['su-siteid'] ?? '').trim() !== '') return req;
      const token = bearerOf(req);
      const client = token === undefined ? undefined : await repo.clientForToken(token);
      return client ? { ...req, headers: { ...req.headers, 'su-siteid': client.siteId } } : req;
    },
  },
  'content-type-text-plain': {
    wire: (wire) =>
      wire.headers['content-type'] === undefined
        ? wire
        : { ...wire, headers: { ...wire.headers, 'content-type': 'text/plain; charset=utf-8' } },
  },
  // An empty parameter is taken as absent instead of refused.
  'empty-param-accepted': {
    request: (req) => {
      const dropEmpty = (p: URLSearchParams) => {
        for (const name of [...new Set(p.keys())]) if (p.getAll(name).every((v) => v.trim() === '')) p.delete(name);
      };
      return withForm(withQuery(req, dropEmpty), dropEmpty);
    },
  },
  // A malformed date parameter is accepted and ignored.
  'since-date-format-accepted': {
    request: (req, { operations }) => {
      const dates = operations
        .flatMap((id) => servedOperation(id).parameters)
        .filter((p) => p.format === 'date' || p.format === 'date-time');
      return dates.reduce(
        (r: SandboxRequest, p) => withParameter(r, p.name, (v) => (FORMATS[p.format](v.trim()) ? v : undefined)),
        req,
      );
    },
  },
  // `text` is served as optional.
  'lookup-text-not-required': {
    served: (op) => ({
      ...op,
      parameters: op.parameters.map((p) => (p.name === 'text' ? { ...p, required: false } : p)),
    }),
  },
  'paging-tag-as-number': {
    reply: (reply) =>
      withTags(reply, (t) =>
        ['page', 'count', 'maxCount', 'maxRecords'].includes(t.code) ? { ...t, display: Number(t.display) } : t,
      ),
  },
  // Every page answers the entries of page 1 while the page tag still echoes the request.
  'paging-ignores-page': {
    request: (req) => withParameter(req, 'page', (v) => (isPositiveInteger(v) ? undefined : v)),
    reply: (reply, { received }) => {
      const page = parameterOf(received, 'page');
      return isPositiveInteger(page) ? withTags(reply, setTag('page', page.trim())) : reply;
    },
  },
  // Pages of 25 whatever `count` says, while the count tag still echoes the request.
  'count-ignored': {
    request: (req) => {
      const count = parameterOf(req, 'count');
      if (count === undefined)
        return req.form ? withForm(req, (f) => f.set('count', '25')) : withQuery(req, (q) => q.set('count', '25'));
      return withParameter(req, 'count', (v) => (isPositiveInteger(v) ? '25' : v));
    },
    reply: (reply, { received }) => {
      const count = parameterOf(received, 'count');
      return withTags(reply, setTag('count', isPositiveInteger(count) ? count.trim() : String(DEFAULT_COUNT)));
    },
  },
  'page-tag-always-one': { reply: (reply) => withTags(reply, setTag('page', '1')) },
  'pending-maxcount-tag': {
    reply: (reply) => withTags(reply, (t) => (t.code === 'maxRecords' ? { ...t, code: 'maxCount' } : t)),
  },
  'total-off-by-one': {
    reply: (reply) =>
      isObject(reply.body) && typeof reply.body.total === 'number'
        ? { ...reply, body: { ...reply.body, total: reply.body.total + 1 } }
        : reply,
  },
} satisfies Record<string, Modifier>;
