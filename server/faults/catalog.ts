/**
 * Named faults of the sandbox (`--fault NAME`). Each breaks exactly one documented rule of
 * Document 1 or Document 2 (or a decision on it) and is consulted at the single place where that
 * rule is applied; `expectedCheck` names the suite check that must catch it, `operations` the
 * operation ids concerned.
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
  'radius-leak',
  'near-default-unit-miles',
  'role-name-sort-direction-ignored',
  'specialty-narrowing-leaks',
  'codeset-offset-off-by-one',
  'codeset-count-bound-ignored',
  'insurer-type-filter-ignored',
  'photo-size-mismatch',
  'invalid-postcode-error',
  'booking-unknown-id-200',
  'since-date-format-accepted',
  'distinct-by-ignored',
  'include-ignored',
  'lookup-text-not-required',
  'register-gender-filter-ignored',
  'retrieve-wrong-address',
  'control-parameter-missing',
  'booking-role-since-ignored',
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
  {
    name: 'radius-leak',
    kind: 'geo',
    rule: 'D2 4.11 / DEC-D2-16: near keeps roles within the radius',
    description: 'The near filter lets roles up to three times the radius through.',
    operations: ['search-register-practitioner-roles'],
    expectedCheck: 'within-radius',
  },
  {
    name: 'near-default-unit-miles',
    kind: 'geo',
    rule: 'D2 4.11 / DEC-D2-16: a distance without units is in km',
    description: 'A near distance (or near-distance) without units is read as miles.',
    operations: ['search-register-practitioner-roles'],
    expectedCheck: 'within-radius',
  },
  {
    name: 'role-name-sort-direction-ignored',
    kind: 'sort',
    rule: 'D2 4.11 / DEC-D2-18: _sort=name:desc sorts by name descending',
    description: '`name:desc` returns the roles sorted by name ascending.',
    operations: ['search-register-practitioner-roles'],
    expectedCheck: 'entries-sorted',
  },
  {
    name: 'specialty-narrowing-leaks',
    kind: 'filter',
    rule: 'D2 4.1 / DEC-D2-06: practitioner-specialty/{role} holds that profession\'s specialties',
    description: 'The narrowed specialty set also holds the specialties of other professions.',
    operations: ['get-code-set'],
    expectedCheck: 'value-set-items-match',
  },
  {
    name: 'codeset-offset-off-by-one',
    kind: 'paging',
    rule: 'D2 2.2 / DEC-D2-04: expansion.offset = (page - 1) x count',
    description: 'expansion.offset is page x count.',
    operations: ['get-code-set'],
    expectedCheck: 'value-set-paging-consistent',
  },
  {
    name: 'codeset-count-bound-ignored',
    kind: 'validation',
    rule: 'D2 4.1, 8 / DEC-D2-03: code-set page size is 1 to 1,000',
    description: 'count=1001 and count=0 are served instead of refused.',
    operations: ['get-code-set'],
    expectedCheck: 'request-refused',
  },
  {
    name: 'insurer-type-filter-ignored',
    kind: 'filter',
    rule: 'D2 4.4 / DEC-D2-08: type=edi and type=mii filter the insurers',
    description: 'The insurer list ignores type=edi and type=mii.',
    operations: ['list-insurers'],
    expectedCheck: 'entries-match-filter',
  },
  {
    name: 'photo-size-mismatch',
    kind: 'shape',
    rule: 'D2 2.3, 4.10 / DEC-D2-25: the photo size is the length of the decoded data',
    description: 'valueAttachment.size is the decoded length plus 10.',
    operations: ['get-practitioner-photo'],
    expectedCheck: 'photo-data-matches-size',
  },
  {
    name: 'invalid-postcode-error',
    kind: 'status',
    rule: 'D2 4.8 / DEC-D2-15: an invalid postcode gives 200 with status false',
    description: 'Validate postcode answers 400 MSG_INVALID_FORMAT for an invalid postcode.',
    operations: ['validate-postcode'],
    expectedCheck: 'success-status',
  },
  {
    name: 'booking-unknown-id-200',
    kind: 'error-status',
    rule: 'D2 4.12, 7 / DEC-D2-23: an unknown id gives 404 MSG_ENTITY_NOT_FOUND_IN_DATABASE',
    description: 'An unknown booking practitioner id answers 200 with an empty bundle.',
    operations: ['get-booking-practitioner'],
    expectedCheck: 'error-status-and-code',
  },
  {
    name: 'since-date-format-accepted',
    kind: 'validation',
    rule: 'D2 7 / DEC-D2-22: a malformed _since gives 422 MSG_DATE_FORMAT',
    description: 'A malformed _since is ignored in the booking practitioner search.',
    operations: ['search-booking-practitioners'],
    expectedCheck: 'error-status-and-code',
  },
  {
    name: 'distinct-by-ignored',
    kind: 'filter',
    rule: 'D2 4.11 / DEC-D2-20: distinct-by keeps one role per practitioner or location',
    description: 'distinct-by is ignored: every matching role is returned.',
    operations: ['search-register-practitioner-roles'],
    expectedCheck: 'distinct-by',
  },
  {
    name: 'include-ignored',
    kind: 'shape',
    rule: 'D2 4.11 / DEC-D2-19: _include=practitioner:location adds the referenced resources',
    description: '_include is ignored: no Practitioner or Location entries.',
    operations: ['search-register-practitioner-roles'],
    expectedCheck: 'included-resources-present',
  },
  {
    name: 'lookup-text-not-required',
    kind: 'validation',
    rule: 'D2 7 / DEC-D2-07, -31: a lookup without text is HTTP 400',
    description: 'The practitioner and location lookups without text answer 200 with every record.',
    operations: ['lookup-practitioners', 'lookup-locations'],
    expectedCheck: 'status-is',
  },
  {
    name: 'register-gender-filter-ignored',
    kind: 'filter',
    rule: 'D2 4.9 / DEC-D2-21: gender filters the register practitioners',
    description: 'The register practitioner search ignores gender.',
    operations: ['search-register-practitioners'],
    expectedCheck: 'entries-match-filter',
  },
  {
    name: 'retrieve-wrong-address',
    kind: 'filter',
    rule: 'D2 4.7 / DEC-D2-13: the retrieved address is the one asked for',
    description: 'Retrieve address returns the first Address item whatever the id.',
    operations: ['retrieve-address'],
    expectedCheck: 'address-key-matches',
  },
  {
    name: 'control-parameter-missing',
    kind: 'shape',
    rule: 'D2 2.3 / DEC-D2-10: all four control parameters are present',
    description: 'The control parameters lack stvEnabled.',
    operations: ['get-insurer-control-parameters'],
    expectedCheck: 'control-parameters-complete',
  },
  {
    name: 'booking-role-since-ignored',
    kind: 'filter',
    rule: 'D2 4.13 / DEC-D2-22: _since keeps roles updated at or after it',
    description: 'The booking role search ignores _since.',
    operations: ['search-booking-practitioner-roles'],
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
