/**
 * The one table of every operation. Document 1: membership, authorisation, remittance, claims.
 * Section numbers refer to ../shared/spec/01-membership-authorisation-remittance-claims.md.
 */
import { operationsD2 } from './operationsD2.ts';
import { operationsD3 } from './operationsD3.ts';
import { defineOperation, type ErrorEntry, type HeaderRequirement, type Operation, type Parameter } from './types.ts';

export const FIND_MEMBER_V1_INSURERS = ['bup', 'ppp', 'nuh', 'slh', 'cig', 'tih', 'wpa'] as const;
export const FIND_MEMBER_V2_INSURERS = ['ppp', 'nuh', 'slh', 'cin', 'tih', 'wpa', 'cig'] as const;
export const AUTHORISATION_INSURERS = ['nuh', 'slh', 'tih'] as const;
export const REMITTANCE_INSURERS = ['bup', 'bui', 'ppp', 'nuh', 'slh', 'cin', 'tih', 'wpa', 'pzo'] as const;

const bearer: HeaderRequirement = { name: 'Authorization', value: 'Bearer {token}', enforced: true };
const site: HeaderRequirement = { name: 'SU-SiteId', value: '{siteId}', enforced: true };
/**
 * Section 4 lists the form Content-Type on every D1 POST but never says a request without it is
 * refused: not enforced; what a target does without it is recorded at INFO (DEC-D1-73).
 */
const form: HeaderRequirement = {
  name: 'Content-Type',
  value: 'application/x-www-form-urlencoded',
  enforced: false,
};
/** Section 4.6 lists this header on a GET; whether a server must refuse without it is open (DEC-D1-16). */
const fhirJson: HeaderRequirement = { name: 'Content-Type', value: 'application/fhir+json', enforced: false };

const findMemberErrors: ErrorEntry[] = [
  { status: 400, code: 'NO_MATCH_FOUND', meaning: 'No match for the search parameters' },
  { status: 400, code: 'MULTIPLE_MATCH_FOUND', meaning: 'More than one match' },
  { status: 400, code: 'MSG_MISSING_MANDATORY_PARAM', meaning: 'Mandatory parameter missing' },
  { status: 422, code: 'MSG_PARAM_INVALID', meaning: 'Parameter content invalid' },
  { status: 400, code: 'MSG_CANT_PARSE_CONTENT', meaning: 'Unprocessable entity' },
  { status: 500, code: 'MSG_DATABASE_ERROR', meaning: 'Database processing failure' },
];

const remittanceSearchErrors: ErrorEntry[] = [
  { status: 400, code: 'MSG_MISSING_MANDATORY_PARAM', meaning: 'Missing mandatory parameter' },
  { status: 422, code: 'MSG_PARAM_INVALID', meaning: 'Parameter content invalid' },
  { status: 400, code: 'MSG_PARAM_EMPTY', meaning: 'Parameter null or empty' },
  { status: 422, code: 'MSG_INVALID_FORMAT', meaning: 'Invalid format' },
];

const invalidIdError: ErrorEntry[] = [
  {
    status: 404,
    code: 'InvalidId',
    meaning: 'The id matches no record or the record was removed (status not shown, DEC-D1-11)',
  },
];

const paging = (): Parameter[] => [
  { name: 'page', in: 'form', format: 'positive-integer', required: false, description: 'Page index, 1, 2, 3, ...' },
  { name: 'count', in: 'form', format: 'positive-integer', required: false, description: 'Maximum records per page' },
];
const queryPaging = (): Parameter[] => paging().map((p) => ({ ...p, in: 'query' as const }));

/** `_sort` on creation date, `_since` and paging: the always-available fields of 4.4 and 4.5. */
const remittanceSortSincePaging = (): Parameter[] => [
  {
    name: '_sort',
    in: 'form',
    format: 'enum',
    required: false,
    values: ['createdOn', '-createdOn'],
    description: 'Sort by creation date',
  },
  { name: '_since', in: 'form', format: 'date-time', required: false, description: 'Last-updated date-time' },
  ...paging(),
];

