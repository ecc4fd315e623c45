/**
 * Part (a) of `pact check`: a partner's pact against the exported OpenAPI document of the family,
 * through PactFlow's openapi-pact-comparator (the library PactFlow's own bi-directional contract
 * testing uses): an unknown path or method, a request body, query or header the document does not
 * allow, a response status or body it does not allow. Each finding names the interaction it is
 * about (its index in the pact's `interactions`).
 */
import * as comparatorModule from '@pactflow/openapi-pact-comparator';
import { withVersionHeaderNames } from '../../certify/versionHeader.ts';
import { normaliseHeaders } from '../../core/clientRequest.ts';
import type { Repository } from '../../server/repo/repository.ts';
import { PATIENT_VERSION_HEADER } from '../../server/router/patients.ts';
import type { SandboxRequest } from '../../server/router/types.ts';
import type { Operation } from '../../spec/types.ts';
import { isObject, type PartnerPact } from '../readPact.ts';
import type { ResolvedRequest } from '../resolveOperation.ts';

/**
 * The library's own declarations import their siblings without file extensions, which NodeNext
 * resolution cannot follow; this is the part of its API used here (dist/src/results/index.d.ts).
 */
interface ComparatorResult {
  code: string;
  message: string;
  type: 'error' | 'warning' | 'info';
  mockDetails?: { location: string; value?: unknown };
  specDetails?: { location: string };
}
type ComparatorClass = new (
  oas: object,
) => {
  compare(pact: object): AsyncGenerator<ComparatorResult>;
};
const { Comparator } = comparatorModule as unknown as { Comparator: ComparatorClass };

export interface OpenApiFinding {
  /** Index of the interaction in the pact, when the finding names one. */
  interaction?: number;
  code: string;
  message: string;
  type: 'error' | 'warning' | 'info';
  /** Where in the pact (`[root].interactions[2].request.body`). */
  location?: string;
  /** Where in the OpenAPI document. */
  specLocation?: string;
  /** The value of the pact at that place, as the comparator quotes it. */
  value?: unknown;
}

const INDEX = /interactions\[(\d+)\]/;

export async function compareWithOpenApi(openapi: object, pact: Record<string, unknown>): Promise<OpenApiFinding[]> {
  const comparator = new Comparator(openapi);
  const findings: OpenApiFinding[] = [];
  for await (const r of comparator.compare(pact)) {
    const location = r.mockDetails?.location;
    const index = location ? INDEX.exec(location)?.[1] : undefined;
    findings.push({
      ...(index !== undefined ? { interaction: Number(index) } : {}),
      code: r.code,
      message: r.message,
      type: r.type,
      ...(location ? { location } : {}),
      ...(r.specDetails?.location ? { specLocation: r.specDetails.location } : {}),
      ...(r.mockDetails && 'value' in r.mockDetails ? { value: r.mockDetails.value } : {}),
    });
  }
  return findings;
}

/** Codes of the notes `documentedView` adds to a request's comparison (shown with it, never failed). */
export const BASE_PREFIX_NOTE = 'request.path.base-prefix';
export const VERSION_NAME_NOTE = 'request.header.version-name-open';

/** The version a certification workspace reads from these headers (certify/versionHeader.ts), if any. */
async function versionRead(operation: Operation, headers: Record<string, string>): Promise<string | undefined> {
  let request: SandboxRequest = {
    method: operation.method,
    path: '',
    query: new URLSearchParams(),
    headers,
    rawBody: '',
    params: {},
  };
  // The modifier reads the request's headers alone: it is handed no data.
  const scope = { operations: [operation.id], repo: undefined as unknown as Repository };
  for (const m of withVersionHeaderNames().for([operation.id]))
    if (m.request) request = await m.request(request, scope);
  return request.headers[PATIENT_VERSION_HEADER];
}

/**
 * The patients' version sent under another header name than `SVC-API-Version`, as a certification
 * workspace reads it (DEC-C-03: "a header of another name whose words include `version`"): the
 * header's name as the pact spells it and its value; undefined when `SVC-API-Version` is sent, when
 * no such header is, and for the other operations.
 */
export async function versionSentAs(
  operation: Operation,
  headers: Record<string, unknown>,
): Promise<{ name: string; value: string } | undefined> {
  const lowered = normaliseHeaders(headers);
  if ((lowered[PATIENT_VERSION_HEADER] ?? '').trim() !== '') return undefined;
  for (const [name, value] of Object.entries(headers)) {
    const text = normaliseHeaders({ [name]: value })[name.toLowerCase()];
    if (text === undefined || name.toLowerCase() === PATIENT_VERSION_HEADER) continue;
    const read = await versionRead(operation, { [name.toLowerCase()]: text });
    if (read !== undefined) return { name, value: read };
  }
  return undefined;
}

type Resolve = (
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
) => ResolvedRequest | undefined;

/**
 * The pact as the comparator is to read it, with a note on each reading (a warning of the request's
 * comparison: shown, never failed):
 * - a base the path carries before the operation's address is left out: "The address of each
 *   operation is read from a discovery document by a named key" (D1 1), so the base before a key's
 *   address is the provider's own, and the OpenAPI document's paths are the sandbox's addresses;
 * - a patient request's version sent under another header name is read as `SVC-API-Version`: "The
 *   name of the version-id header: not shown." (D3 4.4; DEC-C-03). Its value is still compared.
 * A path at no operation's address is left as it is: the comparator reports it.
 */
export async function documentedView(
  pact: PartnerPact,
  resolve: Resolve,
): Promise<{ raw: Record<string, unknown>; notes: OpenApiFinding[] }> {
  const raw = structuredClone(pact.raw);
  const notes: OpenApiFinding[] = [];
  const items = Array.isArray(raw.interactions) ? raw.interactions : [];
  for (const i of pact.interactions) {
    const request = isObject(items[i.index]) ? (items[i.index] as Record<string, unknown>).request : undefined;
    if (!isObject(request)) continue;
    const query =
      i.request.rawQuery ??
      new URLSearchParams(Object.entries(i.request.query ?? {}).flatMap(([k, vs]) => vs.map((v) => [k, v]))).toString();
    const headers = normaliseHeaders(i.request.headers);
    const resolved = resolve(i.request.method, `${i.request.path}${query ? `?${query}` : ''}`, headers, i.request.body);
    if (!resolved) continue;
    const op = resolved.operation;
    const path = String(request.path);
    if (resolved.base !== '' && path.startsWith(`${resolved.base}/`)) {
      request.path = path.slice(resolved.base.length);
      notes.push({
        interaction: i.index,
        code: BASE_PREFIX_NOTE,
        type: 'warning',
        message:
          `The path carries ${resolved.base} before the address of ${op.id} (key ${op.discoveryKey}); addresses ` +
          `are read from discovery documents by key (D1 1), so it is compared at ${String(request.path)}`,
        location: `[root].interactions[${i.index}].request.path`,
      });
    }
    const sent = isObject(request.headers) ? await versionSentAs(op, request.headers) : undefined;
    if (sent && isObject(request.headers)) {
      const { [sent.name]: _renamed, ...others } = request.headers;
      request.headers = { ...others, 'SVC-API-Version': sent.value };
      notes.push({
        interaction: i.index,
        code: VERSION_NAME_NOTE,
        type: 'warning',
        message:
          `The patients' version is sent as ${sent.name}: ${sent.value}, a header name the documents leave open ` +
          '(D3 4.4: "The name of the version-id header: not shown."); read as SVC-API-Version (DEC-C-03)',
        location: `[root].interactions[${i.index}].request.headers`,
      });
    }
  }
  return { raw, notes };
}
