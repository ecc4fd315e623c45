/**
 * The register of silences (issue 30, item 2): every decision of spec/decisions.md is classified
 * exactly once, either as a silence (a point where a server, or a client, may legitimately choose:
 * the documents say "not shown", give two forms, give no code, no order, no value list ...) or as a
 * decision that leaves a server no choice (it fixes how the suite builds its own requests, reads its
 * config, or reads a rule that leaves none). A silence names the variants that prove the suite
 * tolerates it (server/variants/catalog.ts, or the reference client's choices for DEC-C rows); one
 * without a variant yet is PENDING, with what its variant would do. The words a silence rests on are
 * read from the decision's own "document says" cell, never copied here.
 * `conformance variants --silences` prints the register; spec/silences.test.ts keeps it whole.
 */
import { type Decision, loadDecisions } from './decisions.ts';

/** The HTTP freedoms a real server uses (issue 30, item 2), each resting on a decision row. */
export const HTTP_FREEDOMS = [
  'content negotiation on Accept',
  'content coding without Accept-Encoding',
  'a page shorter than count',
  'a page past the last',
  'case- and accent-insensitive matching',
  'transient 502/503/504 without Retry-After',
  'single-use authorisation codes',
  'server-assigned members refused or ignored on create',
  'formats the server validates',
] as const;

export type HttpFreedom = (typeof HTTP_FREEDOMS)[number];

export interface Silence {
  /** `SIL-D1-03`: the decision's id with SIL in place of DEC (one silence per decision). */
  id: string;
  decision: string;
  /** What a server (or, for DEC-C rows, a client) may choose, in a few words. */
  choice: string;
  /**
   * Sandbox variants (server/variants/catalog.ts), or for a client silence the reference client's
   * choices (examples/reference-client) or a consumer pact's (pacts/check/pactChoices.ts).
   */
  variants: readonly string[];
  /** The variants are choices of the reference client (examples/reference-client), not of the sandbox. */
  client?: true;
  http?: HttpFreedom;
}

/** Why a decision records no freedom of a server. */
export type NoFreedomKind =
  /** It fixes how the suite builds its own requests. */
  | 'suite-request'
  /** It fixes how the suite reads its config (addresses, credentials, fixtures, scope). */
  | 'suite-config'
  /** It reads a rule the documents state, which leaves a server no choice. */
  | 'stated-rule'
  /** It is the suite's own rule about runs and reports, not about a server's answers. */
  | 'suite-rule'
  /** The suite never sends the request whose answer is open, so no choice of a server is ever seen. */
  | 'never-seen';

export interface NoFreedom {
  decision: string;
  kind: NoFreedomKind;
  reason: string;
}

const sil = (decision: string, choice: string, variants: readonly string[], more: Partial<Silence> = {}): Silence => ({
  id: decision.replace(/^DEC-/, 'SIL-'),
  decision,
  choice,
  variants,
  ...more,
});
const none = (decision: string, kind: NoFreedomKind, reason: string): NoFreedom => ({ decision, kind, reason });

/** Silences whose variant is not built yet: decision id to what the variant would do. Issue 30's goal is none. */
export const PENDING: Readonly<Record<string, string>> = {};

