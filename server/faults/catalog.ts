/**
 * Named faults of the sandbox (`--fault NAME`). Each breaks exactly one documented rule of
 * Document 1 and is consulted at the single place where that rule is applied; `expectedCheck`
 * names the suite check that must catch it, `operations` the operation ids concerned.
 */
import { operations } from '../../spec/operations.ts';

export interface FaultInfo {
  name: string;
  kind: string;
  rule: string;
  description: string;
  operations: string[];
  expectedCheck: string;
}

const ALL_D1 = operations.filter((o) => o.document === 'D1').map((o) => o.id);

export const FAULT_NAMES = [
  'paging-tag-as-number',
  'paging-ignores-page',
  'site-header-not-enforced',
  'no-match-status-200',
  'multiple-match-wrong-code',
  'coverage-missing-policy-expired',
  'insurer-filter-ignored',
  'sort-descending-ignored',
  'ack-keeps-batch',
  'v2-accepts-v1-insurer',
  'ack-returns-204',
  'invalid-id-200',
  'auth-not-enforced',
  'content-type-text-plain',
  'total-off-by-one',
  'empty-param-accepted',
  'pending-maxcount-tag',
  'count-ignored',
  'hospital-date-filter-ignored',
  'bill-bundle-collection',
  'error-body-not-outcome',
  'since-ignored',
  'batch-other-site-listed',
  'version-header-ignored',
  'optional-fields-ignored',
  'page-tag-always-one',
  'detail-sort-ignored',
  'get-bill-ignores-id',
] as const;

export type FaultName = (typeof FAULT_NAMES)[number];

type Entry = Omit<FaultInfo, 'name'> & { name: FaultName };