const findMemberV1Params: Parameter[] = [
  {
    name: 'insurerIdentifier',
    in: 'form',
    format: 'enum',
    required: true,
    values: FIND_MEMBER_V1_INSURERS,
    description: 'Insurer code',
  },
  {
    name: 'firstInitial',
    in: 'form',
    format: 'string',
    required: false,
    description: "Member's first initial (depends on insurer)",
  },
  {
    name: 'lastName',
    in: 'form',
    format: 'string',
    required: false,
    description: "Member's last name (depends on insurer)",
  },
  { name: 'sex', in: 'form', format: 'string', required: false, description: "Member's gender (depends on insurer)" },
  {
    name: 'dateOfBirth',
    in: 'form',
    format: 'date',
    required: false,
    description: 'Date of birth YYYY-MM-DD (depends on insurer)',
  },
  { name: 'postCode', in: 'form', format: 'string', required: false, description: 'Postal code (depends on insurer)' },
  {
    name: 'membershipNumber',
    in: 'form',
    format: 'string',
    required: false,
    description: "Insurer's unique member id (depends on insurer)",
  },
  {
    name: 'groupId',
    in: 'form',
    format: 'string',
    required: false,
    description: 'Group policy identifier (depends on insurer)',
  },
  {
    name: 'policyActiveOn',
    in: 'form',
    format: 'date',
    required: false,
    description: 'Date on which the policy must be active (depends on insurer)',
  },
];

const findMemberV2Params: Parameter[] = [
  {
    name: 'insurerIdentifier',
    in: 'form',
    format: 'enum',
    required: true,
    values: FIND_MEMBER_V2_INSURERS,
    description: 'Insurer code',
  },
  { name: 'firstInitial', in: 'form', format: 'string', required: true, description: 'First initial' },
  { name: 'lastName', in: 'form', format: 'string', required: true, description: 'Last name' },
  { name: 'dateOfBirth', in: 'form', format: 'date', required: true, description: 'Date of birth YYYY-MM-DD' },
  { name: 'sex', in: 'form', format: 'string', required: false, description: 'Gender (step 2)' },
  { name: 'postCode', in: 'form', format: 'string', required: false, description: 'Postal code (step 2)' },
  { name: 'policyActiveOn', in: 'form', format: 'date', required: false, description: 'YYYY-MM-DD (step 2)' },
];

const AS = 'Advanced_Search_1_0' as const;
const AFS = 'Advanced_Filtering_And_Sorting_1_0' as const;

