/**
 * Named faults of the sandbox (`--fault NAME`). Each breaks exactly one documented rule of
 * Document 1, 2 or 3 (or a decision on it); `expectedCheck` names the suite check that must catch
 * it, `operations` the operation ids concerned. What a fault does is a modifier around the
 * reference handlers (protocol.ts, d1.ts, d2.ts, d3.ts), applied to the routes of its operations:
 * the routers hold the reference behaviour alone.
 */
import { operations } from '../../spec/operations.ts';
import type { ActiveModifiers, Modifier } from '../router/types.ts';
import { D1_FAULTS } from './d1.ts';
import { D2_FAULTS } from './d2.ts';
import { D3_FAULTS } from './d3.ts';
import { derivedFaultInfo, derivedFaultModifier } from './derived.ts';
import { familyFaultInfo, familyFaultModifier } from './families.ts';
import { PROTOCOL_FAULTS } from './protocol.ts';
import { D1_ROW_FAULTS } from './rows/d1.ts';
import { D2_ROW_FAULTS } from './rows/d2.ts';
import { D3_ROW_FAULTS } from './rows/d3.ts';
import { DISCOVERY_ROW_FAULTS } from './rows/discovery.ts';
import { TRANSPORT_ROW_FAULTS } from './rows/transport.ts';
import type { RowFault } from './rows/types.ts';
import type { FaultInfo } from './faultInfo.ts';