/** Every silence of the documents, with its variants (none yet for the PENDING ones). */
export const SILENCES: readonly Silence[] = [
  // Document 1
  sil('DEC-D1-01', 'honour or refuse the example name paymentReference', ['remittance-example-names-refused']),
  sil('DEC-D1-03', 'which 2xx answers a single match', ['find-member-success-201']),
  sil('DEC-D1-04', 'the order without _sort; the example sort values', [
    'remittance-default-order-newest-first',
    'remittance-example-names-refused',
  ]),
  sil('DEC-D1-05', 'the letter case of the co-payment type word', ['copayment-type-other-case']),
  sil('DEC-D1-06', 'expiryDate as valueDate or valueDateTime', ['coverage-expiry-date-only']),
  sil('DEC-D1-07', 'bill and hospital numbers as extensions or identifiers', ['remittance-numbers-as-extensions']),
  sil('DEC-D1-11', 'the status and form of InvalidId', ['invalid-id-status-400', 'invalid-id-object']),
  sil('DEC-D1-12', 'what total counts; default and maximum page size', ['remittance-total-of-page']),
  sil('DEC-D1-13', 'codes and statuses of clearing errors', ['clearing-errors-422']),
  sil('DEC-D1-14', 'the body shape of remittance errors', ['remittance-error-body-plain']),
  sil('DEC-D1-15', 'what a gated field gets without its feature', ['gated-field-ignored-without-feature']),
  sil('DEC-D1-16', 'serve or refuse a GET without Content-Type', ['clearing-get-content-type-required']),
  sil('DEC-D1-17', 'which Find Member code answers an empty field', ['find-member-empty-field-param-invalid']),
  sil('DEC-D1-18', 'per-insurer mandatory fields', ['find-member-v1-insurer-rule']),
  sil('DEC-D1-19', 'the answer to an unsupported insurer', ['unsupported-insurer-no-match']),
  sil('DEC-D1-20', 'which 4xx answers a missing or unknown version', ['find-member-version-missing-param-invalid']),
  sil('DEC-D1-21', 'which 4xx answers a missing token or site', ['site-header-missing-403']),
  sil('DEC-D1-22', 'the fields of a pre-authorisation Claim', ['preauth-claim-without-id']),
  sil('DEC-D1-23', 'the inclusivity of authorisation date ranges', ['authorisation-range-end-exclusive']),
  sil('DEC-D1-24', 'which documented code answers a malformed value', ['remittance-error-code-alternative']),
  sil('DEC-D1-25', 'what hasShortFall=false means', ['has-shortfall-false-restricts']),
  sil('DEC-D1-26', 'the match rule of provider', ['remittance-provider-exact-name']),
  sil('DEC-D1-27', 'where a record shows its last update', ['remittance-no-last-updated']),
  sil('DEC-D1-28', 'the answer to an unknown summary id', ['remittance-unknown-summary-empty']),
  sil('DEC-D1-31', 'which 4xx answers a bad isArchived', ['clearing-errors-422']),
  sil('DEC-D1-34', 'the wording of MULTIPLE_MATCH_FOUND diagnostics', ['multiple-match-other-wording']),
  sil('DEC-D1-35', 'batch status TEST, LIVE, null or absent', ['batch-live-status-absent']),
  sil('DEC-D1-36', 'the letter case and text of the payment method', [
    'batch-payment-method-long-text',
    'payment-method-lower-case',
  ]),
  sil('DEC-D1-37', 'doNotReject present or absent', ['coverage-do-not-reject-absent']),
  sil('DEC-D1-38', 'the value member of money extensions', ['coverage-money-as-decimal']),
  sil('DEC-D1-39', 'serve or refuse read/unread status', ['authorisation-read-status-refused']),
  sil('DEC-D1-40', 'the order and filters of the pending list', ['pending-list-order-varies']),
  sil('DEC-D1-41', 'the order of claims[] against cuid', ['batch-claims-reverse-order']),
  sil('DEC-D1-42', 'the JSON form of a coded shortPay', ['batch-short-pay-single']),
  sil('DEC-D1-43', 'the gender value and its letter case', ['coverage-gender-capitalised']),
  sil('DEC-D1-45', 'a default window for an authorisation search without filters', ['authorisation-default-window']),
  sil('DEC-D1-46', 'the coding system and optional members of an OperationOutcome issue', [
    'outcome-other-code-system',
    'outcome-location-expression-absent',
  ]),
  sil('DEC-D1-47', 'the JSON forms of the batch types', ['batch-money-as-text']),
  sil('DEC-D1-48', 'batch members null or absent', ['batch-optional-members-null']),
  sil('DEC-D1-49', 'the recipient form; msgId sequential or not', [
    'batch-recipient-other-form',
    'batch-msgid-not-sequential',
  ]),
  sil('DEC-D1-50', 'bank details for methods other than BACS', ['cheque-bank-details-present']),
  sil('DEC-D1-51', 'the spelling of the brought/carried forward extensions', [
    'summary-forward-extensions-batch-names',
  ]),
  sil('DEC-D1-52', 'references to contained Organizations or not', ['remittance-references-not-contained']),
  sil('DEC-D1-53', 'what "claim total" is in the short amount', ['short-amount-of-insurer-total']),
  sil('DEC-D1-54', 'bill members present, null or absent', [
    'bill-optional-members-null',
    'bill-archived-flag-as-text',
  ]),
  sil('DEC-D1-55', 'the IsArchived extension against the path', ['bill-archived-flag-as-text']),
  sil('DEC-D1-56', 'the contained Patient name and address as object or list', ['coverage-patient-name-object']),
  sil('DEC-D1-57', 'the lexical form of date-times', [
    'coverage-period-date-only',
    'fhir-datetime-date-only',
    'fhir-datetime-basic-offset',
  ]),
  sil('DEC-D1-58', 'which Find Member code answers a malformed date', ['malformed-date-cant-parse']),
  sil('DEC-D1-59', 'the answer to a body that is not form-encoded', ['find-member-json-body-param-invalid']),
  sil('DEC-D1-60', 'how policyActiveOn shows in the Coverage', ['coverage-policy-renewed-term']),
  sil('DEC-D1-61', 'the co-payment type beside the amount', ['copayment-type-absent']),
  sil('DEC-D1-62', 'refuse or read leniently a malformed claim date', ['hospital-claims-lenient-dates']),
  sil('DEC-D1-63', 'whether clearing operations need SU-SiteId', ['clearing-site-header-required']),
  sil('DEC-D1-64', "the answer to another site's batch", ['foreign-batch-forbidden']),
  sil('DEC-D1-65', 'the relation of encounter fullUrls to the Claims', ['encounter-full-url-episode-id']),
  sil('DEC-D1-66', 'collection or searchset where not stated', [
    'authorisation-bundle-collection',
    'hospital-claims-bundle-collection',
  ]),
  sil('DEC-D1-67', 'whether All equals no status filter', ['authorisation-default-window']),
  sil('DEC-D1-68', 'the detail total against totalInvoices', ['remittance-total-of-page']),
  sil('DEC-D1-69', 'a default window for a remittance search without filters', ['remittance-default-window']),
  sil('DEC-D1-70', 'the match rule of string filters', ['remittance-patient-name-whole-words']),
  sil('DEC-D1-71', 'the answer to a reversed date range', ['remittance-reversed-range-refused']),
  sil('DEC-D1-73', 'serve or refuse a form POST without Content-Type', ['form-content-type-optional']),
  sil('DEC-D1-74', "what a search without filters returns; where a filter's value shows", [
    'authorisation-default-window',
  ]),
  sil('DEC-D1-75', 'optional members null or absent', [
    'remittance-optional-members-null',
    'hospital-claim-optional-members-null',
    'bill-optional-members-null',
  ]),
  // Document 2
  sil('DEC-D2-03', 'refuse or clamp a page size out of bounds', ['codeset-count-clamped']),
  sil('DEC-D2-05', 'the name of the incremental-sync parameter', ['codeset-sync-parameter-other-name']),
  sil('DEC-D2-07', 'the body of a lookup without text', ['lookup-missing-text-other-body']),
  sil('DEC-D2-09', 'the answer to an unknown insurer', ['control-parameters-unknown-insurer-404']),
  sil('DEC-D2-12', 'the drill-down parameter', ['address-drill-down-parameter-other-name']),
  sil('DEC-D2-16', 'a Location position known or not', ['location-position-null']),
  sil('DEC-D2-17', 'refuse or serve a distance sort without near', ['distance-sort-without-near-unsorted']),
  sil('DEC-D2-20', 'paging of the role search', ['role-search-paged-by-default']),
  sil('DEC-D2-21', 'the match rule of name filters', ['name-filter-whole-name', 'names-matched-ignoring-accents']),
  sil('DEC-D2-22', 'which code answers a malformed _since; the form of lastUpdated', [
    'booking-since-invalid-format-code',
    'last-updated-other-forms',
  ]),
  sil('DEC-D2-24', 'the body shape of Document 2 errors', ['d2-error-body-plain']),
  sil('DEC-D2-26', 'the media type of an answer', ['media-type-without-charset', 'd2-fhir-answers-plain-json']),
  sil('DEC-D2-27', 'what a lookup total counts', ['lookup-total-of-page']),
  sil('DEC-D2-28', 'the insurer live values', ['insurer-live-other-values']),
  sil('DEC-D2-29', 'which 4xx answers an unknown photo', ['photo-unknown-practitioner-404']),
  sil('DEC-D2-30', 'refuse or serve an empty booking value; which code', [
    'booking-empty-value-served',
    'booking-invalid-value-param-invalid',
  ]),
  sil('DEC-D2-31', 'the body of a lookup without text', ['lookup-missing-text-other-body']),
  sil('DEC-D2-34', 'bundle id and fullUrl outside the lookups', ['bundle-id-and-full-urls-everywhere']),
  sil('DEC-D2-35', 'search.mode on the booking role search', ['booking-role-search-mode-match']),
  sil('DEC-D2-36', 'paging of the role search', ['role-search-paged-by-default']),
  sil('DEC-D2-37', 'collection or searchset where not stated', ['bundle-type-collection']),
  sil('DEC-D2-38', 'which code items carry extensions; lastUpdated form', [
    'codeset-item-extensions-absent',
    'last-updated-other-forms',
  ]),
  sil('DEC-D2-39', 'the ValueSet name and item system', ['valueset-name-descriptive']),
  sil('DEC-D2-41', 'the answer to an unknown set name', ['codeset-unknown-set-empty']),
  sil('DEC-D2-42', 'which members are present', [
    'photo-title-absent',
    'location-position-null',
    'retrieved-address-blank-members-null',
    'd2-optional-members-absent',
  ]),
  sil('DEC-D2-43', 'the form of a CodeableConcept', ['codeable-concept-flat']),
  sil('DEC-D2-44', 'the profession URL segment', ['profession-url-display-segment']),
  sil('DEC-D2-45', 'the form of qualification period.start', ['qualification-start-register-date-form']),
  sil('DEC-D2-46', 'codes beyond the examples', ['register-codes-beyond-examples']),
  sil('DEC-D2-47', 'what location type means', ['location-type-not-restricting']),
  sil('DEC-D2-48', 'the completeness of the edi and mii listings', ['edi-list-routed-only']),
  sil('DEC-D2-49', 'formattedAddress on search items', ['address-search-without-formatted-address']),
  sil('DEC-D2-50', 'the answer to an unknown or empty address id', [
    'address-unknown-id-refused',
    'address-empty-id-empty-list',
  ]),
  sil('DEC-D2-51', 'the answer to an unknown postcode', ['geocode-unknown-postcode-null-position']),
  sil('DEC-D2-52', 'what is-onlinebooking-available=false means', ['online-booking-false-not-restricting']),
  sil('DEC-D2-53', 'combined insurer filters', ['insurer-filters-on-one-entry']),
  sil('DEC-D2-54', 'several insurer codes', ['insurer-codes-intersection']),
  sil('DEC-D2-55', 'the order that defines "first"', ['distinct-by-answer-sorted-by-name']),
  sil('DEC-D2-56', "the display form of a role's practitioner", ['role-practitioner-display-given-family']),
  sil('DEC-D2-57', 'the form of included resources', ['included-practitioner-header-only']),
  sil('DEC-D2-58', 'which code answers an unlisted value', [
    'booking-invalid-value-param-invalid',
    'role-search-unknown-value-cant-parse',
  ]),
  sil('DEC-D2-59', 'the match rule of booking filters', ['name-filter-whole-name']),
  sil('DEC-D2-60', 'how a booking identifier is named', ['booking-identifier-by-system']),
  sil('DEC-D2-61', 'which 4xx answers a missing token', ['d2-no-token-403']),
  sil('DEC-D2-64', 'the photo title', ['photo-title-absent']),
  // Document 3
  sil('DEC-D3-08', 'which table code answers a missing patient', [
    'patient-deleted-get-reference-id-not-found',
    'condition-unknown-patient-entity-not-found',
  ]),
  sil('DEC-D3-10', 'the HTTP status of post-authorisation outcomes', ['diary-refusals-401']),
  sil('DEC-D3-11', 'the value of diary success', ['diary-success-false']),
  sil('DEC-D3-12', 'the order and paging of the payor listing', ['payors-reserved-listed-last']),
  sil('DEC-D3-14', 'honour or refuse the example parameter names', ['delete-payor-example-names-refused']),
  sil('DEC-D3-15', 'which 4xx answers a procedure without service', ['procedure-without-service-422']),
  sil('DEC-D3-19', 'the bodies of logout and revoke', ['sign-off-answers-without-body']),
  sil('DEC-D3-20', 'the media type of Document 3 answers', ['d3-fhir-answers-plain-json']),
  sil('DEC-D3-21', 'the names of site types', ['site-type-names-upper-case']),
  sil('DEC-D3-22', 'accounts members null or absent', ['accounts-optional-members-null']),
  sil('DEC-D3-23', 'a null user-info date', ['accounts-optional-members-null']),
  sil('DEC-D3-24', 'subscriptions as object or list', ['subscriptions-as-list']),
  sil('DEC-D3-25', 'the relation of the two site listings', ['sites-v1-lists-child-sites']),
  sil('DEC-D3-26', 'the letter case of site status', ['site-status-title-case']),
  sil('DEC-D3-27', 'SU-UserId of another user with a user token', ['user-details-other-user-refused']),
  sil('DEC-D3-28', 'the form of event creationDate', ['event-creation-date-iso']),
  sil('DEC-D3-29', 'diary item types and status', ['diary-ids-as-text']),
  sil('DEC-D3-30', 'the URL prefix inside resources', ['patient-extension-urls-own-prefix']),
  sil('DEC-D3-31', 'birthDate or birthdate', ['patient-birthdate-table-name']),
  sil('DEC-D3-32', 'more entries than the table allows', ['patient-telecom-entry-added']),
  sil('DEC-D3-33', 'members a server assigns to a Patient', ['patient-narrative-and-entry-ids']),
  sil('DEC-D3-34', 'the letter case of the condition reference', ['condition-reference-capitalised']),
  sil('DEC-D3-35', 'asset type as one CodeableConcept or a list', ['contract-asset-type-list']),
  sil('DEC-D3-37', 'how a Contract names its payor; listing order', ['payors-reserved-listed-last']),
  sil('DEC-D3-38', 'the answers about deleted records', ['condition-deleted-patient-404']),
  sil('DEC-D3-39', 'which 4xx answers missing credentials', ['accounts-no-token-403']),
  sil('DEC-D3-40', 'introspect with a client token', ['introspect-client-token-success']),
  sil('DEC-D3-42', 'the effect of SU-SiteId on List features', ['features-narrowed-by-site']),
  sil('DEC-D3-43', 'which 4xx answers missing input; user-info code reuse', ['user-info-code-single-use']),
  sil('DEC-D3-44', 'other members of the invalid-site answer', ['invalid-site-answer-more-members']),
  sil('DEC-D3-45', 'a sites page beyond the last; default page size; order', ['sites-page-past-last-404']),
  sil('DEC-D3-47', 'answers to the open revoke cases', ['revoke-unknown-token-refused']),
  sil('DEC-D3-48', 'the order of token-details checks', [
    'token-details-redirect-checked-first',
    'token-details-unknown-idp-first',
  ]),
  sil('DEC-D3-49', 'the meaning of the token-details code', ['token-details-code-as-text']),
  sil('DEC-D3-50', 'whether StateToken is echoed', ['diary-state-token-as-state']),
  sil('DEC-D3-51', 'answers of a bad refresh; the old token after a refresh', ['diary-refresh-revokes-old-token']),
  sil('DEC-D3-52', 'which 2xx answers a write', ['writes-other-2xx']),
  sil('DEC-D3-53', 'which table code answers a bad patient request', ['patient-errors-other-fitting-codes']),
  sil('DEC-D3-54', 'which update code answers an unknown id', ['patient-update-unknown-id-invalid-resource']),
  sil('DEC-D3-55', 'the body shape of patient errors', ['patient-error-body-plain']),
  sil('DEC-D3-36', 'whether a price Contract names its site as subject', ['price-contracts-without-site-subject']),
  sil('DEC-D3-56', 'which effective-price filters are required', ['effective-prices-payor-required']),
  sil('DEC-D3-57', 'the contents of the sub-type ValueSet', ['contract-subtypes-payor-kinds']),
  sil('DEC-D3-58', 'answers of payor create on an existing payor', ['payor-create-existing-refused']),
  sil('DEC-D3-59', 'the JSON form of location and expression', ['deleted-outcome-text-forms']),
  sil('DEC-D3-60', 'require a Contract id on set-contract-price', ['contract-price-id-required']),
  sil('DEC-D3-67', 'take or refuse a body outside the resource shape', ['patient-misshapen-members-ignored']),
  sil('DEC-D3-68', 'validate the form of a patient e-mail', ['patient-email-validated'], {
    http: 'formats the server validates',
  }),
  sil('DEC-D3-69', 'refuse a Condition body carrying its own id', ['condition-id-refused'], {
    http: 'server-assigned members refused or ignored on create',
  }),
  sil('DEC-D3-70', 'accept a diary authorisation code once only', ['diary-code-single-use'], {
    http: 'single-use authorisation codes',
  }),
  sil('DEC-D3-71', 'create a new payor on each upsert without id', ['payor-upsert-without-id-creates']),
  // All documents
  sil('DEC-R-03', 'serve or refuse an empty value where no code names it', [
    'booking-empty-value-served',
    'postcode-empty-validated-false',
    'address-empty-id-empty-list',
  ]),
  sil('DEC-R-04', 'the order in which a server checks a request', ['token-details-unknown-idp-first']),
  sil('DEC-R-05', 'load refusals 429 or 503 with Retry-After', ['load-shed-429']),
  sil('DEC-R-06', 'a page shorter than count asks for', ['page-size-capped-20'], { http: 'a page shorter than count' }),
  sil('DEC-R-07', 'a transient 503 without Retry-After', ['transient-503-once'], {
    http: 'transient 502/503/504 without Retry-After',
  }),
  sil('DEC-R-08', 'negotiate the answer on Accept (application/fhir+json only)', ['fhir-accept-only'], {
    http: 'content negotiation on Accept',
  }),
  sil('DEC-R-09', 'a content coding when no Accept-Encoding is named', ['gzip-content-coding'], {
    http: 'content coding without Accept-Encoding',
  }),
  sil('DEC-R-10', 'a page past the last (an empty result) written without entry', ['empty-bundle-without-entry'], {
    http: 'a page past the last',
  }),
  sil('DEC-R-11', 'match names ignoring letter case and accents', ['names-matched-ignoring-accents'], {
    http: 'case- and accent-insensitive matching',
  }),
  // Client certification
  sil('DEC-C-01', 'what a client does after a refusal', ['stop-after-refusal'], { client: true }),
  sil('DEC-C-03', "the name of the patients' version header a client sends", ['patient-version-header-other-name'], {
    client: true,
  }),
  sil('DEC-C-04', 'how a client finds the last page', ['page-past-last'], { client: true }),
  sil('DEC-C-05', 'what a client does with an unreadable answer', ['lists-again-after-unreadable-list'], {
    client: true,
  }),
  sil('DEC-C-06', 'a client running in a browser of another origin', ['browser-preflight'], { client: true }),
  sil(
    'DEC-C-09',
    'a client naming an id or key it stored earlier',
    ['reads-stored-patient', 'retrieves-stored-address'],
    {
      client: true,
    },
  ),
  sil('DEC-C-10', 'how often a client fetches a discovery document', ['caches-discovery'], { client: true }),
  sil('DEC-C-11', 'when a client takes a new token', ['refreshes-token-early'], { client: true }),
  sil('DEC-C-12', 'the page size a client asks for', ['pages-of-25'], { client: true }),
  sil(
    'DEC-C-13',
    'how much of an answer a consumer pact relies on',
    ['relies-on-fewer-members', 'tests-documented-refusals'],
    {
      client: true,
    },
  ),
  sil('DEC-C-14', 'the kind of token a client sends to the patient operations', ['client-token-for-patients'], {
    client: true,
  }),
];

