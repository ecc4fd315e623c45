/**
 * HTTP freedoms a real server uses (RFC 9110): content negotiation, content coding, transient refusals, short pages (issue 30, items 2 and 7).
 * Each rests on a decision (DEC-R-06 to DEC-R-09) and is tolerated by the suite at every seed.
 * A refusal (503, 406) is given before the service acts: the handler then sees data that refuses
 * every call, so a refused request never changes what the sandbox holds.
 */
import { operations } from '../../spec/operations.ts';
import type { Repository } from '../repo/repository.ts';
import type { SandboxRequest, WireReply } from '../router/types.ts';
import type { Variant } from './types.ts';

/** Operations whose documented media type is `application/fhir+json` (their Content-Type row of the table). */
const FHIR_OPERATIONS = operations
  .filter((o) =>
    o.headers.some((h) => h.name.toLowerCase() === 'content-type' && h.value.toLowerCase() === 'application/fhir+json'),
  )
  .map((o) => o.id);

/** Requests a variant refuses before the handler acts on them (their answer is replaced on the wire). */
const refused = new WeakMap<SandboxRequest, WireReply>();

/**
 * The data a refused request's handler sees: every call throws, so nothing it asked for is done
 * (a gateway or a negotiating front refuses before the service acts).
 */
function untouchable(repo: Repository): Repository {
  return new Proxy(repo, {
    get: (target, name) =>
      typeof Reflect.get(target, name) === 'function'
        ? () => {
            throw new Error('refused before the service acted (a variant)');
          }
        : Reflect.get(target, name),
  });
}

/** Paths already answered, per sandbox (its unwrapped repository), for transient-503-once. */
const answeredPaths = new WeakMap<Repository, Set<string>>();

/** True when an Accept header admits `application/fhir+json` (absent: anything is acceptable, RFC 9110 12.5.1). */
function admitsFhirJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) return false;
    return type === 'application/fhir+json' || type === 'application/*' || type === '*/*';
  });
}

/** The largest page the page-size-capped-20 server serves. */
const PAGE_SIZE_CAP = 20;

/**
 * Paged operations whose page size the documents leave to the server (D1 8, D2 8, D3 8: "not
 * shown"): every one taking `count` (or `maxRecordsPerPage`), except the code sets, whose "Custom
 * page size 1 to 1,000" (D2 4.1) a server must honour.
 */
const CAPPED_OPERATIONS = operations
  .filter(
    (o) => o.id !== 'get-code-set' && o.parameters.some((p) => p.name === 'count' || p.name === 'maxRecordsPerPage'),
  )
  .map((o) => o.id);

/** The parameters with a page size above the cap brought down to it; undefined when none is. */
function capped(params: URLSearchParams): URLSearchParams | undefined {
  let changed = false;
  const out = new URLSearchParams();
  for (const [name, value] of params) {
    const big =
      (name === 'count' || name === 'maxRecordsPerPage') && /^\d+$/.test(value) && Number(value) > PAGE_SIZE_CAP;
    changed ||= big;
    out.append(name, big ? String(PAGE_SIZE_CAP) : value);
  }
  return changed ? out : undefined;
}

export const HTTP_FREEDOM_VARIANTS: readonly Variant[] = [
  {
    name: 'page-size-capped-20',
    kind: 'paging',
    allowedBy: [
      'DEC-R-06',
      'D1 8 ("Rate limits, maximum page size and maximum result size for these operations: not shown.")',
      'D1 4.3 (`count` is the "Maximum records per page")',
      'D3 8 ("Rate limits and page-size limits of these operations: not shown."), D2 8 (the same "of the other operations", all but the code sets)',
    ],
    description:
      'Every paged operation but the code sets (whose page size 1 to 1,000 is documented) serves at most 20 records per page: a larger `count` (or `maxRecordsPerPage`) is served as 20, and the paging tags say so (`count` tag 20, pages of 20, `maxCount` and `total` the number of matches).',
    operations: CAPPED_OPERATIONS,
    request: (request) => {
      const query = capped(request.query);
      const form = request.form ? capped(request.form) : undefined;
      if (query === undefined && form === undefined) return request;
      return {
        ...request,
        ...(query ? { query } : {}),
        ...(form ? { form, rawBody: form.toString() } : {}),
      };
    },
  },
  {
    name: 'transient-503-once',
    kind: 'protocol',
    allowedBy: [
      'DEC-R-07',
      'RFC 9110 15.6.4 (503: "the server is currently unable to handle the request due to a temporary overload or scheduled maintenance")',
      'D1 8, D2 8, D3 8 (rate limits: not shown)',
    ],
    description:
      'Like a gateway in front of the service, the first request to each address (path) is answered 503 Service Unavailable without Retry-After, before the service acts on it; every later request is served.',
    operations: 'all',
    repo: (repo, { request, repo: sandbox }) => {
      const seen = answeredPaths.get(sandbox) ?? new Set<string>();
      answeredPaths.set(sandbox, seen);
      if (seen.has(request.path)) return repo;
      seen.add(request.path);
      refused.set(request, {
        status: 503,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        payload: 'Service Unavailable: the upstream service is starting, try again',
      });
      return untouchable(repo);
    },
    wire: (wire, { request }) => refused.get(request) ?? wire,
  },
  {
    name: 'fhir-accept-only',
    kind: 'protocol',
    allowedBy: [
      'DEC-R-08',
      'D2 1 ("FHIR-style operations use `Content-Type: application/fhir+json`")',
      'RFC 9110 12.5.1, 15.5.7 (a server may answer 406 to an Accept it cannot satisfy)',
    ],
    description:
      'The FHIR-style operations (documented media type application/fhir+json) answer 406 Not Acceptable, before acting, to a request whose Accept names neither application/fhir+json nor a wildcard (`Accept: application/json`), and serve normally otherwise.',
    operations: FHIR_OPERATIONS,
    repo: (repo, { request, operations: served }) => {
      if (!served.some((o) => FHIR_OPERATIONS.includes(o)) || admitsFhirJson(request.headers.accept)) return repo;
      refused.set(request, {
        status: 406,
        headers: { 'content-type': 'application/fhir+json' },
        payload: JSON.stringify({
          resourceType: 'OperationOutcome',
          issue: [
            {
              severity: 'error',
              code: 'not-supported',
              diagnostics: `This operation serves application/fhir+json; Accept was ${request.headers.accept}`,
            },
          ],
        }),
      });
      return untouchable(repo);
    },
    wire: (wire, { request }) => refused.get(request) ?? wire,
  },
  {
    name: 'gzip-content-coding',
    kind: 'protocol',
    allowedBy: [
      'DEC-R-09',
      'RFC 9110 12.5.3 ("A request without any Accept-Encoding header field implies that the user agent has no preferences regarding content codings")',
    ],
    description:
      'Every answer with a body is sent with `Content-Encoding: gzip` when the request names no Accept-Encoding (or names gzip); the sandbox encodes the bytes as they go on the wire.',
    operations: 'all',
    wire: (wire, { received }) => {
      const asked = received.headers['accept-encoding'];
      if (wire.payload === undefined || (asked !== undefined && !/\bgzip\b|\*/i.test(asked))) return wire;
      return { ...wire, headers: { ...wire.headers, 'content-encoding': 'gzip', vary: 'Accept-Encoding' } };
    },
  },
];