export type { FaultInfo } from './faultInfo.ts';

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
  'booking-practitioner-filters-ignored',
  'control-parameters-other-insurer',
  'distinct-by-not-first',
  'accounts-error-code-as-text',
  'introspect-skips-site-check',
  'sites-v2-next-page-at-end',
  'site-users-invalid-404',
  'revoke-keeps-access-token',
  'refresh-revoke-keeps-access',
  'token-details-error-shape',
  'diary-unauthorized-body',
  'diary-unmapped-as-unauthorized',
  'patient-update-ignored',
  'patient-deleted-still-readable',
  'patient-missing-header-400',
  'condition-orphan-accepted',
  'payors-duplicated',
  'procedure-without-service-accepted',
  'delete-outcome-severity-error',
  'effective-prices-orphan-procedure',
  'batch-msgid-repeated',
  'authorisation-filters-ignored',
  'coverage-extension-urls-moved',
  'organization-telecom-repeated',
  'bill-extension-urls-moved',
  'summary-extension-duplicated',
  'contract-item-system-other',
  'effective-prices-first-payor-only',
  'refresh-revoke-keeps-refresh',
  'codeset-past-last-page-malformed',
  'documented-value-refused',
  'booking-refusal-server-error',
  'patient-id-reused-after-delete',
  'patient-body-shape-unchecked',
  'condition-for-deleted-patient-stored',
  'outcome-location-not-coverage',
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
    expectedCheck: 'entries-match-filter',
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
    rule: "D2 4.1 / DEC-D2-06: practitioner-specialty/{role} holds that profession's specialties",
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
    description:
      'count=0 is served as an empty page and count=1001 unbounded, instead of refused or clamped into 1 to 1,000.',
    operations: ['get-code-set'],
    expectedCheck: 'code-set-page-size-bounded',
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
  {
    name: 'booking-practitioner-filters-ignored',
    kind: 'filter',
    rule: 'D2 4.12 / DEC-D2-59: profession, channel, location, postcode and near filter the booking practitioners',
    description: 'The booking practitioner search ignores profession, channel, location, postcode and near.',
    operations: ['search-booking-practitioners'],
    expectedCheck: 'unmatched-value-gives-nothing',
  },
  {
    name: 'control-parameters-other-insurer',
    kind: 'shape',
    rule: 'D2 2.3, 4.5: control-parameter URLs read {ref_url}/organization/ins/<insurerId>/$control-parameters/<name>',
    description: 'The control-parameter extension URLs name another insurer than the one asked for.',
    operations: ['get-insurer-control-parameters'],
    expectedCheck: 'control-parameters-for-insurer',
  },
  {
    name: 'distinct-by-not-first',
    kind: 'filter',
    rule: 'D2 4.11 / DEC-D2-20, -55: distinct-by returns the first matching record of each practitioner',
    description: 'distinct-by keeps the last matching role of each practitioner (resp. location) in the sort order.',
    operations: ['search-register-practitioner-roles'],
    expectedCheck: 'distinct-by-first',
  },
  {
    name: 'accounts-error-code-as-text',
    kind: 'shape',
    rule: 'D3 2.2, 7 / DEC-D3-04: accounts error bodies carry code = the HTTP status as a number',
    description: 'Accounts error bodies carry `code` as a string ("403").',
    operations: ['introspect', 'get-user-details', 'list-features'],
    expectedCheck: 'accounts-error-body',
  },
  {
    name: 'introspect-skips-site-check',
    kind: 'auth',
    rule: "D3 4.1, 7: introspect verifies the user's access to SU-SiteId",
    description: 'Introspect answers 200 for an SU-SiteId the user is not connected to (or that is inactive).',
    operations: ['introspect'],
    expectedCheck: 'accounts-error-answer',
  },
  {
    name: 'sites-v2-next-page-at-end',
    kind: 'paging',
    rule: 'D3 4.1 / DEC-D3-05: nextPage is null on the last page',
    description: 'The last page of list authorised sites v2 carries nextPage = currentPage + 1.',
    operations: ['list-authorised-sites-v2'],
    expectedCheck: 'sites-v2-pagination',
  },
  {
    name: 'site-users-invalid-404',
    kind: 'status',
    rule: 'D3 4.1: an invalid site id gives HTTP 200 with the message `Siteid is invalid : <site_id>`',
    description: 'Get users by site answers 404 for an invalid site id.',
    operations: ['get-site-users'],
    expectedCheck: 'success-status',
  },
  {
    name: 'revoke-keeps-access-token',
    kind: 'state',
    rule: 'D3 4.2 / DEC-D3-06: a revoked access token is refused afterwards',
    description: 'Revoking an access token answers 200 but the token stays valid.',
    operations: ['revoke-token'],
    expectedCheck: 'request-refused',
  },
  {
    name: 'refresh-revoke-keeps-access',
    kind: 'state',
    rule: 'D3 4.2 / DEC-D3-06: revoking a refresh token also revokes its access token',
    description: 'Revoking a refresh token revokes only the refresh token; its access token stays valid.',
    operations: ['revoke-token'],
    expectedCheck: 'request-refused',
  },
  {
    name: 'token-details-error-shape',
    kind: 'shape',
    rule: "D3 7: token-details errors are `{status: 'fail', message, code}`",
    description: 'Token-details errors are answered as `{message, code}` without status.',
    operations: ['get-idp-token-details'],
    expectedCheck: 'token-details-error-answer',
  },
  {
    name: 'diary-unauthorized-body',
    kind: 'shape',
    rule: 'D3 4.3, 7: unauthorised diary list requests get HTTP 401 without body',
    description: 'Unauthorised diary list requests get 401 with a JSON body.',
    operations: ['list-episode-types', 'list-appointment-statuses', 'list-recurrence-types'],
    expectedCheck: 'empty-body',
  },
  {
    name: 'diary-unmapped-as-unauthorized',
    kind: 'validation',
    rule: 'D3 4.3 / DEC-D3-10: a code of an unmapped site gives response 3 (SiteNotMapped)',
    description: 'Post authorisation answers response 1 (Unauthorized) for a code of an unmapped site.',
    operations: ['diary-post-auth'],
    expectedCheck: 'diary-response-code',
  },
  {
    name: 'patient-update-ignored',
    kind: 'state',
    rule: 'D3 4.4: update replaces the patient',
    description: 'Update answers 200 with the new values, but the patient keeps its old values.',
    operations: ['update-patient'],
    expectedCheck: 'patient-round-trip',
  },
  {
    name: 'patient-deleted-still-readable',
    kind: 'state',
    rule: 'D3 3, 4.4 / DEC-D3-08: a deleted patient is not served: get of it is refused with a code of the patient table',
    description: 'Delete answers DELETED, but the patient can still be read (200).',
    operations: ['delete-patient', 'get-patient'],
    expectedCheck: 'error-status-and-code',
  },
  {
    name: 'patient-missing-header-400',
    kind: 'auth',
    rule: 'D3 5 / DEC-D3-07: a missing mandatory header gives HTTP 401',
    description: 'A patient request without SU-SiteId answers 400 MSG_MISSING_MANDATORY_PARAM.',
    operations: ['create-patient', 'get-patient'],
    expectedCheck: 'status-is',
  },
  {
    name: 'condition-orphan-accepted',
    kind: 'validation',
    rule: 'D3 4.4 / DEC-D3-08: a condition needs an existing patient (refused with a code of the patient table)',
    description: 'A condition whose authorReference names an unknown patient is created.',
    operations: ['create-condition'],
    expectedCheck: 'error-status-and-code',
  },
  {
    name: 'payors-duplicated',
    kind: 'state',
    rule: 'D3 4.5 / DEC-D3-12: listing creates slf and na only when missing',
    description: "Every listing of a site's payors adds slf and na again.",
    operations: ['list-site-payors'],
    expectedCheck: 'payors-reserved-once',
  },
  {
    name: 'procedure-without-service-accepted',
    kind: 'validation',
    rule: 'D3 4.5 / DEC-D3-15: a service code must accompany a procedure code',
    description: 'Set contract service with procedure accepts a procedure without its service code.',
    operations: ['set-contract-service-with-procedure'],
    expectedCheck: 'request-refused',
  },
  {
    name: 'delete-outcome-severity-error',
    kind: 'shape',
    rule: 'D3 4.5: the delete outcome has severity information and code informational',
    description: 'Deleting a payor or contact payor answers the MSG_DELETED_ID OperationOutcome with severity error.',
    operations: ['delete-payor', 'delete-contact-payor'],
    expectedCheck: 'matches-schema',
  },
  {
    name: 'effective-prices-orphan-procedure',
    kind: 'shape',
    rule: 'D3 4.5 / DEC-D3-15: a procedure code entry comes with its service code entry',
    description: 'Effective prices list procedure entries without the service entry they belong to.',
    operations: ['get-effective-prices'],
    expectedCheck: 'effective-prices-procedure-has-service',
  },
  {
    name: 'batch-msgid-repeated',
    kind: 'shape',
    rule: 'D1 2.6: msgId is unique per sender and recipient',
    description: 'Every remittance batch object carries the same msgId.',
    operations: ['get-remittance-details', 'list-pending-remittances'],
    expectedCheck: 'member-distinct-across',
  },
  {
    name: 'authorisation-filters-ignored',
    kind: 'filter',
    rule: 'D1 4.3 / DEC-D1-74: the response holds the Claims matching the filters',
    description:
      "Search Authorisation ignores every filter (insurer, codes, membership number, statuses, the three date ranges, _since) and answers the site's records.",
    operations: ['search-authorisation'],
    expectedCheck: 'filter-excludes-all',
  },
  {
    name: 'coverage-extension-urls-moved',
    kind: 'shape',
    rule: 'D1 2.2: extension URLs are {ref_url}/extension/<name>, insuranceSchemePlan {ref_url}/insuranceSchemePlan',
    description:
      'The Coverage carries insuranceSchemePlan at {ref_url}/extension/insuranceSchemePlan and the Patient extensions under {ref_url}/Patient/extension/<name>.',
    operations: ['find-member-v1', 'find-member-v2'],
    expectedCheck: 'coverage-extension-urls',
  },
  {
    name: 'organization-telecom-repeated',
    kind: 'cardinality',
    rule: 'D1 2.2: the insurer Organization carries Email 0-1 and Phone 0-1',
    description:
      'The contained insurer Organization of the Coverage lists its email and its phone twice each (a second, different value).',
    operations: ['find-member-v1', 'find-member-v2'],
    expectedCheck: 'organization-telecom-cardinality',
  },
  {
    name: 'bill-extension-urls-moved',
    kind: 'url-form',
    rule: 'D1 2.8 / DEC-D1-54: bill extension URLs are under {ref_url}/extension/Claim/',
    description:
      'Bill Claim extensions are written `{ref_url}/extension/<name>` (out of `/extension/Claim/`), e.g. `.../extension/ClaimStatus`.',
    operations: ['search-bills', 'get-bill'],
    expectedCheck: 'bill-extension-urls',
  },
  {
    name: 'summary-extension-duplicated',
    kind: 'cardinality',
    rule: 'D1 2.4: processedDate and totalInvoiced are 1-1, paymentMethod 0-1',
    description:
      'Every remittance summary repeats its 1-1 extensions `processedDate` and `totalInvoiced` with conflicting values (a second entry a day later / one pound more).',
    operations: ['search-remittance-summary'],
    expectedCheck: 'entry-extension-cardinality',
  },
  {
    name: 'contract-item-system-other',
    kind: 'shape',
    rule: 'D3 2.6: a valuedItem coding system is ISC (services) or {ref_url}/procedure (procedures)',
    description: 'Price Contracts code their services with the system `{ref_url}/service` instead of `ISC`.',
    operations: [
      'get-effective-prices',
      'set-contract-service',
      'set-contract-service-with-procedure',
      'set-contract-price',
    ],
    expectedCheck: 'contract-item-systems',
  },
  {
    name: 'effective-prices-first-payor-only',
    kind: 'filter',
    rule: 'D3 4.5 / DEC-D3-56: effective prices take one or more comma-separated payor ids',
    description: 'Effective prices asked for several comma-separated payors answer for the first one only.',
    operations: ['get-effective-prices'],
    expectedCheck: 'every-payor-answered',
  },
  {
    name: 'refresh-revoke-keeps-refresh',
    kind: 'state',
    rule: 'D3 4.2 / DEC-D3-06: a revoked refresh token can no longer be refreshed',
    description:
      "Revoking a refresh token ends its session's access tokens, but the refresh token still gives new tokens.",
    operations: ['revoke-token'],
    expectedCheck: 'refresh-token-refused',
  },
  {
    name: 'codeset-past-last-page-malformed',
    kind: 'shape',
    rule: 'D2 2.2, 4 / DEC-D2-65: every success answer, a page past the last included, is a ValueSet with its expansion',
    description: 'A code-set page past the last is answered 200 with a ValueSet without `expansion`.',
    operations: ['get-code-set'],
    expectedCheck: 'coverage-phase-served',
  },
  {
    name: 'documented-value-refused',
    kind: 'validation',
    rule: 'D1 4, 4.1 / DEC-D1-76: a request with a listed value is served, not refused as invalid (SHOULD)',
    description: 'Find Member version 1 refuses its listed insurer `tih` with 422 MSG_PARAM_INVALID.',
    operations: ['find-member-v1'],
    expectedCheck: 'valid-request-served',
    expectedLevel: 'SHOULD',
  },
  {
    name: 'booking-refusal-server-error',
    kind: 'server-error',
    rule: 'D2 7 / DEC-D2-30, -58, -65: a booking search with a bad parameter is refused with a code of its table',
    description:
      'The booking searches answer every request they should refuse for a bad parameter (empty, malformed such as `page=abc` or `count=1.5`, out of range, unlisted) with HTTP 500 MSG_INTERNAL_ERROR.',
    operations: ['search-booking-practitioners', 'search-booking-practitioner-roles'],
    expectedCheck: 'invalid-request-answered',
  },
  {
    name: 'patient-id-reused-after-delete',
    kind: 'state',
    rule: 'D3 3, 4.4 / DEC-D3-08: a create gives a new id; a deleted patient stays refused',
    description: 'The next created patient gets the id of the most recently deleted one, which so reads 200 again.',
    operations: ['create-patient', 'delete-patient'],
    expectedCheck: 'state-sequence-holds',
  },
  {
    name: 'patient-body-shape-unchecked',
    kind: 'validation',
    rule: 'D3 2.4, 4.4, 7 / DEC-D3-67: a Patient body of the wrong documented shape is refused with a 4xx (SHOULD)',
    description:
      'Create patient answers 201 with an id to a body its documented shape refuses (a member missing, of the wrong type, outside its values).',
    operations: ['create-patient'],
    expectedCheck: 'invalid-request-answered',
    expectedLevel: 'SHOULD',
  },
  {
    name: 'condition-for-deleted-patient-stored',
    kind: 'state',
    rule: 'D3 4.4: Add condition, "the patient must already exist"; a deleted patient does not (D3 3, DEC-D3-08)',
    description: 'A condition naming a deleted patient is created (201) as if the patient still existed.',
    operations: ['create-condition', 'delete-patient'],
    expectedCheck: 'state-sequence-holds',
  },
  {
    name: 'outcome-location-not-coverage',
    kind: 'shape',
    rule: "D1 2.3 / DEC-D1-46: an issue's `location`, where present, is (`Coverage`)",
    description: 'Find Member error answers name `location: ["Patient"]` in every issue.',
    operations: ['find-member-v1', 'find-member-v2'],
    expectedCheck: 'outcome-issues-have-when-present',
  },
];