/** Decisions that record no freedom of a server, each with why. */
export const NO_FREEDOM: readonly NoFreedom[] = [
  none(
    'DEC-D1-02',
    'stated-rule',
    'the documents name the paging code of each bundle (maxRecords for the pending list)',
  ),
  none('DEC-D1-08', 'suite-config', 'where the suite finds the discovery documents (configurable per service)'),
  none('DEC-D1-09', 'suite-request', 'how the suite appends path parameters to a discovered address'),
  none('DEC-D1-10', 'suite-config', 'where the suite gets its token (config, environment variables)'),
  none('DEC-D1-29', 'stated-rule', 'the filters are the values the records show (servicedDate, patient.display)'),
  none('DEC-D1-30', 'stated-rule', 'the suite judges only filters whose value the bill shows; the rest are not judged'),
  none('DEC-D1-32', 'suite-request', 'the suite sends no version header to other operations'),
  none('DEC-D1-33', 'suite-config', "which reserved operations a run omits is the config's"),
  none('DEC-D1-77', 'suite-config', "a date the member's policy is not active on is the config's fixture"),
  none('DEC-D1-44', 'suite-request', 'how the suite form-encodes postCode'),
  none('DEC-D1-72', 'stated-rule', 'each comparator names the field it compares by its own name'),
  none(
    'DEC-D1-76',
    'suite-request',
    'how the suite derives requests; the freedoms it names are their own rows (DEC-D1-24, DEC-D2-03, DEC-D2-41, DEC-D2-50)',
  ),
  none('DEC-D2-01', 'suite-config', 'where the suite finds the discovery documents (configurable per service)'),
  none('DEC-D2-02', 'suite-request', 'which code-set paths the suite requests'),
  none('DEC-D2-04', 'stated-rule', 'FHIR R4 ValueSet.expansion defines offset and total'),
  none('DEC-D2-06', 'stated-rule', 'a narrowed set is a subset under any reading of "narrowed"'),
  none('DEC-D2-08', 'stated-rule', 'the meanings of edi and mii are stated'),
  none('DEC-D2-10', 'stated-rule', 'the four names, their values and the extension URL are stated'),
  none('DEC-D2-11', 'stated-rule', '"retrieval needs the type Address" is stated'),
  none('DEC-D2-13', 'stated-rule', 'the encoding of | as %7C is stated'),
  none('DEC-D2-14', 'suite-request', 'how the suite addresses geo-coding and validation under one key'),
  none('DEC-D2-15', 'stated-rule', 'the validation answer for an invalid postcode is stated'),
  none('DEC-D2-18', 'stated-rule', 'name sort in the stated name format'),
  none('DEC-D2-19', 'stated-rule', '_include and search.mode are stated'),
  none('DEC-D2-23', 'stated-rule', 'one entry and the 404 code are stated'),
  none('DEC-D2-25', 'stated-rule', 'the photo members are stated'),
  none('DEC-D2-32', 'never-seen', 'the suite always sends count, so a default page size is never seen'),
  none('DEC-D2-33', 'suite-config', "which reserved operations a run omits is the config's"),
  none('DEC-D2-40', 'stated-rule', 'ICD9 is a documented scheme of condition-code'),
  none('DEC-D2-62', 'suite-request', 'the suite sends no version header'),
  none('DEC-D2-63', 'stated-rule', 'each table code is tied to its status'),
  none('DEC-D2-65', 'suite-request', 'how the suite derives requests; the freedoms it names are their own rows'),
  none('DEC-D3-01', 'suite-config', 'where the suite finds the discovery documents (configurable per service)'),
  none('DEC-D3-02', 'suite-config', 'where the suite finds the discovery documents (configurable per service)'),
  none('DEC-D3-03', 'suite-config', 'which credentials the config names'),
  none('DEC-D3-04', 'stated-rule', 'the status, code and message of accounts errors are stated'),
  none('DEC-D3-05', 'stated-rule', 'the pagination members of sites v2 are stated'),
  none('DEC-D3-06', 'stated-rule', 'revocation and its effect are stated'),
  none('DEC-D3-07', 'suite-config', "the version header name is the config's; the 401 is stated"),
  none('DEC-D3-09', 'suite-request', 'the suite sends the update path as given'),
  none('DEC-D3-13', 'suite-rule', 'the suite cleans up what it creates (its own house rule)'),
  none('DEC-D3-16', 'suite-request', 'the suite sends the user token as Bearer'),
  none('DEC-D3-17', 'stated-rule', 'logout answers 200 and ends the session'),
  none('DEC-D3-18', 'suite-config', "which reserved operations a run omits is the config's"),
  none('DEC-D3-41', 'never-seen', "the suite does not provoke Introspect's 400; its body form is stated"),
  none('DEC-D3-46', 'suite-request', 'the suite sends the token to end as Bearer'),
  none('DEC-D3-61', 'suite-request', 'the suite sends no version header'),
  none('DEC-D3-62', 'suite-rule', 'destructive flows run only with --allow-destructive'),
  none('DEC-D3-63', 'never-seen', 'the suite sends only documented extensions, so the answer to another is never seen'),
  none('DEC-D3-64', 'never-seen', 'the suite sends no empty Condition text, so the answer to one is never seen'),
  none('DEC-D3-65', 'suite-request', 'how the suite derives requests; the freedoms it names are their own rows'),
  none('DEC-D3-66', 'never-seen', 'the suite sends no empty text or list in a Patient'),
  none('DEC-R-01', 'suite-rule', 'which data the reports mask'),
  none('DEC-R-02', 'suite-rule', 'how much a run must judge before it may say conformant'),
  none('DEC-C-02', 'stated-rule', 'addresses are read from discovery documents by key'),
  none('DEC-C-07', 'stated-rule', 'version 1 is deprecated and migration is mandatory'),
  none('DEC-C-08', 'stated-rule', 'a batch id must be one the pending list returned'),
];

/**
 * The words a silence rests on, read from its decision's "document says" cell: its quotations
 * (of three words or more) joined, else the cell itself.
 */
export function wordsOf(decision: Pick<Decision, 'documentSays'>): string {
  const quotes = [...decision.documentSays.matchAll(/"([^"]+)"/g)]
    .map((m) => m[1])
    .filter((q) => q.trim().split(/\s+/).length >= 3);
  return quotes.length > 0 ? quotes.map((q) => `"${q}"`).join(' ') : decision.documentSays;
}

export interface RegisterLine {
  silence: Silence;
  decision: Decision | undefined;
  words: string;
  pending: string | undefined;
}

/** The register as `conformance variants --silences` prints it, in the order of SILENCES. */
export function silenceRegister(): RegisterLine[] {
  const byId = new Map(loadDecisions().map((d) => [d.id, d]));
  return SILENCES.map((silence) => {
    const decision = byId.get(silence.decision);
    return {
      silence,
      decision,
      words: decision ? wordsOf(decision) : '',
      pending: PENDING[silence.decision],
    };
  });
}
