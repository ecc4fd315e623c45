/**
 * Serialisation and protocol choices that JSON (RFC 8259), HTTP (RFC 9110) and the media types
 * leave free, for every operation: white space, member order, added members, media type
 * parameters, extra response headers.
 */
import type { Repository } from '../repo/repository.ts';
import { operations } from '../../spec/operations.ts';
import type { Variant } from './types.ts';
import { isObject, mapObjects, reverseMembers } from '../modifiers/json.ts';

const jsonPayload = (payload: string | undefined): unknown => {
  if (payload === undefined) return undefined;
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
};

/** GET requests seen per sandbox (its unwrapped repository), for load-shed-429. */
const shed = new WeakMap<Repository, number>();

/** The operations addressed under a base the documents name (`{claims_url}`, `{contracts_url}`). */
const BASED_OPERATIONS = operations.filter((o) => o.service === 'claims' || o.service === 'contracts').map((o) => o.id);

export const PROTOCOL_VARIANTS: readonly Variant[] = [
  {
    name: 'discovery-addresses-percent-encoded',
    kind: 'protocol',
    allowedBy: ['RFC 3986 2.1, 6.2.2.2 (a percent-encoded octet is equivalent to the character it encodes)'],
    description:
      'The claims and contracts discovery documents write the `$` of their addresses percent-encoded (`{claims_url}/claimresponse/%24batch`), the same path as the documents give.',
    operations: BASED_OPERATIONS,
    discovery: (reply, { service }) =>
      (service === 'claims' || service === 'contracts') && reply.status === 200 && isObject(reply.body)
        ? {
            ...reply,
            body: Object.fromEntries(
              Object.entries(reply.body).map(([k, v]) => [k, typeof v === 'string' ? v.replace(/\$/g, '%24') : v]),
            ),
          }
        : reply,
  },
  {
    name: 'json-pretty-printed',
    kind: 'serialisation',
    allowedBy: ['RFC 8259 2'],
    description: 'Every JSON answer is indented with two spaces and ends with a newline (insignificant white space).',
    operations: 'all',
    wire: (wire) => {
      const parsed = jsonPayload(wire.payload);
      return parsed === undefined ? wire : { ...wire, payload: `${JSON.stringify(parsed, null, 2)}\n` };
    },
  },
  {
    name: 'json-members-reversed',
    kind: 'serialisation',
    allowedBy: ['RFC 8259 4'],
    description: 'Every JSON object lists its members in reverse order (object members are unordered).',
    operations: 'all',
    wire: (wire) => {
      const parsed = jsonPayload(wire.payload);
      return parsed === undefined ? wire : { ...wire, payload: JSON.stringify(mapObjects(parsed, reverseMembers)) };
    },
  },
  {
    name: 'json-unicode-escaped',
    kind: 'serialisation',
    allowedBy: ['RFC 8259 7'],
    description: 'Every non-ASCII character and every "/" of a JSON string is written as a \\u escape.',
    operations: 'all',
    wire: (wire) =>
      wire.payload === undefined || jsonPayload(wire.payload) === undefined
        ? wire
        : {
            ...wire,
            payload: wire.payload.replace(
              /[\u007f-\uffff/]/g,
              (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
            ),
          },
  },
  {
    name: 'extra-members',
    kind: 'extension',
    allowedBy: ['schemas/README.md house rules (the documents name members and never forbid others)'],
    description:
      'Every JSON object of an answer carries an extra member `x-sandbox-note` the documents do not name (a target may add members).',
    operations: 'all',
    wire: (wire) => {
      const parsed = jsonPayload(wire.payload);
      if (parsed === undefined || wire.status >= 400) return wire;
      return {
        ...wire,
        payload: JSON.stringify(
          mapObjects(parsed, (o) =>
            isObject(o) && !('x-sandbox-note' in o) ? { ...o, 'x-sandbox-note': 'added by a variant' } : o,
          ),
        ),
      };
    },
  },
  {
    name: 'media-type-without-charset',
    kind: 'protocol',
    allowedBy: ['RFC 8259 11 (application/json defines no charset parameter)', 'DEC-D2-26'],
    description: 'Content-Type carries no charset parameter (`application/json`, `application/fhir+json`).',
    operations: 'all',
    wire: (wire) => {
      const ct = wire.headers['content-type'];
      return ct === undefined
        ? wire
        : { ...wire, headers: { ...wire.headers, 'content-type': ct.replace(/\s*;\s*charset=[^;]*/i, '') } };
    },
  },
  {
    name: 'media-type-upper-case',
    kind: 'protocol',
    allowedBy: ['RFC 9110 8.3.1 (type, subtype and parameter names are case-insensitive)'],
    description: 'Content-Type is written in upper case (`APPLICATION/JSON; CHARSET=UTF-8`).',
    operations: 'all',
    wire: (wire) => {
      const ct = wire.headers['content-type'];
      return ct === undefined ? wire : { ...wire, headers: { ...wire.headers, 'content-type': ct.toUpperCase() } };
    },
  },
  {
    name: 'cache-and-trace-headers',
    kind: 'protocol',
    allowedBy: ['RFC 9110 5 (a server may send further header fields)'],
    description: 'Every answer also carries `Cache-Control: no-store`, `X-Request-Id` and `Vary: Accept`.',
    operations: 'all',
    wire: (wire, { request }) => ({
      ...wire,
      headers: {
        ...wire.headers,
        'cache-control': 'no-store',
        'x-request-id': `req-${request.method}-${request.path.length}`,
        vary: 'Accept',
      },
    }),
  },
  {
    name: 'load-shed-429',
    kind: 'protocol',
    allowedBy: [
      'RFC 6585 4 (429 Too Many Requests, with Retry-After)',
      'DEC-R-05',
      'D1 8 ("Rate limits, maximum page size and maximum result size for these operations: not shown.")',
    ],
    description:
      'Like a gateway under load, every tenth GET is answered 429 Too Many Requests with `Retry-After: 0` (read requests only: a refused request must not have been acted on).',
    operations: 'all',
    wire: (wire, { request, repo }) => {
      if (request.method !== 'GET') return wire;
      const n = (shed.get(repo) ?? 0) + 1;
      shed.set(repo, n);
      return n % 10 === 1
        ? {
            status: 429,
            headers: { 'content-type': 'application/json', 'retry-after': '0' },
            payload: JSON.stringify({ error: 'too_many_requests' }),
          }
        : wire;
    },
  },
];
