/**
 * Variants of Document 2: choices its text or spec/decisions.md allow. See ./types.ts.
 */
import type { RegisterPractitioner } from '../repo/model.ts';
import { operationOutcome } from '../router/errors.ts';
import type { SandboxReply } from '../router/types.ts';
import type { Variant } from './types.ts';
import {
  arr,
  errorCodeOf,
  fhirJsonAsPlainJson,
  isObject,
  mapObjects,
  withQuery,
  type JsonObject,
} from '../modifiers/json.ts';

const CODE_SET = 'get-code-set';
const REGISTER_PRACTITIONERS = 'search-register-practitioners';
const REGISTER_ROLES = 'search-register-practitioner-roles';
const BOOKING_PRACTITIONERS = 'search-booking-practitioners';
const BOOKING_ROLES = 'search-booking-practitioner-roles';
const BOOKING_SEARCHES = [BOOKING_PRACTITIONERS, BOOKING_ROLES];

/** The error reply with another code of the operation's table at that code's documented status. */
function recoded(reply: SandboxReply, status: number, code: string): SandboxReply {
  const issue = isObject(reply.body) ? arr(reply.body.issue)[0] : undefined;
  const diagnostics = isObject(issue) && typeof issue.diagnostics === 'string' ? issue.diagnostics : code;
  return { ...reply, status, body: operationOutcome(code, diagnostics) };
}

/** Whole-name match of a name part, ignoring letter case. */
function hasWholeName(resource: JsonObject, part: 'family' | 'given', value: string): boolean {
  const v = value.trim().toLowerCase();
  return arr(resource.name).some(
    (n) =>
      isObject(n) &&
      (part === 'family' ? [n.family] : arr(n.given)).some((s) => typeof s === 'string' && s.toLowerCase() === v),
  );
}

/** The 4.11 lists (DEC-D2-58): values outside them are refused. */
const DOCUMENTED: Readonly<Record<string, readonly string[]>> = {
  _sort: ['distance:asc', 'distance:desc', 'name:asc', 'name:desc'],
  _include: ['practitioner:location'],
  'distinct-by': ['practitioner', 'location'],
};

const LOOKUPS = ['lookup-practitioners', 'lookup-locations'];
const LIST_INSURERS = 'list-insurers';
const PHOTO = 'get-practitioner-photo';

/** Codes of 2.3 and 3 that are examples ("such as"), written as another server's own codes (DEC-D2-46). */
const OWN_CODES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  recognitionstatus: { Y: 'RECOGNISED', N: 'NOT-RECOGNISED', P: 'PENDING' },
  agestreated: { C0: 'INFANT', C1: 'CHILD', C2: 'ADOLESCENT', C3: 'ADULT', C4: 'SENIOR' },
};
/** The filters that take those codes, and the set each reads. */
const OWN_CODE_FILTERS: Readonly<Record<string, string>> = {
  'insurer-recognition-status': 'recognitionstatus',
  'ages-treated': 'agestreated',
};

/** A Coding of `{ref_url}/<set>` with its example code written as the server's own. */
const ownCoding = (o: JsonObject): JsonObject => {
  if (typeof o.system !== 'string' || typeof o.code !== 'string') return o;
  const set = Object.keys(OWN_CODES).find((k) => (o.system as string).endsWith(`/${k}`));
  const own = set === undefined ? undefined : OWN_CODES[set][o.code];
  return own === undefined ? o : { ...o, code: own };
};

/** The register practitioners an `insurer` list names, read as all of its codes (DEC-D2-54). */
const holdsEveryInsurer = (codes: readonly string[]) => (p: RegisterPractitioner) =>
  codes.every((c) => p.insurers.some((i) => i.code.toLowerCase() === c));

/** Whether one of the practitioner's `insurers` entries satisfies every insurer filter given (DEC-D2-53). */
const oneEntrySatisfiesAll = (q: URLSearchParams) => (p: RegisterPractitioner) => {
  const insurer = q.get('insurer')?.trim().toLowerCase();
  const status = q.get('insurer-recognition-status')?.trim().toLowerCase();
  const number = q.get('insurer-provider-number')?.trim().toLowerCase();
  return p.insurers.some(
    (i) =>
      (insurer === undefined || insurer.split(',').includes(i.code.toLowerCase())) &&
      (status === undefined || i.status.toLowerCase() === status) &&
      (number === undefined || i.providerNumber.toLowerCase() === number),
  );
};

/** The reference path a bundle's resources would be read at, by resource type (DEC-D2-34's fullUrl). */
const REFERENCE_PATHS: Readonly<Record<string, string>> = {
  Organization: 'reference/organization/insurer',
  Practitioner: 'register/practitioner',
  PractitionerRole: 'register/practitionerrole',
  Location: 'reference/Location',
};

