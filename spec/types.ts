/**
 * The shape of the operation table (spec/operations.ts). Every layer reads it: the sandbox
 * builds its routes from it, the harness resolves addresses with it, suites and reports name
 * operations by its ids.
 */

export type DocumentId = 'D1' | 'D2' | 'D3';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Level = 'MUST' | 'SHOULD' | 'INFO';

/** A discovery document is published per service; keys repeat across services. */
export type ServiceId =
  | 'membership'
  | 'claims'
  | 'reference'
  | 'address'
  | 'register'
  | 'booking'
  | 'accounts'
  | 'auth'
  | 'diary'
  | 'patients'
  | 'contracts';

/** How request parameters travel (document 1, section 4: form body for POST, query for GET). */
export type ParameterLocation = 'form' | 'query' | 'path' | 'header' | 'body' | 'multipart';

export type ParameterFormat =
  | 'string'
  | 'date' // YYYY-MM-DD
  | 'date-range' // YYYY-MM-DD_YYYY-MM-DD
  | 'datetime-range' // YYYY-MM-DDTHH:MM or YYYY-MM-DDTHH:MM_YYYY-MM-DDTHH:MM
  | 'date-time'
  | 'comparator-decimal' // le|ge|eq followed by a decimal
  | 'boolean'
  | 'positive-integer'
  | 'enum'
  | 'near' // lat:lon:distance:units (units km, mi, m; default km)
  | 'distance'; // a radius: a non-negative decimal, optionally followed by km, mi or m (DEC-D2-16)

export type FeatureName = 'Advanced_Search_1_0' | 'Advanced_Filtering_And_Sorting_1_0';

export interface Parameter {
  name: string;
  in: ParameterLocation;
  format: ParameterFormat;
  required: boolean;
  /** Allowed values for `enum` parameters (and the documented insurer lists). */
  values?: readonly string[];
  /** Features the caller needs for this parameter (all of them). */
  features?: readonly FeatureName[];
  /**
   * The value names a record of the target beside a path segment or an id (the postcode to
   * geo-code): a value the target is not known to hold may be answered in a shape of its own.
   */
  namesRecord?: boolean;
  description: string;
}

export interface HeaderRequirement {
  name: string;
  /** The value the suite sends; `{siteId}`, `{token}` and `{version}` are filled from config. */
  value: string;
  /** True when a request without this header must be refused (a testable rule). */
  enforced: boolean;
}

export interface ErrorEntry {
  status: number;
  code: string;
  meaning: string;
}

export interface Operation<I extends string = string> {
  id: I;
  document: DocumentId;
  section: string;
  summary: string;
  service: ServiceId;
  discoveryKey: string;
  method: HttpMethod;
  /** Appended to the discovered address; `{name}` placeholders are path parameters. */
  pathSuffix: string;
  /** The path as the document writes it, for the report. */
  documentedPath: string;
  headers: readonly HeaderRequirement[];
  parameters: readonly Parameter[];
  /** Media type of a successful response body; `none` when success has no payload. */
  responseMediaType: 'json' | 'none';
  /** Schema file (under schemas/) of the success body. */
  responseSchema?: string;
  /** Documented HTTP status of success; undefined where the document does not show it. */
  successStatus?: number;
  /** The error table of section 7 that applies to this operation. */
  errors: readonly ErrorEntry[];
  /** Paging tag codes the response bundle carries. */
  pagingTags?: readonly string[];
  /** `_sort` values the document lists. */
  sortValues?: readonly string[];
  destructive: boolean;
  reservedForOperator: boolean;
  /** API version header value, for versioned operations. */
  apiVersion?: string;
  /** Suite file (suites/<suite>.suite.ts) that covers the operation. */
  suite: string;
}

/** Keeps an operation row's id literal, so that the table's ids form a union type (`OperationId`). */
export const defineOperation = <const I extends string>(row: Operation<I>): Operation<I> => row;
