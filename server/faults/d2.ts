/**
 * Faults of Document 2's operations (code sets, lookups, insurers, address and postcode,
 * practitioner register, booking). Each is a modifier around the reference handlers
 * (server/router/types.ts `Modifier`); catalog.ts describes them.
 */
import {
  arr,
  errorCodeOf,
  isObject,
  mapObjects,
  parameterOf,
  withParameter,
  withoutParameters,
  type JsonObject,
} from '../modifiers/json.ts';
import { CODE_SET_MAX_COUNT } from '../router/codeSets.ts';
import { ApiError, errorReply } from '../router/errors.ts';
import { pagedBundle, singlePageBundle, type BundleEntry } from '../router/paging.ts';
import type { Modifier, SandboxReply } from '../router/types.ts';
import { withTags } from './protocol.ts';

const withBody = (reply: SandboxReply, body: unknown): SandboxReply => ({ ...reply, body });
const isSuccess = (reply: SandboxReply) => reply.status === 200 && isObject(reply.body);

/** A `near` value's radius (`lat:lon:distance[:unit]`) or a `near-distance` value rewritten. */
function withRadius(
  req: Parameters<NonNullable<Modifier['reply']>>[1]['request'],
  near: (parts: string[]) => string[],
  nearDistance: (value: string) => string,
) {
  const r = withParameter(req, 'near', (v) => near(v.split(':')).join(':'));
  return withParameter(r, 'near-distance', nearDistance);
}

/** The codes the booking searches refuse a bad parameter with (Document 2, 7; DEC-D2-30, -58). */
const PARAMETER_REFUSALS = new Set([
  'MSG_MISSING_MANDATORY_PARAM',
  'MSG_PARAM_INVALID',
  'MSG_INVALID_FORMAT',
  'MSG_DATE_FORMAT',
]);

const DISTANCE = /^(\d+(?:\.\d+)?)(km|mi|m)?$/i;

/** The reference of a PractitionerRole's practitioner (resp. first location). */
function roleKey(resource: JsonObject, by: string): string {
  if (by === 'practitioner') return isObject(resource.practitioner) ? String(resource.practitioner.reference) : '';
  const [location] = arr(resource.location);
  return isObject(location) ? String(location.reference) : '';
}

