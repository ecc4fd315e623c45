/**
 * The parameter part of a request, bucketed by where each parameter travels (Document 1,
 * section 4: form body for POST, query for GET; path placeholders of `pathSuffix`; Document 3,
 * 4.3: multipart fields). JSON bodies and headers are not parameters of this derivation (request
 * bodies have their own generators; headers come from the operation row and the config).
 */
import { formProblem } from '../spec/parameterFormats.ts';
import type { FeatureName, Operation, Parameter } from '../spec/types.ts';

/** Where a parameter of this derivation travels. */
export type ParameterBucket = 'path' | 'query' | 'form' | 'multipart';

/** The parameter values of one request; an absent parameter has no key. */
export interface ParameterRequest {
  operationId: string;
  path: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
  form: Readonly<Record<string, string>>;
  multipart: Readonly<Record<string, string>>;
}

const BUCKETS: readonly ParameterBucket[] = ['path', 'query', 'form', 'multipart'];

const isBucket = (where: Parameter['in']): where is ParameterBucket => (BUCKETS as readonly string[]).includes(where);

/** The operation's parameters this derivation generates (path, query, form and multipart ones). */
export function requestParameters(op: Operation): readonly Parameter[] {
  return op.parameters.filter((p) => isBucket(p.in));
}

/** A request from parameter values by name (undefined = absent), each put in its parameter's bucket. */
export function parameterValueRequest(
  op: Operation,
  values: Readonly<Record<string, string | undefined>>,
): ParameterRequest {
  const buckets: Record<ParameterBucket, Record<string, string>> = { path: {}, query: {}, form: {}, multipart: {} };
  for (const p of requestParameters(op)) {
    const v = values[p.name];
    if (v !== undefined && isBucket(p.in)) buckets[p.in][p.name] = v;
  }
  return { operationId: op.id, ...buckets };
}

/** The value of a parameter in a request, wherever it travels. */
export function parameterValueOf(request: ParameterRequest, name: string): string | undefined {
  for (const b of BUCKETS) if (Object.hasOwn(request[b], name)) return request[b][name];
  return undefined;
}

/** Every parameter value of a request by name. */
export function valuesOf(request: ParameterRequest): Record<string, string> {
  return Object.assign({}, ...BUCKETS.map((b) => request[b]));
}

/**
 * The request's path suffix (placeholders filled, each value URL-encoded; an absent optional
 * placeholder drops its segment) and query string (with a leading `?`, or empty).
 */
export function renderRequestTarget(op: Operation, request: ParameterRequest): string {
  const suffix = op.pathSuffix.replace(/\/\{([^}]+)\}/g, (_, name: string) => {
    const v = request.path[name];
    return v === undefined ? '' : `/${encodeURIComponent(v)}`;
  });
  const query = new URLSearchParams(request.query).toString();
  return query === '' ? suffix : `${suffix}?${query}`;
}

/**
 * The parameter a value needs beside it: a `_sort` by distance only together with `near`
 * (Document 2, 4.11; DEC-D2-17), or undefined.
 */
export function coRequiredParameter(op: Operation, name: string, value: string): string | undefined {
  if (name === '_sort' && value.startsWith('distance:') && op.parameters.some((p) => p.name === 'near')) return 'near';
  return undefined;
}

export interface RequestOptions {
  /** Features the caller holds; a feature-gated parameter is sent only when all its features are held. */
  features?: readonly FeatureName[];
  /** Values the target holds, by parameter name (`{ insurerIdentifier: 'ppp', lastName: 'Smith' }`). */
  fixtures?: Readonly<Record<string, string | readonly string[]>>;
  /** How often a parameter with fixtures takes one of them rather than a generated value, 0 to 1 (default 0.5). */
  fixtureWeight?: number;
  /**
   * The optional parameters a property concerns: when given, other optional parameters are never
   * sent (required ones always are). Default: every optional parameter, sometimes.
   */
  optional?: readonly string[];
  /** At most this many optional parameters per request (a search property keeps its results non-empty). */
  maxOptional?: number;
  /** Parameters that always take one of their fixtures (the held records of an invalid request's rest). */
  held?: readonly string[];
}

/**
 * A parameter whose value names a record of the target: a path segment, an id (`siteId`,
 * `patient_id`, `insurerid`, `cuid`; not `datePaid`) or one the table marks (a postcode to
 * geo-code). A value of it that is no fixture may name nothing the target holds, and the answer to
 * an unknown record is open (DEC-D1-76, DEC-D2-41, DEC-D2-50).
 */
export const namesRecord = (p: Parameter): boolean =>
  p.in === 'path' || p.namesRecord === true || /(^id|Id|_id|insurerid|cuid)$/.test(p.name);

/** Whether the caller holds every feature the parameter needs. */
export const featuresHeld = (p: Parameter, held: readonly FeatureName[] = []): boolean =>
  (p.features ?? []).every((f) => held.includes(f));

/**
 * The fixtures of a parameter as a list (empty when none). A fixture not of the parameter's
 * documented form (spec/parameterFormats.ts: an insurer outside this operation's list) is left
 * out, so one fixture set serves every operation.
 */
export const fixturesOf = (p: Parameter, options: RequestOptions): readonly string[] => {
  const f = options.fixtures?.[p.name];
  const listed = f === undefined ? [] : typeof f === 'string' ? [f] : f;
  return listed.filter((v) => formProblem(p, v) === undefined && (p.format !== 'enum' || (p.values ?? []).includes(v)));
};
