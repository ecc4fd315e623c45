/**
 * Faults of Document 2 written to prove its MUST rows that no derived shape fault reaches (issue
 * 30, item 1). Each breaks one documented rule, names the rows it proves and the check that must
 * catch it citing them; its scenario is in d2.test.ts.
 */
import { arr, isObject, parameterOf, type JsonObject } from '../../modifiers/json.ts';
import { DEFAULT_CLIENT_ID } from '../../fixtures/clients.ts';
import { bearerOf } from '../../router/auth.ts';
import { ApiError, errorReply } from '../../router/errors.ts';
import { distanceKm } from '../../router/geo.ts';
import { CODE_SET_NAMES } from '../../../spec/operationsD2.ts';
import type { SandboxReply, SandboxRequest } from '../../router/types.ts';
import type { RowFault } from './types.ts';

const withBody = (reply: SandboxReply, body: unknown): SandboxReply => ({ ...reply, body });
const isSuccess = (reply: SandboxReply) => reply.status === 200 && (isObject(reply.body) || Array.isArray(reply.body));
const same = (a: string | undefined, b: string) => a !== undefined && a.trim().toLowerCase() === b.toLowerCase();
const resourcesOf = (body: unknown): JsonObject[] =>
  isObject(body)
    ? arr(body.entry)
        .map((e) => (isObject(e) && isObject(e.resource) ? e.resource : undefined))
        .filter((r): r is JsonObject => r !== undefined)
    : [];
/** The reply of an unhandled error in the handler (what a null dereference gives): HTTP 500. */
const crash = (what: string, operations: readonly string[]) => errorReply(new TypeError(what), operations);

/** Every extension (top-level or nested) whose URL ends with the name, its value rewritten. */
function withExtensionValue(body: unknown, name: string, rewrite: (e: JsonObject) => JsonObject): unknown {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    const copy: JsonObject = {};
    for (const [k, v] of Object.entries(node)) copy[k] = visit(v);
    const url = typeof copy.url === 'string' ? copy.url : '';
    return url === name || url.endsWith(`/${name}`) ? rewrite(copy) : copy;
  };
  return visit(body);
}

/**
 * A code set (and scheme) the documents list, answered as an unknown set (DEC-D2-02, -40): the
 * server lacks it. The reply is the handler's own answer to a set it does not hold.
 */