export const D2_VARIANTS: readonly Variant[] = [
  {
    name: 'codeset-count-clamped',
    kind: 'paging',
    allowedBy: ['D2 7', 'DEC-D2-03'],
    description:
      'A code-set page size outside 1 to 1,000 is clamped into the bounds (`count=0` serves 1 code, `count=1001` serves 1,000) instead of refused: section 7 gives code sets no operation-specific error.',
    operations: [CODE_SET],
    request: (req) => {
      const count = req.query.get('count');
      if (count === null || !/^\d+$/.test(count)) return req;
      const n = Number(count);
      if (n >= 1 && n <= 1000) return req;
      return withQuery(req, (q) => q.set('count', String(Math.min(1000, Math.max(1, n)))));
    },
  },
  {
    name: 'codeset-sync-parameter-other-name',
    kind: 'parameter',
    allowedBy: ['D2 4.1', 'DEC-D2-05'],
    description:
      "The code sets' incremental-sync parameter has another name than `_since` (4.1 names none): `_since` is an unknown parameter and is ignored.",
    operations: [CODE_SET],
    request: (req) => (req.query.has('_since') ? withQuery(req, (q) => q.delete('_since')) : req),
  },
  {
    name: 'booking-since-invalid-format-code',
    kind: 'error-code',
    allowedBy: ['D2 7', 'DEC-D2-22'],
    description:
      'A malformed booking `_since` is refused with 400 `MSG_INVALID_FORMAT` (another code of the booking table at its status) instead of 422 `MSG_DATE_FORMAT`.',
    operations: BOOKING_SEARCHES,
    reply: (reply) =>
      reply.status === 422 && errorCodeOf(reply.body) === 'MSG_DATE_FORMAT'
        ? recoded(reply, 400, 'MSG_INVALID_FORMAT')
        : reply,
  },
  {
    name: 'booking-empty-value-served',
    kind: 'validation',
    allowedBy: ['DEC-R-03', 'DEC-D2-30', 'D2 7 (the booking table names no `MSG_PARAM_EMPTY`)'],
    description:
      'The booking searches serve a filter sent empty (`family=`) as if it were not sent, instead of refusing it: the booking table names no emptiness.',
    operations: BOOKING_SEARCHES,
    request: (req) =>
      [...req.query.values()].some((v) => v === '')
        ? withQuery(req, (q) => {
            for (const [k, v] of [...q.entries()]) if (v === '') q.delete(k);
          })
        : req,
  },
  {
    name: 'booking-invalid-value-param-invalid',
    kind: 'error-code',
    allowedBy: ['D2 7', 'DEC-D2-30', 'DEC-D2-58'],
    description:
      'The booking searches refuse malformed and empty values, non-integer paging and a `near` unit outside the list with 422 `MSG_PARAM_INVALID` ("Parameter content not valid", same table) instead of 400 `MSG_INVALID_FORMAT`.',
    operations: BOOKING_SEARCHES,
    reply: (reply) =>
      reply.status === 400 && errorCodeOf(reply.body) === 'MSG_INVALID_FORMAT'
        ? recoded(reply, 422, 'MSG_PARAM_INVALID')
        : reply,
  },
  {
    name: 'role-search-unknown-value-cant-parse',
    kind: 'error-code',
    allowedBy: ['D2 7', 'DEC-D2-58'],
    description:
      'The register role search refuses a `_sort`, `_include` or `distinct-by` value outside the documented list with 400 `MSG_CANT_PARSE_CONTENT` (another code of the register table at its status).',
    operations: [REGISTER_ROLES],
    reply: (reply, { request }) => {
      if (reply.status < 400) return reply;
      const outside = Object.entries(DOCUMENTED).some(([p, allowed]) => {
        const v = request.query.get(p);
        return v !== null && v !== '' && !allowed.includes(v.toLowerCase());
      });
      return outside ? recoded(reply, 400, 'MSG_CANT_PARSE_CONTENT') : reply;
    },
  },
  {
    name: 'name-filter-whole-name',
    kind: 'filter-match',
    allowedBy: ['D2 4.9', 'D2 4.12', 'DEC-D2-21', 'DEC-D2-59'],
    description:
      '`family` and `given` on the register and booking practitioner searches match whole names only (ignoring letter case): a part of a name matches nothing. The documents do not say partial names match.',
    operations: [REGISTER_PRACTITIONERS, BOOKING_PRACTITIONERS],
    reply: (reply, { request }) => {
      const family = request.query.get('family');
      const given = request.query.get('given');
      if (reply.status !== 200 || !isObject(reply.body) || (!family && !given)) return reply;
      const entries = arr(reply.body.entry);
      const kept = entries.filter((e) => {
        const r = isObject(e) && isObject(e.resource) ? e.resource : undefined;
        return !r || ((!family || hasWholeName(r, 'family', family)) && (!given || hasWholeName(r, 'given', given)));
      });
      const removed = entries.length - kept.length;
      const meta = isObject(reply.body.meta) ? reply.body.meta : undefined;
      const tag = meta
        ? arr(meta.tag).map((t) =>
            isObject(t) && t.code === 'maxCount' && typeof t.display === 'string'
              ? { ...t, display: String(Math.max(0, Number(t.display) - removed)) }
              : t,
          )
        : undefined;
      const total = typeof reply.body.total === 'number' ? Math.max(0, reply.body.total - removed) : reply.body.total;
      return { ...reply, body: { ...reply.body, ...(meta ? { meta: { ...meta, tag } } : {}), total, entry: kept } };
    },
  },
  {
    name: 'role-search-paged-by-default',
    kind: 'paging',
    allowedBy: ['D2 2.1', 'DEC-D2-36', 'DEC-D2-20'],
    description:
      'The register role search pages its answer, 10 roles per page, when no `count` is given (2.1 describes paged bundles; 4.11 names no paging parameter); further pages are reached with `page`.',
    operations: [REGISTER_ROLES],
    request: (req) => (req.query.has('count') ? req : withQuery(req, (q) => q.set('count', '10'))),
  },
  {
    name: 'bundle-type-collection',
    kind: 'bundle-type',
    allowedBy: ['D2 2.1', 'DEC-D2-37'],
    description:
      'The lookup, insurer-list and booking bundles are of type `collection` (2.1 allows `collection` or `searchset`; only 4.9 and 4.11 say `searchset`).',
    operations: [
      'lookup-practitioners',
      'lookup-locations',
      'list-insurers',
      'get-booking-practitioner',
      'get-booking-practitioner-role',
      ...BOOKING_SEARCHES,
    ],
    reply: (reply) =>
      reply.status === 200 && isObject(reply.body) && reply.body.resourceType === 'Bundle'
        ? { ...reply, body: { ...reply.body, type: 'collection' } }
        : reply,
  },
  {
    name: 'distance-sort-without-near-unsorted',
    kind: 'error-code',
    allowedBy: ['D2 4.11', 'DEC-D2-17'],
    description:
      'A distance `_sort` without `near` is answered 200 with the roles unsorted (the distance sort is ignored) instead of refused.',
    operations: [REGISTER_ROLES],
    request: (req) =>
      /^distance:/i.test(req.query.get('_sort') ?? '') && !req.query.has('near')
        ? withQuery(req, (q) => q.delete('_sort'))
        : req,
  },
  {
    name: 'codeable-concept-flat',
    kind: 'shape',
    allowedBy: ['D2 2.3', 'DEC-D2-43'],
    description:
      "The register Practitioner's nested `profession` / `specialty` / `subspecialty` values are CodeableConcepts with `system`, `code`, `display` directly on them (2.3 words them so) instead of a `coding[]`.",
    operations: [REGISTER_PRACTITIONERS, REGISTER_ROLES],
    reply: (reply) =>
      reply.status !== 200
        ? reply
        : {
            ...reply,
            body: mapObjects(reply.body, (o) => {
              if (
                typeof o.url !== 'string' ||
                !/(^|\/)(profession|specialty|subspecialty)$/.test(o.url) ||
                !isObject(o.valueCodeableConcept)
              )
                return o;
              const coding = arr(o.valueCodeableConcept.coding)[0];
              if (!isObject(coding)) return o;
              return {
                ...o,
                valueCodeableConcept: { system: coding.system, code: coding.code, display: coding.display },
              };
            }),
          },
  },
  {
    name: 'address-unknown-id-refused',
    kind: 'error-code',
    allowedBy: ['D2 4.7', 'DEC-D2-50'],
    description:
      'Retrieving an address id that does not exist is refused with 404 (an error body) instead of answered with an empty array.',
    operations: ['retrieve-address'],
    reply: (reply) =>
      reply.status === 200 && Array.isArray(reply.body) && reply.body.length === 0
        ? { status: 404, body: { code: 'NOT_FOUND', message: 'No address with this id' } }
        : reply,
  },
  {
    name: 'location-type-not-restricting',
    kind: 'filter-match',
    allowedBy: ['D2 4.3', 'DEC-D2-47'],
    description:
      'The location lookup accepts `type=P` without restricting the result (the meaning of the type values is not shown).',
    operations: ['lookup-locations'],
    request: (req) => (req.query.has('type') ? withQuery(req, (q) => q.delete('type')) : req),
  },
  {
    name: 'control-parameters-unknown-insurer-404',
    kind: 'error-code',
    allowedBy: ['D2 4.5', 'DEC-D2-09'],
    description: 'The control parameters of an unknown insurer id are refused with 404 instead of an empty Bundle.',
    operations: ['get-insurer-control-parameters'],
    reply: (reply) =>
      reply.status === 200 &&
      isObject(reply.body) &&
      reply.body.resourceType === 'Bundle' &&
      arr(reply.body.entry).length === 0
        ? { status: 404, body: operationOutcome('MSG_NOT_FOUND', 'No such insurer') }
        : reply,
  },
  {
    name: 'codeset-unknown-set-empty',
    kind: 'error-code',
    allowedBy: ['D2 7', 'DEC-D2-41'],
    description:
      'An unknown code-set name is answered 200 with an empty ValueSet ("an empty result set is returned when nothing matches") instead of 404.',
    operations: [CODE_SET],
    reply: (reply, { request }) => {
      if (reply.status !== 404) return reply;
      const name = decodeURIComponent(
        request.params.set_name ?? request.path.split('/').filter(Boolean).pop() ?? 'unknown',
      );
      return {
        status: 200,
        body: {
          resourceType: 'ValueSet',
          id: name.replace(/[^A-Za-z0-9.-]/g, '-').slice(0, 64),
          name,
          expansion: { total: 0, offset: 0, contains: [] },
        },
      };
    },
  },
  {
    name: 'geocode-unknown-postcode-null-position',
    kind: 'null-optional',
    allowedBy: ['D2 4.8', 'DEC-D2-51'],
    description:
      'Geo-coding an unknown or invalid postcode is answered 200 with the postcode and `latitude` / `longitude` null instead of 404.',
    operations: ['geocode-postcode'],
    reply: (reply, { request }) =>
      reply.status === 404
        ? { status: 200, body: { postcode: request.query.get('postcode') ?? '', latitude: null, longitude: null } }
        : reply,
  },
  {
    name: 'photo-title-absent',
    kind: 'null-optional',
    allowedBy: ['D2 2.3', 'DEC-D2-64', 'DEC-D2-42'],
    description: 'The photo attachment carries no `title` (its meaning is not explained).',
    operations: ['get-practitioner-photo'],
    reply: (reply) =>
      reply.status !== 200
        ? reply
        : {
            ...reply,
            body: mapObjects(reply.body, (o) =>
              isObject(o.valueAttachment)
                ? {
                    ...o,
                    valueAttachment: Object.fromEntries(
                      Object.entries(o.valueAttachment).filter(([k]) => k !== 'title'),
                    ),
                  }
                : o,
            ),
          },
  },
  {
    name: 'codeset-item-extensions-absent',
    kind: 'null-optional',
    allowedBy: ['D2 2.2', 'DEC-D2-38'],
    description:
      'Code-set items carry no `requiresProcedure` / `lastUpdated` extensions (which items carry them is not said).',
    operations: [CODE_SET],
    reply: (reply) =>
      reply.status !== 200 || !isObject(reply.body) || !isObject(reply.body.expansion)
        ? reply
        : {
            ...reply,
            body: {
              ...reply.body,
              expansion: {
                ...reply.body.expansion,
                contains: arr(reply.body.expansion.contains).map((i) =>
                  isObject(i) ? Object.fromEntries(Object.entries(i).filter(([k]) => k !== 'extension')) : i,
                ),
              },
            },
          },
  },
  {
    name: 'location-position-null',
    kind: 'null-optional',
    allowedBy: ['D2 2.3 (Location `position` is optional)', 'DEC-D2-42', 'DEC-D2-16'],
    description:
      'A Location without a position carries `position: null` (lookup Locations and Locations included by the role search).',
    operations: ['lookup-locations', REGISTER_ROLES],
    reply: (reply) =>
      reply.status !== 200
        ? reply
        : {
            ...reply,
            body: mapObjects(reply.body, (o) =>
              o.resourceType === 'Location' && !('position' in o) ? { ...o, position: null } : o,
            ),
          },
  },
  {
    name: 'd2-fhir-answers-plain-json',
    kind: 'protocol',
    allowedBy: ['D2 1', 'DEC-D2-26'],
    description:
      'The FHIR-style Document 2 operations answer with `Content-Type: application/json` instead of `application/fhir+json` (a JSON media type; the specific one is SHOULD).',
    operations: [
      CODE_SET,
      'lookup-practitioners',
      'lookup-locations',
      'list-insurers',
      'get-insurer-control-parameters',
      REGISTER_PRACTITIONERS,
      'get-practitioner-photo',
      REGISTER_ROLES,
      'get-booking-practitioner',
      'get-booking-practitioner-role',
      ...BOOKING_SEARCHES,
    ],
    wire: fhirJsonAsPlainJson,
  },
  {
    name: 'last-updated-other-forms',
    kind: 'date-form',
    allowedBy: ['FHIR R4 dateTime', 'FHIR R4 instant', 'DEC-D2-38', 'DEC-D2-22'],
    description:
      'Insurer and code-set `lastUpdated` extensions carry a date-only FHIR dateTime (`2025-06-01`), and booking `meta.lastUpdated` is written in UTC with `Z` and milliseconds (`2025-11-17T07:11:00.000Z`).',
    operations: [
      CODE_SET,
      'list-insurers',
      'get-booking-practitioner',
      'get-booking-practitioner-role',
      ...BOOKING_SEARCHES,
    ],
    reply: (reply) =>
      reply.status !== 200
        ? reply
        : {
            ...reply,
            body: mapObjects(reply.body, (o, path) => {
              if (
                (o.id === 'lastUpdated' || (typeof o.url === 'string' && o.url.endsWith('lastUpdated'))) &&
                typeof o.valueDateTime === 'string'
              )
                return { ...o, valueDateTime: o.valueDateTime.slice(0, 10) };
              if (path[path.length - 1] === 'meta' && typeof o.lastUpdated === 'string') {
                const t = Date.parse(o.lastUpdated);
                return Number.isNaN(t) ? o : { ...o, lastUpdated: new Date(t).toISOString() };
              }
              return o;
            }),
          },
  },
  {
    name: 'booking-identifier-by-system',
    kind: 'shape',
    allowedBy: ['D2 2.3', 'DEC-D2-60'],
    description:
      'The booking PractitionerRole names its identifiers by `system` (`.../booking_identifier`, `.../external_identifier`) and carries no identifier `id`.',
    operations: ['get-booking-practitioner-role', BOOKING_ROLES],
    reply: (reply) =>
      reply.status !== 200
        ? reply
        : {
            ...reply,
            body: mapObjects(reply.body, (o) =>
              o.resourceType !== 'PractitionerRole'
                ? o
                : {
                    ...o,
                    identifier: arr(o.identifier).map((i) => {
                      if (!isObject(i) || typeof i.id !== 'string') return i;
                      const { id, ...rest } = i;
                      return { ...rest, system: `https://sandbox.example/ref/${id}` };
                    }),
                  },
            ),
          },
  },
  {
    name: 'lookup-missing-text-other-body',
    kind: 'error-body',
    allowedBy: ['D2 7', 'DEC-D2-07', 'DEC-D2-31'],
    description:
      'A lookup without `text` is answered HTTP 400 with a plain `{ "error": "text is required" }` body (the body is not shown; only the status is fixed).',
    operations: ['lookup-practitioners', 'lookup-locations'],
    reply: (reply, { request }) =>
      reply.status === 400 && !request.query.get('text') ? { status: 400, body: { error: 'text is required' } } : reply,
  },
  {
    name: 'distinct-by-answer-sorted-by-name',
    kind: 'order',
    allowedBy: ['D2 4.11', 'DEC-D2-55'],
    description:
      'Without `_sort`, a `distinct-by` answer lists its roles by practitioner name, descending (the order that defines "first" is not stated without `_sort`).',
    operations: [REGISTER_ROLES],
    request: (req) =>
      req.query.has('distinct-by') && !req.query.has('_sort')
        ? withQuery(req, (q) => q.set('_sort', 'name:desc'))
        : req,
  },
  {
    name: 'd2-no-token-403',
    kind: 'status',
    allowedBy: ['D2 5', 'DEC-D2-61'],
    description: 'A Document 2 request without a token, or with an unknown one, is refused with 403 instead of 401.',
    operations: [
      CODE_SET,
      'lookup-practitioners',
      'lookup-locations',
      'list-insurers',
      'get-insurer-control-parameters',
      'search-address',
      'retrieve-address',
      'geocode-postcode',
      'validate-postcode',
      REGISTER_PRACTITIONERS,
      'get-practitioner-photo',
      REGISTER_ROLES,
      'get-booking-practitioner',
      'get-booking-practitioner-role',
      ...BOOKING_SEARCHES,
    ],
    reply: (reply) => (reply.status === 401 ? { ...reply, status: 403 } : reply),
  },
  {
    name: 'retrieved-address-blank-members-null',
    kind: 'null-optional',
    allowedBy: ['D2 2.3', 'DEC-D2-42'],
    description:
      'A retrieved address writes its empty optional members (`line2`..`line4`, `buildingName`, ...) as `null` instead of empty strings, and leaves out `postcode` when it is the last line of `formattedAddress` (only `key`, `addressType` and `formattedAddress` must be present).',
    operations: ['retrieve-address'],
    reply: (reply) =>
      reply.status !== 200 || !Array.isArray(reply.body)
        ? reply
        : {
            ...reply,
            body: reply.body.map((a) => {
              if (!isObject(a)) return a;
              const out: JsonObject = {};
              for (const [k, v] of Object.entries(a)) {
                if (k === 'postcode') continue;
                out[k] = v === '' && !['key', 'addressType', 'formattedAddress'].includes(k) ? null : v;
              }
              return out;
            }),
          },
  },
  {
    name: 'd2-optional-members-absent',
    kind: 'null-optional',
    allowedBy: ['D2 2.3', 'DEC-D2-42'],
    description:
      'Members whose presence is only SHOULD are left out: insurers carry no `category` / `lastUpdated` extensions, lookup Locations no `name` when they have an address, and register roles no `location[]` display.',
    operations: ['list-insurers', 'lookup-locations', REGISTER_ROLES],
    reply: (reply) =>
      reply.status !== 200
        ? reply
        : {
            ...reply,
            body: mapObjects(reply.body, (o) => {
              if (o.resourceType === 'Organization' && Array.isArray(o.extension))
                return {
                  ...o,
                  extension: o.extension.filter(
                    (e) =>
                      !(isObject(e) && typeof e.url === 'string' && /\/extension\/(category|lastUpdated)$/.test(e.url)),
                  ),
                };
              if (o.resourceType === 'Location' && isObject(o.address) && typeof o.name === 'string')
                return Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'name'));
              if (o.resourceType === 'PractitionerRole' && Array.isArray(o.location))
                return {
                  ...o,
                  location: o.location.map((l) =>
                    isObject(l) ? Object.fromEntries(Object.entries(l).filter(([k]) => k !== 'display')) : l,
                  ),
                };
              return o;
            }),
          },
  },
  {
    name: 'postcode-empty-validated-false',
    kind: 'validation',
    allowedBy: [
      'DEC-R-03',
      'D2 4.8 (`status` "false when the postcode is invalid")',
      'D2 7 (HTTP 400 "when the `text` parameter is absent")',
    ],
    description:
      'Validate postcode answers a present but empty `postcode=` with 200 `{"postcode":"","status":false}` (an invalid postcode) instead of 400.',
    operations: ['validate-postcode'],
    reply: (reply, { request }) =>
      request.query.has('postcode') && (request.query.get('postcode') ?? '').trim() === ''
        ? { status: 200, body: { postcode: request.query.get('postcode') ?? '', status: false } }
        : reply,
  },
  {
    name: 'address-search-without-formatted-address',
    kind: 'null-optional',
    allowedBy: ['DEC-D2-49', 'D2 4.6 ("The operation does not return formatted addresses.")', 'D2-4.6-06'],
    description:
      'Address search items carry `key` and `addressType` only, without `formattedAddress`: 4.6 says the search "does not return formatted addresses" while 2.3 lists the member, so its presence is open.',
    operations: ['search-address'],
    reply: (reply) =>
      reply.status !== 200 || !Array.isArray(reply.body)
        ? reply
        : {
            ...reply,
            body: reply.body.map((item) =>
              isObject(item)
                ? Object.fromEntries(Object.entries(item).filter(([k]) => k !== 'formattedAddress'))
                : item,
            ),
          },
  },
  {
    name: 'address-empty-id-empty-list',
    kind: 'validation',
    allowedBy: ['DEC-R-03', 'DEC-D2-50'],
    description:
      'Retrieve address answers a present but empty `id=` with 200 and an empty array (no address has that key) instead of 400.',
    operations: ['retrieve-address'],
    reply: (reply, { request }) =>
      request.query.has('id') && (request.query.get('id') ?? '').trim() === '' ? { status: 200, body: [] } : reply,
  },
  {
    name: 'lookup-total-of-page',
    kind: 'paging',
    allowedBy: ['DEC-D2-27', 'D2 2.1 ("`total` (integer)"; what it counts is not spelled out)', 'DEC-D1-12'],
    description:
      'The practitioner and location lookups give as `total` the number of entries of the page, not the number of matches (`maxCount` still gives the matches).',
    operations: LOOKUPS,
    reply: (reply) =>
      reply.status === 200 && isObject(reply.body) && Array.isArray(reply.body.entry)
        ? { ...reply, body: { ...reply.body, total: reply.body.entry.length } }
        : reply,
  },
  {
    name: 'photo-unknown-practitioner-404',
    kind: 'error-status',
    allowedBy: ['DEC-D2-29', "D2 7 (the register table has no entry for an unknown practitioner's photo)"],
    description:
      'The photo of an unknown practitioner is answered 404 (`MSG_NOT_FOUND`) instead of 422 `MSG_REFERENCE_ID_NOT_FOUND`.',
    operations: [PHOTO],
    reply: (reply) =>
      reply.status === 422 && errorCodeOf(reply.body) === 'MSG_REFERENCE_ID_NOT_FOUND'
        ? { status: 404, body: operationOutcome('MSG_NOT_FOUND', 'No such practitioner') }
        : reply,
  },
  {
    name: 'bundle-id-and-full-urls-everywhere',
    kind: 'null-optional',
    allowedBy: [
      'DEC-D2-34',
      'D2 2.1 ("`id` (on lookups)", "`fullUrl` on lookups"; other bundles are not said to leave them out)',
    ],
    description:
      'The insurer, register and booking bundles carry a Bundle `id` and an entry `fullUrl` too, as the lookups do.',
    operations: [LIST_INSURERS, REGISTER_PRACTITIONERS, REGISTER_ROLES, ...BOOKING_SEARCHES],
    reply: (reply, { received }) => {
      if (reply.status !== 200 || !isObject(reply.body) || reply.body.resourceType !== 'Bundle') return reply;
      const base = `http://${received.headers.host ?? 'localhost'}`;
      const entry = arr(reply.body.entry).map((e) => {
        if (!isObject(e) || 'fullUrl' in e || !isObject(e.resource) || typeof e.resource.id !== 'string') return e;
        const path = REFERENCE_PATHS[String(e.resource.resourceType)] ?? `booking/${String(e.resource.resourceType)}`;
        return { fullUrl: `${base}/${path}/${encodeURIComponent(e.resource.id)}`, ...e };
      });
      const { resourceType, ...rest } = reply.body;
      const id = `bundle-${[...received.query.entries()].map(([k, v]) => `${k}-${v}`).join('-') || 'all'}`
        .replace(/[^A-Za-z0-9.-]/g, '-')
        .slice(0, 64);
      return { ...reply, body: { resourceType, id, ...rest, ...(Array.isArray(reply.body.entry) ? { entry } : {}) } };
    },
  },
  {
    name: 'profession-url-display-segment',
    kind: 'serialisation',
    allowedBy: [
      'DEC-D2-44',
      'D2 2.3 (the relation of `<code>` in `{ref_url}/valueset/profession/<code>` to the coding is not stated)',
    ],
    description:
      "The lookup Practitioner's profession extension URL ends in the profession's name in lower case (`{ref_url}/valueset/profession/consultant`) rather than its coding code (`CON`).",
    operations: ['lookup-practitioners'],
    reply: (reply) =>
      reply.status !== 200
        ? reply
        : {
            ...reply,
            body: mapObjects(reply.body, (o) => {
              if (typeof o.url !== 'string' || !/\/valueset\/profession\/[^/]+$/.test(o.url)) return o;
              const coding = isObject(o.valueCodeableConcept) ? arr(o.valueCodeableConcept.coding)[0] : undefined;
              const name = isObject(coding) && typeof coding.display === 'string' ? coding.display : undefined;
              return name === undefined
                ? o
                : { ...o, url: o.url.replace(/[^/]+$/, name.toLowerCase().replace(/[^a-z0-9]+/g, '-')) };
            }),
          },
  },
  {
    name: 'register-codes-beyond-examples',
    kind: 'data',
    allowedBy: ['DEC-D2-46', 'D2 2.3 (codes "such as" `C0`, `C1` and `Y` are examples)'],
    description:
      'The register writes recognition statuses and ages-treated bands with codes of its own (`RECOGNISED`, `NOT-RECOGNISED`, `PENDING`; `INFANT` ... `SENIOR`) instead of the example codes `Y`, `C0` ..., and filters on those codes.',
    operations: [REGISTER_PRACTITIONERS, REGISTER_ROLES],
    request: (req) =>
      Object.keys(OWN_CODE_FILTERS).some((f) => req.query.has(f))
        ? withQuery(req, (q) => {
            for (const [filter, set] of Object.entries(OWN_CODE_FILTERS)) {
              const v = q.get(filter);
              const example =
                v === null
                  ? undefined
                  : Object.entries(OWN_CODES[set]).find(([, own]) => own.toLowerCase() === v.trim().toLowerCase())?.[0];
              if (example !== undefined) q.set(filter, example);
              else if (
                v !== null &&
                Object.keys(OWN_CODES[set]).some((c) => c.toLowerCase() === v.trim().toLowerCase())
              )
                q.set(filter, 'NO-SUCH-CODE');
            }
          })
        : req,
    reply: (reply) => (reply.status === 200 ? { ...reply, body: mapObjects(reply.body, ownCoding) } : reply),
  },
  {
    name: 'edi-list-routed-only',
    kind: 'data',
    allowedBy: [
      'DEC-D2-48',
      'D2 4.4 (`edi` lists "insurers accepting electronic invoices"; its completeness is not stated)',
    ],
    description:
      'The `edi` insurer list names only the insurers whose electronic route is switched on today (control parameter `synchronousME` Y), not every insurer whose `edi` is `Yes`.',
    operations: [LIST_INSURERS],
    repo: (repo, { request }) =>
      request.query.get('type')?.trim().toLowerCase() !== 'edi'
        ? repo
        : {
            ...repo,
            referenceInsurers: async () =>
              (await repo.referenceInsurers()).filter((i) => i.edi !== 'Yes' || i.control.synchronousME === 'Y'),
          },
  },
  {
    name: 'online-booking-false-not-restricting',
    kind: 'filter-match',
    allowedBy: [
      'DEC-D2-52',
      'D2 4.9 (`is-onlinebooking-available` is "true for practitioners with active online booking schedules"; `false` is not described)',
    ],
    description:
      '`is-onlinebooking-available=false` does not restrict the register searches (the filter only selects when true) instead of keeping the practitioners without online booking.',
    operations: [REGISTER_PRACTITIONERS, REGISTER_ROLES],
    request: (req) =>
      req.query.get('is-onlinebooking-available')?.trim().toLowerCase() === 'false'
        ? withQuery(req, (q) => q.delete('is-onlinebooking-available'))
        : req,
  },
  {
    name: 'insurer-filters-on-one-entry',
    kind: 'filter-match',
    allowedBy: ['DEC-D2-53', 'D2 4.9 (the match rule of insurer filters used together is not stated)'],
    description:
      '`insurer` with `insurer-recognition-status` or `insurer-provider-number` keeps a practitioner only when one `insurers` entry satisfies them all (the recognition or number with that insurer), not each on some entry.',
    operations: [REGISTER_PRACTITIONERS],
    repo: (repo, { request }) => {
      const q = request.query;
      const combined = q.has('insurer') && (q.has('insurer-recognition-status') || q.has('insurer-provider-number'));
      return combined
        ? {
            ...repo,
            registerPractitioners: async () => (await repo.registerPractitioners()).filter(oneEntrySatisfiesAll(q)),
          }
        : repo;
    },
  },
  {
    name: 'insurer-codes-intersection',
    kind: 'filter-match',
    allowedBy: ['DEC-D2-54', 'D2 4.11 (`insurer` takes "insurer code(s)"; any or all is not shown)'],
    description:
      '`insurer=a,b` keeps the practitioners (and roles of practitioners) recognised by every insurer named, not by any of them.',
    operations: [REGISTER_PRACTITIONERS, REGISTER_ROLES],
    repo: (repo, { request }) => {
      const codes = (request.query.get('insurer') ?? '')
        .split(',')
        .map((c) => c.trim().toLowerCase())
        .filter((c) => c !== '');
      return codes.length > 1
        ? {
            ...repo,
            registerPractitioners: async () => (await repo.registerPractitioners()).filter(holdsEveryInsurer(codes)),
          }
        : repo;
    },
  },
  {
    name: 'included-practitioner-header-only',
    kind: 'null-optional',
    allowedBy: ['DEC-D2-57', 'D2 4.11 (the form of the included resources is not shown)'],
    description:
      'With `_include=practitioner:location` the included Practitioners are written as a header only (`id`, `active`, `name`, `gender`), without the register extensions, telecom, address or qualifications.',
    operations: [REGISTER_ROLES],
    reply: (reply) => {
      if (reply.status !== 200 || !isObject(reply.body) || !Array.isArray(reply.body.entry)) return reply;
      const entry = reply.body.entry.map((e) => {
        if (!isObject(e) || !isObject(e.resource) || e.resource.resourceType !== 'Practitioner') return e;
        const { resourceType, id, active, name, gender } = e.resource;
        return { ...e, resource: { resourceType, id, active, name, gender } };
      });
      return { ...reply, body: { ...reply.body, entry } };
    },
  },
  {
    name: 'role-practitioner-display-given-family',
    kind: 'serialisation',
    allowedBy: [
      'DEC-D2-56',
      'D2 4.11 ("name format: Title GivenName" names the sort key, not the form of `practitioner.display`)',
    ],
    description:
      'Register roles write `practitioner.display` as "GivenName Family" (`John Smith`), without the title; `_sort=name` still orders by the name "Title GivenName".',
    operations: [REGISTER_ROLES],
    reply: (reply) =>
      reply.status !== 200
        ? reply
        : {
            ...reply,
            body: mapObjects(reply.body, (o) =>
              o.resourceType === 'PractitionerRole' &&
              isObject(o.practitioner) &&
              typeof o.practitioner.display === 'string'
                ? { ...o, practitioner: { ...o.practitioner, display: o.practitioner.display.replace(/^\S+\s+/, '') } }
                : o,
            ),
          },
  },
  {
    name: 'address-drill-down-parameter-other-name',
    kind: 'protocol',
    allowedBy: [
      'DEC-D2-12',
      'D2 4.6 ("Repeated calls may be needed to drill down"; the parameter carrying the item is not shown)',
    ],
    description:
      'The address search drills down on a parameter of its own name, `parent` (the key of the item drilled into), and ignores `container`, answering the top-level items again.',
    operations: ['search-address'],
    request: (req) =>
      req.query.has('container') || req.query.has('parent')
        ? withQuery(req, (q) => {
            const parent = q.get('parent');
            q.delete('container');
            q.delete('parent');
            if (parent !== null) q.set('container', parent);
          })
        : req,
  },
];