/**
 * Faults written to prove named MUST rows (server/faults/rows/): each holds its catalogue entry
 * and its modifier in one object, a file per document.
 */
const ROW_FAULTS: readonly RowFault[] = [
  ...D1_ROW_FAULTS,
  ...D2_ROW_FAULTS,
  ...D3_ROW_FAULTS,
  ...DISCOVERY_ROW_FAULTS,
  ...TRANSPORT_ROW_FAULTS,
];

const rowEntries: FaultInfo[] = ROW_FAULTS.map(
  ({ name, kind, rule, description, operations, expectedCheck, expectedLevel, rows }) => ({
    name,
    kind,
    rule,
    description,
    operations,
    expectedCheck,
    ...(expectedLevel ? { expectedLevel } : {}),
    rows,
  }),
);

export const FAULTS: readonly FaultInfo[] = [...entries, ...rowEntries];

const byName = new Map<string, FaultInfo>(FAULTS.map((f) => [f.name, f]));
if (byName.size !== FAULTS.length) throw new Error('A fault name is catalogued twice');

export function isKnownFault(name: string): boolean {
  return byName.has(name);
}

export function faultInfo(name: string): FaultInfo | undefined {
  return byName.get(name);
}

/** What each fault does: a modifier around the reference handlers (one entry per catalogued fault). */
const HAND_MODIFIERS = { ...PROTOCOL_FAULTS, ...D1_FAULTS, ...D2_FAULTS, ...D3_FAULTS } satisfies Record<
  FaultName,
  Modifier