function codeSetNotServed(set: string, scheme: string | undefined, row: string): RowFault {
  const label = scheme === undefined ? set : `${set}/${scheme}`;
  return {
    name: `code-set-${set}${scheme === undefined ? '' : `-${scheme.toLowerCase()}`}-not-served`,
    kind: 'missing-data',
    rule: `D2 2.2, 4.1 / DEC-D2-02${scheme === 'ICD9' ? ', -40' : ''}: the set ${label} is served`,
    description: `GET {codes_valueset_namespace}/${label} is answered 404 MSG_ENTITY_NOT_FOUND_IN_DATABASE, as a set the server does not hold; every other set is served.`,
    operations: ['get-code-set'],
    expectedCheck: 'success-status',
    rows: [row],
    reply: (reply, { request, operations }) =>
      isSuccess(reply) &&
      same(request.params.set_name, set) &&
      (scheme === undefined ? request.params.scheme === undefined : same(request.params.scheme, scheme))
        ? errorReply(new ApiError(404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE', `No code set ${label}`), operations)
        : reply,
  };
}

/** Parameters that only page or shape an answer: a request holding no other names no filter. */
const NOT_FILTERS = new Set(['page', 'count', '_sort', '_include', 'distinct-by']);

/**
 * A search whose parameters are all optional (4.9, 4.11, 4.12, 4.13) refusing a request that
 * names no filter with 400 MSG_MISSING_MANDATORY_PARAM (a code of its table).
 */
function searchRequiresFilter(name: string, operation: string, section: string, row: string): RowFault {
  return {
    name,
    kind: 'validation',
    rule: `D2 ${section}: every query parameter is optional; a request without parameters is answered with a Bundle`,
    description:
      'A search naming no filter (nothing, or only page, count, _sort, _include or distinct-by) is refused with 400 MSG_MISSING_MANDATORY_PARAM.',
    operations: [operation],
    expectedCheck: 'success-status',
    rows: [row],
    reply: (reply, { request, operations }) =>
      isSuccess(reply) && [...request.query.keys()].every((k) => NOT_FILTERS.has(k))
        ? errorReply(
            new ApiError(400, 'MSG_MISSING_MANDATORY_PARAM', 'At least one search parameter is required'),
            operations,
          )
        : reply,
  };
}

/** A get answered with the bare resource instead of a Bundle holding it (a FHIR read's habit). */
function getAnswersBareResource(name: string, operation: string, section: string, row: string): RowFault {
  return {
    name,
    kind: 'shape',
    rule: `D2 2.3, ${section}: get and search both return a Bundle`,
    description: 'The get answers 200 with the resource itself, not a searchset Bundle holding it.',
    operations: [operation],
    expectedCheck: 'matches-schema',
    rows: [row],
    reply: (reply) => {
      const [only] = isSuccess(reply) ? resourcesOf(reply.body) : [];
      return only ? withBody(reply, only) : reply;
    },
  };
}

/** A lookup answered with a JSON array of its resources instead of a Bundle (a drop-down's list). */
function lookupAnswersArray(name: string, operation: string, section: string, row: string): RowFault {
  return {
    name,
    kind: 'shape',
    rule: `D2 2.3, ${section}: the response is a Bundle of lookup entries`,
    description: 'The lookup answers 200 with a bare JSON array of its resources, without the Bundle around them.',
    operations: [operation],
    expectedCheck: 'matches-schema',
    rows: [row],
    reply: (reply) =>
      isSuccess(reply) && isObject(reply.body) && reply.body.resourceType === 'Bundle'
        ? withBody(reply, resourcesOf(reply.body))
        : reply,
  };
}

/**
 * A search reading one filter as another (a column mapped wrong): the value of `from` is compared
 * with what `to` filters on. The value the suite sends, taken from a returned record, then keeps
 * no record or the wrong ones.
 */
function filterReadAs(
  operation: string,
  from: string,
  to: string,
  section: string,
  row: string,
  expectedCheck: 'bundle-has-entries' | 'entries-match-filter',
): RowFault {
  const who = operation === 'search-register-practitioners' ? 'register' : 'role';
  return {
    name: `${who}-${from}-filter-read-as-${to}`,
    kind: 'filter',
    rule: `D2 ${section} / DEC-D2-21: ${from} keeps the records whose ${from} matches`,
    description: `The search compares the value of \`${from}\` with what \`${to}\` filters on (a filter mapped to the wrong member).`,
    operations: [operation],
    expectedCheck,
    rows: [row],
    request: (req) => {
      const value = parameterOf(req, from);
      if (value === undefined) return req;
      const query = new URLSearchParams(req.query);
      query.delete(from);
      query.set(to, value);
      return { ...req, query };
    },
  };
}

/** `is-onlinebooking-available` read reversed: true keeps the practitioners without online booking. */
function bookableFilterReversed(operation: string, section: string, row: string): RowFault {
  const who = operation === 'search-register-practitioners' ? 'register' : 'role';
  return {
    name: `${who}-onlinebooking-filter-reversed`,
    kind: 'filter',
    rule: `D2 ${section} / DEC-D2-21: is-onlinebooking-available=true keeps the practitioners whose onlineBookingStatus is true`,
    description:
      '`is-onlinebooking-available=true` keeps the practitioners without online booking, and `false` those with it.',
    operations: [operation],
    expectedCheck: 'entries-match-filter',
    rows: [row],
    request: (req) => {
      const value = parameterOf(req, 'is-onlinebooking-available')?.trim().toLowerCase();
      if (value !== 'true' && value !== 'false') return req;
      const query = new URLSearchParams(req.query);
      query.set('is-onlinebooking-available', value === 'true' ? 'false' : 'true');
      return { ...req, query };
    },
  };
}

/**
 * A lookup that does not read `text` (4.2, 4.3, DEC-D2-07): every record is answered whatever the
 * text (and a request without it is served too, the parameter being unknown to it).
 */
function lookupTextNotApplied(operation: string, section: string, row: string, records: string): RowFault {
  const who = operation === 'lookup-practitioners' ? 'practitioner' : 'location';
  return {
    name: `${who}-lookup-text-not-applied`,
    kind: 'filter',
    rule: `D2 ${section} / DEC-D2-07: every returned ${records} matches the search text`,
    description: `The ${who} lookup does not read \`text\`: it answers every ${records} it holds${who === 'location' ? ' (of the `type` asked for)' : ''}, whatever the text, and serves a request without it.`,
    operations: [operation],
    expectedCheck: 'entries-match-filter',
    rows: [row],
    served: (op) =>
      op.id !== operation
        ? op
        : { ...op, parameters: op.parameters.map((p) => (p.name === 'text' ? { ...p, required: false } : p)) },
    request: (req) => {
      if (!req.query.has('text')) return req;
      const query = new URLSearchParams(req.query);
      query.delete('text');
      return { ...req, query };
    },
  };
}

/** The reply's paging tags (`meta.tag`, codes `page` / `count`) rewritten. */
function withPagingTags(reply: SandboxReply, values: Record<string, (display: string) => string>): SandboxReply {
  const body = reply.body;
  if (!isObject(body) || !isObject(body.meta) || !Array.isArray(body.meta.tag)) return reply;
  const tag = body.meta.tag.map((t) => {
    if (!isObject(t) || typeof t.code !== 'string' || values[t.code] === undefined) return t;
    return { ...t, display: values[t.code](String(t.display)) };
  });
  return withBody(reply, { ...body, meta: { ...body.meta, tag } });
}

const positive = (v: string | undefined): number | undefined =>
  v !== undefined && /^[1-9]\d{0,5}$/.test(v.trim()) ? Number(v) : undefined;

/**
 * A search whose page ends one record late (an inclusive slice end): page n of count c holds the
 * records (n-1)*c+1 .. n*c+1, one more than asked, the last of each page again first on the next.
 * The paging tags still echo the request. Unlike the families (page or count ignored, pages
 * shifted) the start of each page is right.
 */
function pageEndInclusive(name: string, operation: string, section: string, row: string): RowFault {
  return {
    name,
    kind: 'paging',
    rule: `D2 2.1, ${section} / DEC-D2-27: page and count page the result; a page holds at most count entries`,
    description:
      'Page n of `count` c holds the records (n-1)c+1 to nc+1 (the slice end taken inclusively): one more than asked, the last record of each page again first on the next; the tags echo the request.',
    operations: [operation],
    expectedCheck: 'page-within-count',
    rows: [row],
    request: (req) => {
      const page = positive(parameterOf(req, 'page')) ?? 1;
      const count = positive(parameterOf(req, 'count'));
      if (count === undefined) return req;
      const query = new URLSearchParams(req.query);
      query.set('page', '1');
      query.set('count', String(page * count + 1));
      return { ...req, query };
    },
    reply: (reply, { received }) => {
      const page = positive(parameterOf(received, 'page')) ?? 1;
      const count = positive(parameterOf(received, 'count'));
      const body = reply.body;
      if (!isSuccess(reply) || count === undefined || !isObject(body) || !Array.isArray(body.entry)) return reply;
      const entry = body.entry.slice((page - 1) * count, page * count + 1);
      return withPagingTags(withBody(reply, { ...body, entry }), {
        page: () => String(page),
        count: () => String(count),
      });
    },
  };
}

/** A handler that dereferences what a request leaves out, or cannot parse: HTTP 500 for that request only. */
function crashesWhen(
  name: string,
  operation: string,
  rule: string,
  description: string,
  row: string,
  when: (req: SandboxRequest) => boolean,
  what: string,
): RowFault {
  return {
    name,
    kind: 'server-error',
    rule,
    description,
    operations: [operation],
    expectedCheck: 'not-server-error',
    rows: [row],
    reply: (reply, { received, operations }) => (when(received) ? crash(what, operations) : reply),
  };
}

/**
 * A search-text operation (7, DEC-D2-07) that answers a request without its search parameter
 * otherwise than HTTP 400: `answer` gives the reply.
 */
function missingSearchParameter(
  name: string,
  operation: string,
  parameter: string,
  row: string,
  what: string,
  answer: (operations: readonly string[]) => SandboxReply,
): RowFault {
  return {
    name,
    kind: 'validation',
    rule: `D2 7 / DEC-D2-07: a request without \`${parameter}\` is answered HTTP 400`,
    description: `A request without \`${parameter}\` is ${what}.`,
    operations: [operation],
    expectedCheck: 'status-is',
    rows: [row],
    reply: (reply, { received, operations }) =>
      parameterOf(received, parameter) === undefined && reply.status === 400 ? answer(operations) : reply,
  };
}

/** A UK postcode's shape (outward and inward codes). */
const POSTCODE = /^[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}$/i;

/**
 * The register and booking searches' values that fail their documented form or list (7,
 * DEC-D2-30, DEC-D2-58): an empty value, a malformed `near` or unit, a Boolean other than true or
 * false, a page or count that is no positive integer, a `_sort`, `_include` or `distinct-by`
 * outside its list.
 */
const NEAR = /^-?\d+(\.\d+)?:-?\d+(\.\d+)?(:\d+(\.\d+)?(:(km|mi|m))?)?$/;
const LISTS: Record<string, readonly string[]> = {
  _sort: ['distance:asc', 'distance:desc', 'name:asc', 'name:desc'],
  _include: ['practitioner:location'],
  'distinct-by': ['practitioner', 'location'],
};
function invalidValue(name: string, value: string): boolean {
  const v = value.trim();
  if (v === '') return true;
  if (name === 'near') return !NEAR.test(v);
  if (name === 'page' || name === 'count') return positive(v) === undefined;
  if (name === 'is-onlinebooking-available') return !['true', 'false'].includes(v.toLowerCase());
  const list = LISTS[name];
  return list !== undefined && !list.includes(v);
}

/**
 * A search that skips validation: every value failing its form or list is dropped before the
 * handler, which serves the rest (a lenient parser), instead of refusing with a documented code.
 */
function lenientSearch(
  name: string,
  operations: readonly string[],
  section: string,
  rows: readonly string[],
): RowFault {
  return {
    name,
    kind: 'validation',
    rule: `D2 7 ${section} / DEC-D2-30, DEC-D2-58: a malformed, empty or unlisted value is refused with a documented code`,
    description:
      'Malformed, empty and unlisted values (`near`, its unit, Booleans, `page`, `count`, `_sort`, `_include`, `distinct-by`, an empty filter) are dropped before the search, which is answered 200 without them.',
    operations: [...operations],
    expectedCheck: 'error-status-and-code',
    rows,
    request: (req) => {
      const bad = [...req.query.entries()].filter(([k, v]) => invalidValue(k, v)).map(([k]) => k);
      if (bad.length === 0) return req;
      const query = new URLSearchParams(req.query);
      for (const k of bad) query.delete(k);
      return { ...req, query };
    },
  };
}

export const D2_ROW_FAULTS: readonly RowFault[] = [
  // --- Code sets (2.2, 4.1) ---
  codeSetNotServed('service-category', 'ISC', 'D2-2.2-09'),
  codeSetNotServed('service-type', 'ISC', 'D2-2.2-10'),
  codeSetNotServed('procedure-code', 'CCSD', 'D2-2.2-11'),
  codeSetNotServed('condition-code', 'ICD10', 'D2-2.2-13'),
  codeSetNotServed('condition-code', 'ICD9', 'D2-2.2-14'),
  codeSetNotServed('practitioner-role', undefined, 'D2-2.2-15'),
  codeSetNotServed('practitioner-specialty', undefined, 'D2-2.2-16'),
  codeSetNotServed('practitioner-subspecialty', undefined, 'D2-2.2-17'),
  {
    name: 'code-set-scheme-required',
    kind: 'validation',
    rule: 'D2 4.1 / DEC-D2-02: the scheme is optional; {codes_valueset_namespace}/{set_name} is served',
    description: 'A code-set request without a scheme segment is answered 404 MSG_ENTITY_NOT_FOUND_IN_DATABASE.',
    operations: ['get-code-set'],
    expectedCheck: 'success-status',
    rows: ['D2-4.1-02'],
    reply: (reply, { request, operations }) =>
      isSuccess(reply) && request.params.scheme === undefined
        ? errorReply(
            new ApiError(404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE', `No code set ${request.params.set_name ?? ''}`),
            operations,
          )
        : reply,
  },
  {
    name: 'code-set-count-required',
    kind: 'validation',
    rule: 'D2 4.1: page and count are optional; a request without them is served',
    description: 'A code-set request without `count` is refused with 400 MSG_MISSING_MANDATORY_PARAM.',
    operations: ['get-code-set'],
    expectedCheck: 'success-status',
    rows: ['D2-4.1-06'],
    reply: (reply, { request, operations }) =>
      isSuccess(reply) && parameterOf(request, 'count') === undefined
        ? errorReply(new ApiError(400, 'MSG_MISSING_MANDATORY_PARAM', 'count is required'), operations)
        : reply,
  },
  {
    name: 'code-set-as-code-system',
    kind: 'shape',
    rule: 'D2 1, 2.2, 4.1: code sets are served as value sets (ValueSet resources with an expansion)',
    description:
      'Code sets are answered as a FHIR CodeSystem: the codes in `concept[]` (code and display), no `expansion`.',
    operations: ['get-code-set'],
    expectedCheck: 'matches-schema',
    rows: ['D2-4.1-15', 'D2-1-01'],
    reply: (reply) => {
      if (!isSuccess(reply) || !isObject(reply.body) || reply.body.resourceType !== 'ValueSet') return reply;
      const { expansion, ...rest } = reply.body;
      const contains = isObject(expansion) ? arr(expansion.contains).filter(isObject) : [];
      return withBody(reply, {
        ...rest,
        resourceType: 'CodeSystem',
        content: 'complete',
        concept: contains.map((c) => ({ code: c.code, display: c.display })),
      });
    },
  },

  // --- Lookups and insurers (2.3, 4.2-4.5) ---
  lookupAnswersArray('practitioner-lookup-bare-array', 'lookup-practitioners', '4.2', 'D2-4.2-05'),
  lookupAnswersArray('location-lookup-bare-array', 'lookup-locations', '4.3', 'D2-4.3-06'),
  lookupTextNotApplied('lookup-practitioners', '4.2', 'D2-4.2-02', 'practitioner'),
  lookupTextNotApplied('lookup-locations', '4.3', 'D2-4.3-02', 'location'),
  {
    name: 'location-lookup-type-p-refused',
    kind: 'validation',
    rule: 'D2 4.3 / DEC-D2-47: type=P (the example value) is accepted',
    description: 'The location lookup refuses `type=P` with 422 MSG_PARAM_INVALID (it knows other type codes only).',
    operations: ['lookup-locations'],
    expectedCheck: 'success-status',
    rows: ['D2-4.3-03'],
    reply: (reply, { request, operations }) =>
      isSuccess(reply) && same(parameterOf(request, 'type'), 'P')
        ? errorReply(new ApiError(422, 'MSG_PARAM_INVALID', 'Unknown location type P'), operations)
        : reply,
  },
  {
    name: 'insurer-list-all-omits-mii',
    kind: 'relation',
    rule: 'D2 4.4 / DEC-D2-08: the type=edi and type=mii results are subsets of type=all',
    description: '`type=all` (and the list without `type`) leaves out the medical-indemnity (MII) insurers.',
    operations: ['list-insurers'],
    expectedCheck: 'filtered-subset',
    rows: ['D2-4.4-04'],
    reply: (reply, { request }) => {
      const type = parameterOf(request, 'type');
      if (!isSuccess(reply) || !isObject(reply.body) || (type !== undefined && !same(type, 'all'))) return reply;
      const isMii = (e: unknown) =>
        isObject(e) &&
        isObject(e.resource) &&
        arr(e.resource.extension).some(
          (x) => isObject(x) && String(x.url).endsWith('/insurerType') && x.valueString === 'MII',
        );
      const entry = arr(reply.body.entry).filter((e) => !isMii(e));
      return withBody(reply, { ...reply.body, entry, total: entry.length });
    },
  },
  {
    name: 'insurer-edi-as-true-false',
    kind: 'value',
    rule: 'D2 2.3: insurer extension edi has the value Yes or No',
    description: 'The insurer extension `edi` reads `true` or `false` instead of `Yes` or `No`.',
    operations: ['list-insurers'],
    expectedCheck: 'matches-schema',
    rows: ['D2-2.3-13'],
    reply: (reply) =>
      isSuccess(reply)
        ? withBody(
            reply,
            withExtensionValue(reply.body, 'edi', (e) => ({
              ...e,
              valueString: e.valueString === 'Yes' ? 'true' : 'false',
            })),
          )
        : reply,
  },
  {
    name: 'insurer-type-spelled-out',
    kind: 'value',
    rule: 'D2 2.3: insurer extension insurerType has the value MII or PMI',
    description:
      'The insurer extension `insurerType` reads its meaning (`Medical indemnity`, `Private medical`) instead of MII or PMI.',
    operations: ['list-insurers'],
    expectedCheck: 'matches-schema',
    rows: ['D2-2.3-12'],
    reply: (reply) =>
      isSuccess(reply)
        ? withBody(
            reply,
            withExtensionValue(reply.body, 'insurerType', (e) => ({
              ...e,
              valueString: e.valueString === 'MII' ? 'Medical indemnity' : 'Private medical',
            })),
          )
        : reply,
  },
  {
    name: 'control-parameters-unknown-insurer-server-error',
    kind: 'server-error',
    rule: 'D2 4.5 / DEC-D2-09: an unknown insurer id is not answered with a 5xx status',
    description:
      'Insurer control parameters for an insurer id the server does not hold answer HTTP 500 MSG_INTERNAL_ERROR.',
    operations: ['get-insurer-control-parameters'],
    expectedCheck: 'not-server-error',
    rows: ['D2-4.5-04'],
    reply: async (reply, { request, repo, operations }) => {
      const id = parameterOf(request, 'insurerId');
      if (!isSuccess(reply) || id === undefined) return reply;
      const known = (await repo.referenceInsurers()).some((i) => same(id, i.id));
      return known ? reply : crash(`Cannot read properties of undefined (reading 'controlParameters')`, operations);
    },
  },

  // --- Address (4.6, 4.7) ---
  {
    name: 'address-search-wrapped-in-object',
    kind: 'shape',
    rule: 'D2 2.3, 4.6: the address search answers a JSON array of search items',
    description: 'The address search answers `{"items": [...]}` instead of the bare array of items.',
    operations: ['search-address'],
    expectedCheck: 'matches-schema',
    rows: ['D2-4.6-02'],
    reply: (reply) =>
      reply.status === 200 && Array.isArray(reply.body) ? withBody(reply, { items: reply.body }) : reply,
  },
  {
    name: 'address-search-content-type-text-plain',
    kind: 'media-type',
    rule: 'D2 1 / DEC-D2-26: every response body is JSON with a JSON media type',
    description: 'The address search serves its JSON body with Content-Type text/plain.',
    operations: ['search-address'],
    expectedCheck: 'content-type-is-json',
    rows: ['D2-1-09'],
    wire: (wire) =>
      wire.payload === undefined
        ? wire
        : { ...wire, headers: { ...wire.headers, 'content-type': 'text/plain; charset=utf-8' } },
  },
  {
    name: 'retrieve-address-unknown-id-server-error',
    kind: 'server-error',
    rule: 'D2 4.7 / DEC-D2-50: an unknown id is not answered with a 5xx status',
    description: 'Retrieve address with an id the server does not hold answers HTTP 500 MSG_INTERNAL_ERROR.',
    operations: ['retrieve-address'],
    expectedCheck: 'not-server-error',
    rows: ['D2-4.7-05'],
    reply: async (reply, { request, repo, operations }) => {
      const id = parameterOf(request, 'id');
      if (!isSuccess(reply) || id === undefined) return reply;
      const known = (await repo.addressItems()).some((i) => i.key === id);
      return known ? reply : crash(`Cannot read properties of undefined (reading 'address')`, operations);
    },
  },

  // --- Register (2.3, 3, 4.9-4.11) ---
  searchRequiresFilter(
    'register-practitioner-search-requires-filter',
    'search-register-practitioners',
    '4.9',
    'D2-4.9-01',
  ),
  searchRequiresFilter(
    'register-role-search-requires-filter',
    'search-register-practitioner-roles',
    '4.11',
    'D2-4.11-01',
  ),
  {
    name: 'register-search-defaults-to-bookable',
    kind: 'relation',
    rule: 'D2 4.9 / DEC-D2-52: is-onlinebooking-available=false gives a subset of the unfiltered result',
    description:
      'Without `is-onlinebooking-available` the register practitioner search keeps only practitioners with online booking (as if true were the default).',
    operations: ['search-register-practitioners'],
    expectedCheck: 'filtered-subset',
    rows: ['D2-4.9-14'],
    request: (req) => {
      if (parameterOf(req, 'is-onlinebooking-available') !== undefined) return req;
      const query = new URLSearchParams(req.query);
      query.set('is-onlinebooking-available', 'true');
      return { ...req, query };
    },
  },
  {
    name: 'recognition-status-display-wrong',
    kind: 'value',
    rule: 'D2 3 / DEC-D2-46: recognition status Y is shown as Recognised',
    description: 'A `recognitionstatus` coding with code Y displays `Approved` instead of `Recognised`.',
    operations: ['search-register-practitioners'],
    expectedCheck: 'entries-match-filter',
    rows: ['D2-3-02'],
    reply: (reply) =>
      isSuccess(reply)
        ? withBody(
            reply,
            withExtensionValue(reply.body, 'recognitionstatus', (e) => {
              const cc = e.valueCodeableConcept;
              if (!isObject(cc)) return e;
              const coding = arr(cc.coding).map((c) =>
                isObject(c) && c.code === 'Y' ? { ...c, display: 'Approved' } : c,
              );
              return { ...e, valueCodeableConcept: { ...cc, coding } };
            }),
          )
        : reply,
  },
  {
    name: 'registration-date-iso',
    kind: 'value',
    rule: 'D2 2.3 / DEC-D2-45: registrationdate is a String DD.MM.YYYY',
    description: 'The nested `registrationdate` reads YYYY-MM-DD instead of DD.MM.YYYY.',
    operations: ['search-register-practitioners'],
    expectedCheck: 'matches-schema',
    rows: ['D2-2.3-35'],
    reply: (reply) =>
      isSuccess(reply)
        ? withBody(
            reply,
            withExtensionValue(reply.body, 'registrationdate', (e) => {
              const m = typeof e.valueString === 'string' ? /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(e.valueString) : null;
              return m ? { ...e, valueString: `${m[3]}-${m[2]}-${m[1]}` } : e;
            }),
          )
        : reply,
  },
  {
    name: 'recognition-status-as-string',
    kind: 'value',
    rule: 'D2 2.3 / DEC-D2-46: the nested recognitionstatus is a coding',
    description: 'The nested `recognitionstatus` is a bare `valueString` (Y, N, P) instead of a coding.',
    operations: ['search-register-practitioners'],
    expectedCheck: 'matches-schema',
    rows: ['D2-2.3-36'],
    reply: (reply) =>
      isSuccess(reply)
        ? withBody(
            reply,
            withExtensionValue(reply.body, 'recognitionstatus', (e) => {
              const cc = e.valueCodeableConcept;
              const [coding] = isObject(cc) ? arr(cc.coding) : [];
              if (!isObject(coding)) return e;
              const { valueCodeableConcept: _, ...rest } = e;
              return { ...rest, valueString: coding.code };
            }),
          )
        : reply,
  },
  {
    name: 'photo-keyed-by-regulator-reference',
    kind: 'wrong-record',
    rule: 'D2 4.9, 4.10: the photo is addressed by `{get_practitionerphoto_endpoint}/{practitioner.id}` with the id 4.9 returns',
    description:
      "The photo endpoint looks the practitioner up by the regulator reference of its registration (the `regulatorreference` of 4.9's `registrationnumbers`), not by the `id` 4.9 returns: a register id is refused 422 MSG_REFERENCE_ID_NOT_FOUND, a regulator reference answers that practitioner's photo.",
    // The photo step finds its practitioner by 4.9 first: the target shows it holds the id.
    operations: ['get-practitioner-photo'],
    expectedCheck: 'success-status',
    rows: ['D2-4.10-01'],
    request: async (req, { operations, repo }) => {
      if (!operations.includes('get-practitioner-photo') || req.params.practitionerId === undefined) return req;
      const asked = req.params.practitionerId;
      const byReference = (await repo.registerPractitioners()).find((p) => same(asked, p.regulator.reference));
      return { ...req, params: { ...req.params, practitionerId: byReference?.id ?? `regulator-reference:${asked}` } };
    },
  },
  {
    name: 'photo-as-binary',
    kind: 'shape',
    rule: 'D2 2.3, 4.10: the photo is answered as a Parameters resource',
    description: 'The profile photo is answered as a FHIR Binary (`contentType`, `data`), not a Parameters resource.',
    operations: ['get-practitioner-photo'],
    expectedCheck: 'matches-schema',
    rows: ['D2-4.10-02'],
    reply: (reply) => {
      if (!isSuccess(reply) || !isObject(reply.body) || reply.body.resourceType !== 'Parameters') return reply;
      const attachment = arr(reply.body.parameter)
        .map((p) => (isObject(p) && isObject(p.valueAttachment) ? p.valueAttachment : undefined))
        .find((a) => a !== undefined);
      return attachment
        ? withBody(reply, {
            resourceType: 'Binary',
            id: reply.body.id,
            contentType: attachment.contentType,
            data: attachment.data,
          })
        : reply;
    },
  },

  {
    name: 'distance-sort-from-swapped-point',
    kind: 'sort',
    rule: 'D2 4.11 / DEC-D2-16: _sort=distance orders the roles by distance from the near point',
    description:
      '`_sort=distance:asc|desc` orders each page by the distance from the `near` point with latitude and longitude swapped (the filter itself is right).',
    operations: ['search-register-practitioner-roles'],
    expectedCheck: 'entries-sorted',
    rows: ['D2-4.11-22', 'D2-4.11-23'],
    reply: async (reply, { request, repo }) => {
      const [key, direction] = (parameterOf(request, '_sort') ?? '').trim().split(':');
      const [lat, lon] = (parameterOf(request, 'near') ?? '').split(':').map(Number);
      if (!isSuccess(reply) || !isObject(reply.body) || key !== 'distance' || !Number.isFinite(lat + lon)) return reply;
      const swapped = { latitude: lon, longitude: lat };
      const locations = new Map((await repo.locations()).map((l) => [`Location/${l.id}`, l.position]));
      const distance = (e: unknown): number => {
        const role = isObject(e) && isObject(e.resource) ? e.resource : {};
        const at = arr(role.location)
          .map((l) => (isObject(l) ? locations.get(String(l.reference)) : undefined))
          .filter((p) => p !== undefined);
        return at.length ? Math.min(...at.map((p) => distanceKm(swapped, p))) : Number.POSITIVE_INFINITY;
      };
      const entries = arr(reply.body.entry);
      const isRole = (e: unknown) =>
        isObject(e) && isObject(e.resource) && e.resource.resourceType === 'PractitionerRole';
      const sign = direction === 'desc' ? -1 : 1;
      const roles = entries.filter(isRole).sort((a, b) => sign * (distance(a) - distance(b)));
      return withBody(reply, { ...reply.body, entry: [...roles, ...entries.filter((e) => !isRole(e))] });
    },
  },

  bookableFilterReversed('search-register-practitioners', '4.9', 'D2-4.9-13'),
  bookableFilterReversed('search-register-practitioner-roles', '4.11', 'D2-4.11-16'),
  filterReadAs('search-register-practitioners', 'profession', 'specialty', '4.9', 'D2-4.9-04', 'bundle-has-entries'),
  filterReadAs('search-register-practitioners', 'specialty', 'subspecialty', '4.9', 'D2-4.9-05', 'bundle-has-entries'),
  filterReadAs('search-register-practitioners', 'subspecialty', 'specialty', '4.9', 'D2-4.9-06', 'bundle-has-entries'),
  filterReadAs(
    'search-register-practitioners',
    'insurer-recognition-status',
    'insurer',
    '4.9',
    'D2-4.9-07',
    'bundle-has-entries',
  ),
  filterReadAs(
    'search-register-practitioners',
    'insurer-provider-number',
    'regulator-reference',
    '4.9',
    'D2-4.9-08',
    'bundle-has-entries',
  ),
  filterReadAs(
    'search-register-practitioners',
    'insurer',
    'insurer-provider-number',
    '4.9',
    'D2-4.9-09',
    'bundle-has-entries',
  ),
  filterReadAs(
    'search-register-practitioners',
    'regulator-reference',
    'insurer-provider-number',
    '4.9',
    'D2-4.9-15',
    'bundle-has-entries',
  ),
  filterReadAs(
    'search-register-practitioner-roles',
    'ages-treated',
    'specialty',
    '4.11',
    'D2-4.11-05',
    'bundle-has-entries',
  ),
  filterReadAs(
    'search-register-practitioner-roles',
    'subspecialty',
    'specialty',
    '4.11',
    'D2-4.11-14',
    'bundle-has-entries',
  ),
  filterReadAs(
    'search-register-practitioner-roles',
    'profession',
    'specialty',
    '4.11',
    'D2-4.11-15',
    'bundle-has-entries',
  ),

  // --- Booking (4.12, 4.13) ---
  {
    name: 'booking-practitioner-get-other-record',
    kind: 'wrong-record',
    rule: 'D2 4.12 / DEC-D2-23: a get returns the Booking Practitioner whose booking_identifier is the requested id',
    description:
      'Get booking practitioner answers the next practitioner of the list (by id) instead of the one asked for.',
    operations: ['get-booking-practitioner'],
    expectedCheck: 'single-entry-with-id',
    rows: ['D2-4.12-02'],
    request: async (req, { repo }) => {
      const all = (await repo.bookingPractitioners()).map((p) => p.id).sort();
      const k = all.indexOf(req.params.practitionerId ?? '');
      return k < 0 ? req : { ...req, params: { ...req.params, practitionerId: all[(k + 1) % all.length] } };
    },
  },
  getAnswersBareResource('booking-practitioner-get-bare-resource', 'get-booking-practitioner', '4.12', 'D2-4.12-18'),
  getAnswersBareResource('booking-role-get-bare-resource', 'get-booking-practitioner-role', '4.13', 'D2-4.13-09'),
  searchRequiresFilter(
    'booking-practitioner-search-requires-filter',
    'search-booking-practitioners',
    '4.12',
    'D2-4.12-04',
  ),
  searchRequiresFilter(
    'booking-role-search-requires-filter',
    'search-booking-practitioner-roles',
    '4.13',
    'D2-4.13-04',
  ),

  // --- Paging, page sizes, answers that must not be 5xx, refusals (wave 2) ---
  {
    name: 'code-set-page-size-bounds-exclusive',
    kind: 'validation',
    rule: 'D2 4.1, 8 / DEC-D2-03: count=1 and count=1000 (the bounds of 1 to 1,000) are served',
    description:
      'The code-set page-size check excludes its bounds: `count=1` and `count=1000` are refused with 400 MSG_INVALID_FORMAT (2 to 999 are served).',
    operations: ['get-code-set'],
    expectedCheck: 'success-status',
    rows: ['D2-4.1-07', 'D2-4.1-08'],
    reply: (reply, { request, operations }) => {
      const count = parameterOf(request, 'count')?.trim();
      return isSuccess(reply) && (count === '1' || count === '1000')
        ? errorReply(new ApiError(400, 'MSG_INVALID_FORMAT', 'count must be between 1 and 1000'), operations)
        : reply;
    },
  },
  {
    name: 'code-set-oversized-count-served-empty',
    kind: 'paging',
    rule: 'D2 4.1, 8 / DEC-D2-03: count=1001 is refused with a 4xx or served clamped into 1 to 1,000',
    description:
      'A code-set `count` above 1,000 is read as 0: the answer is 200 with an empty expansion (`total` kept), neither refused nor clamped.',
    operations: ['get-code-set'],
    expectedCheck: 'code-set-page-size-bounded',
    rows: ['D2-4.1-10'],
    request: (req) => {
      const count = positive(parameterOf(req, 'count'));
      if (count === undefined || count <= 1000) return req;
      const query = new URLSearchParams(req.query);
      query.set('count', '1000');
      return { ...req, query };
    },
    reply: (reply, { received }) => {
      const count = positive(parameterOf(received, 'count'));
      const body = reply.body;
      if (!isSuccess(reply) || count === undefined || count <= 1000 || !isObject(body) || !isObject(body.expansion))
        return reply;
      return withBody(reply, { ...body, expansion: { ...body.expansion, contains: [] } });
    },
  },
  crashesWhen(
    'code-set-unknown-name-server-error',
    'get-code-set',
    'D2 4.1, 7 / DEC-D2-41: an unknown set name is not answered with a 5xx status',
    'A set name the server does not hold answers HTTP 500 MSG_INTERNAL_ERROR (its set is dereferenced unchecked); the documented sets are served.',
    'D2-4.1-14',
    (req) => !CODE_SET_NAMES.some((n) => same(req.params.set_name, n)),
    "Cannot read properties of undefined (reading 'items')",
  ),
  {
    name: 'location-lookup-page-tag-zero-based',
    kind: 'paging',
    rule: 'D2 2.1 / DEC-D2-27: the page tag equals the requested page (1-based)',
    description:
      'The location lookup serves the right page, but its `page` tag counts from 0 (page 1 is tagged 0, page 2 tagged 1).',
    operations: ['lookup-locations'],
    expectedCheck: 'paging-tags-match-request',
    rows: ['D2-2.1-09'],
    reply: (reply) =>
      isSuccess(reply) ? withPagingTags(reply, { page: (d) => (/^\d+$/.test(d) ? String(Number(d) - 1) : d) }) : reply,
  },
  pageEndInclusive('practitioner-lookup-page-end-inclusive', 'lookup-practitioners', '4.2', 'D2-4.2-04'),
  pageEndInclusive('location-lookup-page-end-inclusive', 'lookup-locations', '4.3', 'D2-4.3-05'),
  pageEndInclusive('register-practitioner-page-end-inclusive', 'search-register-practitioners', '4.9', 'D2-4.9-02'),
  pageEndInclusive('booking-practitioner-page-end-inclusive', 'search-booking-practitioners', '4.12', 'D2-4.12-17'),
  pageEndInclusive('booking-role-page-end-inclusive', 'search-booking-practitioner-roles', '4.13', 'D2-4.13-08'),
  crashesWhen(
    'control-parameters-missing-insurer-server-error',
    'get-insurer-control-parameters',
    'D2 4.5, 7 / DEC-D2-41: a request without insurerId is not answered with a 5xx status',
    'Insurer control parameters without `insurerId` answer HTTP 500 MSG_INTERNAL_ERROR (the id is read unchecked).',
    'D2-4.5-05',
    (req) => parameterOf(req, 'insurerId') === undefined,
    "Cannot read properties of undefined (reading 'trim')",
  ),
  crashesWhen(
    'geocode-unparsed-postcode-server-error',
    'geocode-postcode',
    'D2 4.8 / DEC-D2-51: geo-coding an invalid postcode is not answered with a 5xx status',
    'Geo-coding a `postcode` that is not of a UK postcode shape answers HTTP 500 MSG_INTERNAL_ERROR (the null match of its pattern is dereferenced); a request without it is still 400.',
    'D2-4.8-04',
    (req) => {
      const postcode = parameterOf(req, 'postcode');
      return postcode !== undefined && postcode.trim() !== '' && !POSTCODE.test(postcode.trim());
    },
    "Cannot read properties of null (reading '1')",
  ),
  missingSearchParameter(
    'address-search-missing-text-empty-array',
    'search-address',
    'text',
    'D2-7-05',
    'answered 200 with an empty array (the absent text read as a search matching nothing)',
    () => ({ status: 200, body: [] }),
  ),
  missingSearchParameter(
    'retrieve-address-missing-id-not-found',
    'retrieve-address',
    'id',
    'D2-7-06',
    'answered 404 MSG_NOT_FOUND (as an id no address has)',
    (operations) => errorReply(new ApiError(404, 'MSG_NOT_FOUND', 'No address with id undefined'), operations),
  ),
  missingSearchParameter(
    'geocode-missing-postcode-unprocessable',
    'geocode-postcode',
    'postcode',
    'D2-7-07',
    'answered 422 MSG_PARAM_INVALID (as a postcode of no valid form)',
    (operations) => errorReply(new ApiError(422, 'MSG_PARAM_INVALID', 'postcode is not valid'), operations),
  ),
  {
    name: 'photo-unknown-practitioner-placeholder',
    kind: 'validation',
    rule: 'D2 4.10 / DEC-D2-25, DEC-D2-29: an unknown practitioner id is refused with a 4xx status',
    description:
      "The photo of a practitioner id the register does not hold is answered 200 with a placeholder photo (another practitioner's picture, as a default avatar).",
    operations: ['get-practitioner-photo'],
    expectedCheck: 'request-refused',
    rows: ['D2-4.10-05'],
    request: async (req, { repo }) => {
      const asked = req.params.practitionerId;
      if (asked === undefined) return req;
      const all = await repo.registerPractitioners();
      if (all.some((p) => same(asked, p.id)) || all.length === 0) return req;
      return { ...req, params: { ...req.params, practitionerId: all[0].id } };
    },
  },
  crashesWhen(
    'role-distance-sort-without-near-server-error',
    'search-register-practitioner-roles',
    'D2 4.11 / DEC-D2-17: a distance sort without near is not answered with a 5xx status',
    '`_sort=distance:asc|desc` without `near` answers HTTP 500 MSG_INTERNAL_ERROR (the distance from an absent point is computed).',
    'D2-4.11-24',
    (req) => parameterOf(req, 'near') === undefined && /^distance(:|$)/.test((parameterOf(req, '_sort') ?? '').trim()),
    "Cannot read properties of undefined (reading 'latitude')",
  ),
  filterReadAs(
    'search-register-practitioner-roles',
    'insurer',
    'practitioner',
    '4.11',
    'D2-4.11-17',
    'bundle-has-entries',
  ),
  {
    name: 'booking-site-and-registeredno-filters-swapped',
    kind: 'filter',
    rule: 'D2 4.12 / DEC-D2-59: site keeps the practitioners of Site/<site>; registeredno those with that registeredNumber',
    description:
      'The booking practitioner search reads `site` as `location` and `registeredno` as `id` (two filters mapped to the wrong members).',
    operations: ['search-booking-practitioners'],
    expectedCheck: 'bundle-has-entries',
    rows: ['D2-4.12-09', 'D2-4.12-11'],
    request: (req) => {
      const site = parameterOf(req, 'site');
      const registered = parameterOf(req, 'registeredno');
      if (site === undefined && registered === undefined) return req;
      const query = new URLSearchParams(req.query);
      query.delete('site');
      query.delete('registeredno');
      if (site !== undefined) query.set('location', site);
      if (registered !== undefined) query.set('id', registered);
      return { ...req, query };
    },
  },
  {
    name: 'booking-role-get-unknown-empty-bundle',
    kind: 'validation',
    rule: 'D2 4.13, 7 / DEC-D2-23: an unknown practitioner-role id is refused 404 MSG_ENTITY_NOT_FOUND_IN_DATABASE',
    description:
      'Get booking practitioner-role with an id no role has answers 200 with an empty searchset Bundle (as a search that matched nothing).',
    operations: ['get-booking-practitioner-role'],
    expectedCheck: 'error-status-and-code',
    rows: ['D2-4.13-03'],
    reply: (reply) =>
      reply.status === 404
        ? { status: 200, body: { resourceType: 'Bundle', type: 'searchset', total: 0, entry: [] } }
        : reply,
  },
  lenientSearch(
    'register-search-lenient-parsing',
    ['search-register-practitioners', 'search-register-practitioner-roles'],
    '(4.9, 4.11)',
    ['D2-7-12', 'D2-7-13', 'D2-7-16'],
  ),
  lenientSearch(
    'booking-search-lenient-parsing',
    ['search-booking-practitioners', 'search-booking-practitioner-roles'],
    '(4.12, 4.13)',
    ['D2-7-21', 'D2-7-25'],
  ),
  {
    name: 'bearer-presence-only',
    kind: 'auth',
    rule: 'D2 5 / DEC-D2-61: a request with an unknown token is refused with a 4xx status',
    description:
      'The insurer list and the address search check only that a bearer token is present: an unknown token is served as a live one (a request without a token is still refused).',
    operations: ['list-insurers', 'search-address'],
    expectedCheck: 'request-refused',
    rows: ['D2-5-01', 'D2-5-02'],
    request: async (req, { repo }) => {
      const token = bearerOf(req);
      if (token === undefined || (await repo.accessGrant(token)) || (await repo.clientForToken(token))) return req;
      return {
        ...req,
        headers: { ...req.headers, authorization: `Bearer ${await repo.issueToken(DEFAULT_CLIENT_ID)}` },
      };
    },
  },
];