const operationsD1 = [
  defineOperation({
    id: 'find-member-v1',
    document: 'D1',
    section: '4.1',
    summary: 'Find Member, version 1 (deprecated)',
    service: 'membership',
    discoveryKey: 'find_member_endpoint',
    method: 'POST',
    pathSuffix: '',
    documentedPath: '{find_member_endpoint}',
    headers: [site, form, { name: 'SVC-API-Version', value: '1', enforced: true }, bearer],
    parameters: findMemberV1Params,
    responseMediaType: 'json',
    responseSchema: 'coverage.schema.json',
    errors: findMemberErrors,
    destructive: false,
    reservedForOperator: false,
    apiVersion: '1',
    suite: 'find-member',
  }),
  defineOperation({
    id: 'find-member-v2',
    document: 'D1',
    section: '4.2',
    summary: 'Find Member, version 2 (two-step flow)',
    service: 'membership',
    discoveryKey: 'find_member_endpoint',
    method: 'POST',
    pathSuffix: '',
    documentedPath: '{find_member_endpoint}',
    headers: [site, form, { name: 'SVC-API-Version', value: '2', enforced: true }, bearer],
    parameters: findMemberV2Params,
    responseMediaType: 'json',
    responseSchema: 'coverage.schema.json',
    errors: findMemberErrors,
    destructive: false,
    reservedForOperator: false,
    apiVersion: '2',
    suite: 'find-member',
  }),
  defineOperation({
    id: 'search-authorisation',
    document: 'D1',
    section: '4.3',
    summary: 'Search Authorisation (pre-authorisation Claims)',
    service: 'membership',
    discoveryKey: 'search_authorisation_endpoint',
    method: 'POST',
    pathSuffix: '',
    documentedPath: '{search_authorisation_endpoint}',
    headers: [site, form, bearer],
    parameters: [
      {
        name: 'insurerIdentifier',
        in: 'form',
        format: 'enum',
        required: false,
        values: AUTHORISATION_INSURERS,
        description: 'Insurer code',
      },
      { name: 'caseCode', in: 'form', format: 'string', required: false, description: 'Authorisation case code' },
      { name: 'authCode', in: 'form', format: 'string', required: false, description: 'Authorisation code' },
      { name: 'membershipNumber', in: 'form', format: 'string', required: false, description: "Insurer's member id" },
      {
        name: 'status',
        in: 'form',
        format: 'enum',
        required: false,
        values: ['read', 'unread'],
        description: 'Read or unread status',
      },
      {
        name: 'preAuthStatus',
        in: 'form',
        format: 'enum',
        required: false,
        values: ['Active', 'Closed', 'Cancelled', 'All'],
        description: 'Pre-authorisation status',
      },
      {
        name: 'actionStatus',
        in: 'form',
        format: 'enum',
        required: false,
        values: ['with insurer', 'with provider'],
        description: 'Who must act',
      },
      { name: 'issueDate', in: 'form', format: 'datetime-range', required: false, description: 'Issue date or range' },
      {
        name: 'requestedDate',
        in: 'form',
        format: 'datetime-range',
        required: false,
        description: 'Original request date or range',
      },
      {
        name: 'lastUpdatedOn',
        in: 'form',
        format: 'datetime-range',
        required: false,
        description: 'Last update date or range',
      },
      {
        name: '_sort',
        in: 'form',
        format: 'enum',
        required: false,
        values: ['issueDate', '-issueDate'],
        description: 'Sort by issue date',
      },
      {
        name: '_since',
        in: 'form',
        format: 'date-time',
        required: false,
        description: 'Last-updated date-time of records',
      },
      ...paging(),
    ],
    responseMediaType: 'json',
    responseSchema: 'authorisation-bundle.schema.json',
    errors: [],
    pagingTags: ['page', 'count', 'maxCount'],
    sortValues: ['issueDate', '-issueDate'],
    destructive: false,
    reservedForOperator: false,
    suite: 'search-authorisation',
  }),
  defineOperation({
    id: 'search-remittance-summary',
    document: 'D1',
    section: '4.4',
    summary: 'Search Remittance Summary (PaymentReconciliation)',
    service: 'membership',
    discoveryKey: 'search_remittance_summary_endpoint',
    method: 'POST',
    pathSuffix: '',
    documentedPath: '{search_remittance_summary_endpoint}',
    headers: [site, form, bearer],
    parameters: [
      {
        name: 'insurerIdentifier',
        in: 'form',
        format: 'enum',
        required: false,
        values: REMITTANCE_INSURERS,
        description: 'Payor code',
      },
      {
        name: 'provider',
        in: 'form',
        format: 'string',
        required: false,
        features: [AS, AFS],
        description: 'Provider code or name',
      },
      {
        name: 'invoiceNumber',
        in: 'form',
        format: 'string',
        required: false,
        features: [AS],
        description: 'Invoice number',
      },
      {
        name: 'patientName',
        in: 'form',
        format: 'string',
        required: false,
        features: [AS],
        description: 'Patient name',
      },
      {
        name: 'membershipNumber',
        in: 'form',
        format: 'string',
        required: false,
        features: [AS],
        description: 'Membership number',
      },
      {
        name: 'dateCreated',
        in: 'form',
        format: 'date-range',
        required: false,
        features: [AS, AFS],
        description: 'Date-created range',
      },
      {
        name: 'datePaid',
        in: 'form',
        format: 'date-range',
        required: false,
        features: [AS, AFS],
        description: 'Date-paid range',
      },
      {
        name: 'paymentAmount',
        in: 'form',
        format: 'comparator-decimal',
        required: false,
        features: [AFS],
        description: 'Comparator and amount paid',
      },
      {
        name: 'amountInvoiced',
        in: 'form',
        format: 'comparator-decimal',
        required: false,
        features: [AS],
        description: 'Comparator and amount invoiced',
      },
      {
        name: 'insurerPaymentReference',
        in: 'form',
        format: 'string',
        required: false,
        features: [AS, AFS],
        description: 'Insurer payment reference (example: paymentReference, DEC-D1-01)',
      },
      {
        name: 'hasShortFall',
        in: 'form',
        format: 'boolean',
        required: false,
        features: [AS, AFS],
        description: 'Only remittances with a shortfall',
      },
      {
        name: 'excludeExported',
        in: 'form',
        format: 'boolean',
        required: false,
        features: [AFS],
        description: 'Exclude exported remittances',
      },
      ...remittanceSortSincePaging(),
    ],
    responseMediaType: 'json',
    responseSchema: 'remittance-summary-bundle.schema.json',
    errors: remittanceSearchErrors,
    pagingTags: ['page', 'count', 'maxCount'],
    sortValues: ['createdOn', '-createdOn'],
    destructive: false,
    reservedForOperator: true,
    suite: 'search-remittance',
  }),
  defineOperation({
    id: 'search-remittance-detail',
    document: 'D1',
    section: '4.5',
    summary: 'Search Remittance Detail (ClaimResponse) of one summary',
    service: 'membership',
    discoveryKey: 'search_remittance_detail_endpoint',
    method: 'POST',
    pathSuffix: '/{remittance_summary_id}',
    documentedPath: '{search_remittance_detail_endpoint}/{remittance_summary_id}',
    headers: [site, form, bearer],
    parameters: [
      {
        name: 'remittance_summary_id',
        in: 'path',
        format: 'string',
        required: true,
        description: 'Remittance summary id',
      },
      {
        name: 'invoiceNumber',
        in: 'form',
        format: 'string',
        required: false,
        features: [AFS],
        description: 'Invoice number',
      },
      {
        name: 'patientName',
        in: 'form',
        format: 'string',
        required: false,
        features: [AFS],
        description: 'Patient name',
      },
      {
        name: 'membershipNumber',
        in: 'form',
        format: 'string',
        required: false,
        features: [AFS],
        description: 'Membership number',
      },
      {
        name: 'invoiceDate',
        in: 'form',
        format: 'date-range',
        required: false,
        features: [AFS],
        description: 'Invoice date range',
      },
      {
        name: 'hospitalNumber',
        in: 'form',
        format: 'string',
        required: false,
        features: [AFS],
        description: 'Hospital number',
      },
      {
        name: 'insurerBillNumber',
        in: 'form',
        format: 'string',
        required: false,
        features: [AFS],
        description: 'Insurer bill number',
      },
      {
        name: 'invoiceTotal',
        in: 'form',
        format: 'comparator-decimal',
        required: false,
        features: [AFS],
        description: 'Comparator and invoice total',
      },
      {
        name: 'hasShortFall',
        in: 'form',
        format: 'boolean',
        required: false,
        description: 'Only details with a shortfall',
      },
      ...remittanceSortSincePaging(),
    ],
    responseMediaType: 'json',
    responseSchema: 'remittance-detail-bundle.schema.json',
    errors: remittanceSearchErrors,
    pagingTags: ['page', 'count', 'maxCount'],
    sortValues: ['createdOn', '-createdOn'],
    destructive: false,
    reservedForOperator: true,
    suite: 'search-remittance',
  }),
  defineOperation({
    id: 'list-pending-remittances',
    document: 'D1',
    section: '4.6',
    summary: 'List Pending Remittances (batch headers of the caller site)',
    service: 'claims',
    discoveryKey: 'list_pending_remittances_endpoint',
    method: 'GET',
    pathSuffix: '',
    documentedPath: '{claims_url}/claimresponse/$batch',
    headers: [fhirJson, bearer],
    parameters: queryPaging(),
    responseMediaType: 'json',
    responseSchema: 'batch-list-bundle.schema.json',
    errors: [],
    pagingTags: ['page', 'count', 'maxRecords'],
    destructive: false,
    reservedForOperator: true,
    suite: 'remittance-batches',
  }),
  defineOperation({
    id: 'get-remittance-details',
    document: 'D1',
    section: '4.7',
    summary: 'Get Remittance Details (one batch)',
    service: 'claims',
    discoveryKey: 'get_remittance_details_endpoint',
    method: 'GET',
    pathSuffix: '/{id}',
    documentedPath: '{claims_url}/claimresponse/$batch/{id}',
    headers: [fhirJson, bearer],
    parameters: [{ name: 'id', in: 'path', format: 'string', required: true, description: 'Batch id returned by 4.6' }],
    responseMediaType: 'json',
    responseSchema: 'batch-detail.schema.json',
    errors: invalidIdError,
    destructive: false,
    reservedForOperator: true,
    suite: 'remittance-batches',
  }),
  defineOperation({
    id: 'ack-remittance',
    document: 'D1',
    section: '4.8',
    summary: 'Ack Remittance Receipt (removes the batch)',
    service: 'claims',
    discoveryKey: 'ack_remittance_endpoint',
    method: 'DELETE',
    pathSuffix: '/{id}',
    documentedPath: '{claims_url}/claimresponse/$batch/{id}',
    headers: [fhirJson, bearer],
    parameters: [{ name: 'id', in: 'path', format: 'string', required: true, description: 'Batch id returned by 4.6' }],
    responseMediaType: 'none',
    successStatus: 200,
    errors: invalidIdError,
    destructive: true,
    reservedForOperator: true,
    suite: 'remittance-batches',
  }),
  defineOperation({
    id: 'list-hospital-claims',
    document: 'D1',
    section: '4.9',
    summary: 'Get Hospital Claims List',
    service: 'claims',
    discoveryKey: 'list_hospital_claims_endpoint',
    method: 'GET',
    pathSuffix: '',
    documentedPath: '{claims_url}/claim/$hospital-claim',
    headers: [bearer],
    parameters: [
      {
        name: 'dateCompleted',
        in: 'query',
        format: 'date',
        required: false,
        description: 'Day the services were rendered',
      },
    ],
    responseMediaType: 'json',
    responseSchema: 'hospital-claim-bundle.schema.json',
    errors: [],
    destructive: false,
    reservedForOperator: true,
    suite: 'hospital-claims',
  }),
  defineOperation({
    id: 'search-hospital-claims',
    document: 'D1',
    section: '4.10',
    summary: 'Search Hospital Claims',
    service: 'claims',
    discoveryKey: 'search_hospital_claims_endpoint',
    method: 'GET',
    pathSuffix: '',
    documentedPath: '{claims_url}/claim/search/$hospital-claim',
    headers: [bearer],
    parameters: [
      {
        name: 'dateCompleted',
        in: 'query',
        format: 'date',
        required: true,
        description: 'Day the services were rendered',
      },
      { name: 'treatmentSiteName', in: 'query', format: 'string', required: true, description: 'Treatment site name' },
      { name: 'patientLastName', in: 'query', format: 'string', required: true, description: 'Patient last name' },
      { name: 'patientDateOfBirth', in: 'query', format: 'date', required: true, description: 'Patient date of birth' },
    ],
    responseMediaType: 'json',
    responseSchema: 'hospital-claim-bundle.schema.json',
    errors: [
      {
        status: 400,
        code: 'MSG_MISSING_MANDATORY_PARAM',
        meaning: 'A required query parameter is missing (code not shown, DEC-D1-13)',
      },
    ],
    destructive: false,
    reservedForOperator: true,
    suite: 'hospital-claims',
  }),
  defineOperation({
    id: 'search-bills',
    document: 'D1',
    section: '4.11',
    summary: 'Search Bills of an insurer',
    service: 'claims',
    discoveryKey: 'search_claim_endpoint',
    method: 'GET',
    pathSuffix: '',
    documentedPath: '{claims_url}/claim/search',
    headers: [bearer],
    parameters: [
      { name: 'insurerid', in: 'query', format: 'string', required: true, description: 'Insurer id' },
      { name: 'membershipNumber', in: 'query', format: 'string', required: false, description: 'Membership number' },
      { name: 'invoiceNumber', in: 'query', format: 'string', required: false, description: 'Invoice number' },
      { name: 'cuid', in: 'query', format: 'string', required: false, description: 'Claim unique id' },
    ],
    responseMediaType: 'json',
    responseSchema: 'bill-bundle.schema.json',
    errors: [
      { status: 400, code: 'MSG_MISSING_MANDATORY_PARAM', meaning: 'insurerid is missing (code not shown, DEC-D1-13)' },
    ],
    destructive: false,
    reservedForOperator: true,
    suite: 'bills',
  }),
  defineOperation({
    id: 'get-bill',
    document: 'D1',
    section: '4.12',
    summary: 'Get Bill (one Claim)',
    service: 'claims',
    discoveryKey: 'get_claim_endpoint',
    method: 'GET',
    pathSuffix: '/{claimId}/{isArchived}',
    documentedPath: '{claims_url}/claim/{claimId}/{isArchived}',
    headers: [bearer],
    parameters: [
      { name: 'claimId', in: 'path', format: 'string', required: true, description: 'Claim id' },
      {
        name: 'isArchived',
        in: 'path',
        format: 'enum',
        required: true,
        values: ['true', 'false'],
        description: 'Whether the claim is archived',
      },
    ],
    responseMediaType: 'json',
    responseSchema: 'bill.schema.json',
    errors: [
      {
        status: 404,
        code: 'MSG_ENTITY_NOT_FOUND',
        meaning: 'No bill with this id (code and status not shown, DEC-D1-13)',
      },
    ],
    destructive: false,
    reservedForOperator: true,
    suite: 'bills',
  }),
] satisfies readonly Operation[];

/** Every operation of every document, in document and section order. */
const table = [...operationsD1, ...operationsD2, ...operationsD3] satisfies readonly Operation[];

/** Every operation id of the table, as a union type (a misspelt id is a compile error). */
export type OperationId = (typeof table)[number]['id'];

export const operations: readonly Operation[] = table;

const byId = new Map(operations.map((o) => [o.id, o]));

/** The operation with this id; throws for an unknown id (a suite bug, not a target fault). */
export function operation(id: string): Operation {
  const op = byId.get(id);
  if (!op) throw new Error(`Unknown operation id ${id}`);
  return op;
}

/** True when the string is an operation id of the table. */
export const isOperationId = (id: string): id is OperationId => byId.has(id);

/** The patient and condition operations of Document 3, 4.4 (the patients suite), in table order. */
export const PATIENT_OPERATIONS: readonly OperationId[] = operations
  .filter((o) => o.suite === 'patients')
  .map((o) => o.id as OperationId);