const entries: Entry[] = [
  {
    name: 'paging-tag-as-number',
    kind: 'paging',
    rule: 'D1 2.1: paging tag displays are numbers as text',
    description: 'Paging tag displays are JSON numbers instead of digit strings.',
    operations: ['search-remittance-summary', 'search-authorisation', 'search-remittance-detail'],
    expectedCheck: 'paging-tags-present',
  },
  {
    name: 'paging-ignores-page',
    kind: 'paging',
    rule: 'D1 4.4 / DEC-D1-12: page selects the page of results',
    description: 'Every page returns the entries of page 1 while the page tag still echoes the request.',
    operations: ['search-remittance-summary'],
    expectedCheck: 'pages-do-not-overlap',
  },
  {
    name: 'site-header-not-enforced',
    kind: 'auth',
    rule: 'D1 1, 5 / DEC-D1-21: SU-SiteId is required',
    description: 'A request without SU-SiteId is served normally with the site of the token.',
    operations: ['find-member-v2', 'search-authorisation', 'search-remittance-summary'],
    expectedCheck: 'request-refused',
  },
  {
    name: 'no-match-status-200',
    kind: 'error-status',
    rule: 'D1 7: NO_MATCH_FOUND uses HTTP 400',
    description: 'NO_MATCH_FOUND is answered with HTTP 200.',
    operations: ['find-member-v2', 'find-member-v1'],
    expectedCheck: 'error-status-and-code',
  },
  {
    name: 'multiple-match-wrong-code',
    kind: 'error-code',
    rule: 'D1 4.2 / 7: several matches give MULTIPLE_MATCH_FOUND',
    description: 'Several matches are answered with code NO_MATCH_FOUND.',
    operations: ['find-member-v2'],
    expectedCheck: 'error-status-and-code',
  },
  {
    name: 'coverage-missing-policy-expired',
    kind: 'shape',
    rule: 'D1 2.2: extension policyExpired is 1-1',
    description: 'The Coverage is returned without the policyExpired extension.',
    operations: ['find-member-v1', 'find-member-v2'],
    expectedCheck: 'matches-schema',
  },
  {
    name: 'insurer-filter-ignored',
    kind: 'filter',
    rule: 'D1 4.4: insurerIdentifier filters the summaries',
    description: 'The remittance summary search ignores insurerIdentifier.',
    operations: ['search-remittance-summary'],
    expectedCheck: 'entries-match-filter',
  },
  {
    name: 'sort-descending-ignored',
    kind: 'sort',
    rule: 'D1 4.4: _sort=-createdOn sorts descending',
    description: '`-createdOn` returns the summaries in ascending order.',
    operations: ['search-remittance-summary'],
    expectedCheck: 'entries-sorted',
  },
  {
    name: 'ack-keeps-batch',
    kind: 'state',
    rule: 'D1 3 / 4.8: an acknowledged batch is no longer listed',
    description: 'Ack answers 200 but the batch stays listed and gettable.',
    operations: ['ack-remittance'],
    expectedCheck: 'acknowledged-batch-gone',
  },
  {
    name: 'v2-accepts-v1-insurer',
    kind: 'validation',
    rule: 'D1 4.2 / DEC-D1-19: version 2 supports only its insurer list',
    description: 'Version 2 accepts `bup` and searches it.',
    operations: ['find-member-v2'],
    expectedCheck: 'error-status-and-code',
  },
  {
    name: 'ack-returns-204',
    kind: 'status',
    rule: 'D1 4.8: success is HTTP 200',
    description: 'A successful ack answers 204.',
    operations: ['ack-remittance'],
    expectedCheck: 'success-status',
  },
  {
    name: 'invalid-id-200',
    kind: 'error-status',
    rule: 'D1 4.7 / DEC-D1-11: an unknown id gives InvalidId with a 4xx',
    description: 'An unknown batch id in get answers 200 with `{}`.',
    operations: ['get-remittance-details'],
    expectedCheck: 'invalid-id-answer',
  },
  {
    name: 'auth-not-enforced',
    kind: 'auth',
    rule: 'D1 5 / DEC-D1-21: the bearer token is required',
    description: 'Requests without (or with an unknown) Authorization are served as sandbox-client.',
    operations: ALL_D1,
    expectedCheck: 'request-refused',
  },
  {
    name: 'content-type-text-plain',
    kind: 'media-type',
    rule: 'D1 1: payloads are JSON',
    description: 'JSON bodies are served with Content-Type text/plain.',
    operations: ['list-hospital-claims', 'search-bills', 'get-bill'],
    expectedCheck: 'content-type-is-json',
  },
  {
    name: 'total-off-by-one',
    kind: 'paging',
    rule: 'D1 2.1 / DEC-D1-12: total is the number of matches',
    description: 'Bundle.total is the number of matches plus one.',
    operations: ['search-remittance-summary', 'search-remittance-detail'],
    expectedCheck: 'total-consistent',
  },
  {
    name: 'empty-param-accepted',
    kind: 'validation',
    rule: 'D1 7 / DEC-D1-24: an empty value gives MSG_PARAM_EMPTY',
    description: 'Empty values are ignored instead of refused with MSG_PARAM_EMPTY.',
    operations: ['search-remittance-summary', 'search-remittance-detail'],
    expectedCheck: 'error-status-and-code',
  },
  {
    name: 'pending-maxcount-tag',
    kind: 'paging',
    rule: 'D1 2.1 / DEC-D1-02: the pending list uses maxRecords',
    description: 'The pending list carries the tag maxCount instead of maxRecords.',
    operations: ['list-pending-remittances'],
    expectedCheck: 'paging-tags-present',
  },
  {
    name: 'count-ignored',
    kind: 'paging',
    rule: 'D1 4.3 / 4.4: count bounds the page',
    description: 'count is ignored: a page always holds up to 25 entries.',
    operations: ['search-remittance-summary', 'search-authorisation'],
    expectedCheck: 'page-within-count',
  },
  {
    name: 'hospital-date-filter-ignored',
    kind: 'filter',
    rule: 'D1 4.9 / DEC-D1-29: dateCompleted filters the list',
    description: 'The hospital claims list ignores dateCompleted.',
    operations: ['list-hospital-claims'],
    expectedCheck: 'entries-match-filter',
  },
  {
    name: 'bill-bundle-collection',
    kind: 'shape',
    rule: 'D1 4.11: the bills bundle has type searchset',
    description: 'The bills search bundle has type collection.',
    operations: ['search-bills'],
    expectedCheck: 'matches-schema',
  },
  {
    name: 'error-body-not-outcome',
    kind: 'shape',
    rule: 'D1 2.3 / 7 / DEC-D1-14: Find Member errors are OperationOutcomes',
    description: 'Find Member errors are answered as `{error: code}`.',
    operations: ['find-member-v1', 'find-member-v2'],
    expectedCheck: 'operation-outcome-shape',
  },
  {
    name: 'since-ignored',
    kind: 'filter',
    rule: 'D1 4.4 / DEC-D1-27: _since keeps records updated at or after it',
    description: 'The remittance summary search ignores _since.',
    operations: ['search-remittance-summary'],
    expectedCheck: 'entries-match-filter',
  },
  {
    name: 'batch-other-site-listed',
    kind: 'isolation',
    rule: 'D1 4.6: only the batches of the token site are returned',
    description: "The pending list (and get) also serve SITE002's batches to every caller.",
    operations: ['list-pending-remittances', 'get-remittance-details'],
    expectedCheck: 'batch-belongs-to-site',
  },
  {
    name: 'version-header-ignored',
    kind: 'validation',
    rule: 'D1 9 / DEC-D1-20: the caller must state the exact version',
    description: 'Find Member without, or with an unknown, SVC-API-Version is served as version 2.',
    operations: ['find-member-v1', 'find-member-v2'],
    expectedCheck: 'request-refused',
  },
  {
    name: 'optional-fields-ignored',
    kind: 'filter',
    rule: 'D1 4.2: step 2 narrows the search with sex, postCode and policyActiveOn',
    description: 'The step-2 optional fields are ignored, so a refinable search stays MULTIPLE_MATCH_FOUND.',
    operations: ['find-member-v2'],
    expectedCheck: 'success-status',
  },
  {
    name: 'page-tag-always-one',
    kind: 'paging',
    rule: 'DEC-D1-12: the page tag equals the requested page',
    description: 'The page tag display is always "1".',
    operations: ['search-authorisation', 'search-remittance-summary'],
    expectedCheck: 'paging-tags-match-request',
  },
  {
    name: 'detail-sort-ignored',
    kind: 'sort',
    rule: 'D1 4.5: _sort=-createdOn sorts descending',
    description: '`_sort=-createdOn` is ignored in the remittance detail search.',
    operations: ['search-remittance-detail'],
    expectedCheck: 'entries-sorted',
  },
  {
    name: 'get-bill-ignores-id',
    kind: 'filter',
    rule: 'D1 4.12 / DEC-D1-31: the returned Claim is the one asked for',
    description: 'Get bill returns the first bill whatever the id.',
    operations: ['get-bill'],
    expectedCheck: 'entries-match-filter',
  },
];

export const FAULTS: readonly FaultInfo[] = entries;

const byName = new Map<string, FaultInfo>(entries.map((f) => [f.name, f]));

export function isKnownFault(name: string): name is FaultName {
  return byName.has(name);
}

export function faultInfo(name: string): FaultInfo | undefined {
  return byName.get(name);
}

/** The faults switched on for one sandbox instance. */
export class ActiveFaults {
  readonly #on: ReadonlySet<FaultName>;

  constructor(names: readonly string[] = []) {
    for (const n of names) if (!isKnownFault(n)) throw new Error(`Unknown fault ${n}`);
    this.#on = new Set(names as readonly FaultName[]);
  }

  /** True when the fault is on and concerns `operationId` (or no operation is named). */
  on(name: FaultName, operationId?: string): boolean {
    if (!this.#on.has(name)) return false;
    return operationId === undefined || (byName.get(name)?.operations.includes(operationId) ?? false);
  }

  list(): string[] {
    return [...this.#on];
  }
}