>;
const MODIFIERS: Record<string, Modifier> = {
  ...HAND_MODIFIERS,
  ...Object.fromEntries(ROW_FAULTS.map((f) => [f.name, f])),
};
for (const name of Object.keys(MODIFIERS))
  if (!isKnownFault(name)) throw new Error(`Fault modifier ${name} has no catalogue entry`);

export {
  DERIVED_FAULT_PREFIX,
  derivedFaultInfo,
  derivedFaults,
  isDerivedFault,
  type DerivedFaultInfo,
} from './derived.ts';

/**
 * True for a name the sandbox can switch on: a catalogued fault, a shape fault derived from the
 * response schemas (derived.ts) or a behavioural fault of a family derived from the operation
 * table (families.ts); the derived kinds are listed apart, never in FAULTS: the self-test and
 * `conformance faults` list the hand-written ones.
 */
export function isFaultName(name: string): boolean {
  return isKnownFault(name) || derivedFaultInfo(name) !== undefined || familyFaultInfo(name) !== undefined;
}

/** The operations and modifier of a catalogued or derived fault (undefined for an unknown name). */
function resolveFault(name: string): { operations: readonly string[]; modifier: Modifier } | undefined {
  if (isKnownFault(name)) return { operations: byName.get(name)?.operations ?? [], modifier: MODIFIERS[name] };
  const derived = derivedFaultInfo(name);
  if (derived) return { operations: derived.operations, modifier: derivedFaultModifier(derived) };
  // Behavioural faults derived from the operation table (families.ts), listed apart like the shape faults.
  const family = familyFaultInfo(name);
  return family ? { operations: family.operations, modifier: familyFaultModifier(family) } : undefined;
}

/** The faults switched on for one sandbox instance. */
export class ActiveFaults implements ActiveModifiers {
  readonly #on: readonly string[];
  readonly #resolved = new Map<string, { operations: readonly string[]; modifier: Modifier }>();

  constructor(names: readonly string[] = []) {
    for (const n of names) {
      const fault = resolveFault(n);
      if (!fault) throw new Error(`Unknown fault ${n}`);
      this.#resolved.set(n, fault);
    }
    this.#on = [...new Set(names)];
  }

  /** The modifiers of the active faults that concern one of the route's operations. */
  for(routeOperations: readonly string[]): readonly Modifier[] {
    return this.#on.flatMap((name) => {
      const fault = this.#resolved.get(name);
      return fault?.operations.some((o) => routeOperations.includes(o)) ? [fault.modifier] : [];
    });
  }

  list(): string[] {
    return [...this.#on];
  }
}