export const D2_FAULTS = {
  'register-gender-filter-ignored': { request: (req) => withoutParameters(req, ['gender']) },
  'photo-size-mismatch': {
    reply: (reply) =>
      withBody(
        reply,
        mapObjects(reply.body, (o) => (typeof o.size === 'number' && 'data' in o ? { ...o, size: o.size + 10 } : o)),
      ),
  },
  // A distance without unit is read as miles.
  'near-default-unit-miles': {
    request: (req) =>
      withRadius(
        req,
        (parts) => (parts.length === 3 ? [...parts, 'mi'] : parts),
        (v) => (/^\d+(\.\d+)?$/.test(v.trim()) ? `${v.trim()}mi` : v),
      ),
  },
  // The near filter lets roles up to three times the radius through.
  'radius-leak': {
    request: (req) =>
      withRadius(
        req,
        (parts) =>
          parts.length >= 3 && /^\d+(\.\d+)?$/.test(parts[2])
            ? [parts[0], parts[1], String(Number(parts[2]) * 3), ...parts.slice(3)]
            : parts,
        (v) => {
          const m = DISTANCE.exec(v.trim());
          return m ? `${Number(m[1]) * 3}${m[2] ?? ''}` : v;
        },
      ),
  },
  'role-name-sort-direction-ignored': {
    request: (req) => withParameter(req, '_sort', (v) => (v.trim() === 'name:desc' ? 'name:asc' : v)),
  },
  'distinct-by-ignored': { request: (req) => withoutParameters(req, ['distinct-by']) },
  // distinct-by keeps the last matching role of each key instead of the first: the sandbox answers
  // every role in one page, then keeps the last of each key and pages as asked.
  'distinct-by-not-first': {
    request: (req) =>
      parameterOf(req, 'distinct-by') === undefined ? req : withoutParameters(req, ['distinct-by', 'page', 'count']),
    reply: (reply, { received }) => {
      const by = parameterOf(received, 'distinct-by');
      if (by === undefined || !isSuccess(reply)) return reply;
      const entries = arr((reply.body as JsonObject).entry).filter(isObject) as unknown as BundleEntry[];
      const matches = entries.filter((e) => (e.resource as JsonObject).resourceType === 'PractitionerRole');
      const last = new Map(matches.map((e) => [roleKey(e.resource as JsonObject, by.trim()), e]));
      const kept = matches.filter((e) => last.get(roleKey(e.resource as JsonObject, by.trim())) === e);
      const included = entries.filter((e) => (e.resource as JsonObject).resourceType !== 'PractitionerRole');
      const page = Number(parameterOf(received, 'page') ?? 1);
      const count = Number(parameterOf(received, 'count') ?? kept.length);
      const bundle = pagedBundle({
        operationId: 'search-register-practitioner-roles',
        type: 'searchset',
        matches: kept,
        paging: { page, count },
        totalTag: 'maxCount',
        entry: (e) => e,
        included: (onPage) => {
          const referenced = new Set(
            onPage.flatMap((e) => [
              roleKey(e.resource as JsonObject, 'practitioner'),
              roleKey(e.resource as JsonObject, 'location'),
            ]),
          );
          return included.filter((e) => {
            const r = e.resource as JsonObject;
            return referenced.has(`${String(r.resourceType)}/${String(r.id)}`);
          });
        },
      });
      return withBody(reply, bundle);
    },
  },
  'include-ignored': { request: (req) => withoutParameters(req, ['_include']) },
  // The narrowed specialty set also holds the specialties of other professions.
  'specialty-narrowing-leaks': {
    request: (req) =>
      req.params.set_name === 'practitioner-specialty' && req.params.scheme !== undefined
        ? { ...req, params: Object.fromEntries(Object.entries(req.params).filter(([k]) => k !== 'scheme')) }
        : req,
  },
  'codeset-offset-off-by-one': {
    reply: (reply) => {
      if (!isSuccess(reply)) return reply;
      const body = reply.body as JsonObject;
      const count = arr(isObject(body.meta) ? body.meta.tag : []).find((t) => isObject(t) && t.code === 'count');
      const expansion = body.expansion;
      if (!isObject(expansion) || !isObject(count) || typeof expansion.offset !== 'number') return reply;
      return withBody(reply, {
        ...body,
        expansion: { ...expansion, offset: expansion.offset + Number(count.display) },
      });
    },
  },
  // A count of 0 or above 1,000 is accepted (0 answers no codes, more than 1,000 all of them).
  'codeset-count-bound-ignored': {
    request: (req) =>
      withParameter(req, 'count', (v) => {
        if (!/^\d{1,9}$/.test(v.trim())) return v;
        return String(Math.min(Math.max(Number(v.trim()), 1), CODE_SET_MAX_COUNT));
      }),
    reply: (reply, { received }) => {
      const count = parameterOf(received, 'count')?.trim();
      if (count === undefined || !/^\d{1,9}$/.test(count) || !isSuccess(reply)) return reply;
      const tagged = withTags(reply, (t) => (t.code === 'count' ? { ...t, display: count } : t));
      const body = tagged.body as JsonObject;
      if (Number(count) !== 0 || !isObject(body.expansion)) return tagged;
      return withBody(tagged, { ...body, expansion: { ...body.expansion, contains: [] } });
    },
  },
  // A page past the last is answered without its `expansion` (nothing left to expand).
  'codeset-past-last-page-malformed': {
    reply: (reply) => {
      if (!isSuccess(reply)) return reply;
      const { expansion, ...body } = reply.body as JsonObject;
      const past =
        isObject(expansion) && Number(expansion.offset) > 0 && Number(expansion.offset) >= Number(expansion.total);
      return past ? withBody(reply, body) : reply;
    },
  },
  'insurer-type-filter-ignored': { request: (req) => withoutParameters(req, ['type']) },
  'control-parameter-missing': {
    reply: (reply) =>
      withBody(
        reply,
        mapObjects(reply.body, (o) =>
          o.resourceType === 'Organization' && Array.isArray(o.extension)
            ? { ...o, extension: o.extension.filter((e) => !(isObject(e) && String(e.url).endsWith('/stvEnabled'))) }
            : o,
        ),
      ),
  },
  // The control-parameter URLs name the next insurer of the list instead of the one asked for.
  'control-parameters-other-insurer': {
    reply: async (reply, { repo }) => {
      if (!isSuccess(reply)) return reply;
      const all = await repo.referenceInsurers();
      return withBody(
        reply,
        mapObjects(reply.body, (o) => {
          if (typeof o.url !== 'string') return o;
          const m = /\/organization\/ins\/([^/]+)\/\$control-parameters\//.exec(o.url);
          const k = m ? all.findIndex((i) => i.id === m[1]) : -1;
          if (!m || k < 0) return o;
          return { ...o, url: o.url.replace(`/ins/${m[1]}/`, `/ins/${all[(k + 1) % all.length].id}/`) };
        }),
      );
    },
  },
  'invalid-postcode-error': {
    reply: (reply, { operations }) =>
      isSuccess(reply) && (reply.body as JsonObject).status === false
        ? errorReply(
            new ApiError(
              400,
              'MSG_INVALID_FORMAT',
              `Postcode ${String((reply.body as JsonObject).postcode)} is not valid`,
            ),
            operations,
          )
        : reply,
  },
  // Retrieve answers the first address whatever the id.
  'retrieve-wrong-address': {
    request: async (req, { repo }) => {
      const first = (await repo.addressItems()).find((i) => i.addressType === 'Address' && i.address !== undefined);
      return first ? withParameter(req, 'id', () => first.key) : req;
    },
  },
  'booking-unknown-id-200': {
    reply: (reply) => (reply.status === 404 ? { status: 200, body: singlePageBundle('searchset', []) } : reply),
  },
  'booking-practitioner-filters-ignored': {
    request: (req) => withoutParameters(req, ['profession', 'channel', 'location', 'postcode', 'near']),
  },
  'booking-role-since-ignored': { request: (req) => withoutParameters(req, ['_since']) },
  // A refused parameter escapes the booking searches' validation as an unhandled error: HTTP 500.
  'booking-refusal-server-error': {
    reply: (reply, { operations }) =>
      reply.status >= 400 && reply.status < 500 && PARAMETER_REFUSALS.has(errorCodeOf(reply.body) ?? '')
        ? errorReply(new TypeError(`Cannot map the refusal ${errorCodeOf(reply.body)}`), operations)
        : reply,
  },
} satisfies Record<string, Modifier>;
