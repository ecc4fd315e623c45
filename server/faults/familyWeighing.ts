/**
 * The weighing of the behavioural family faults (families.ts) the power computation listed as
 * missed (`familyMissed`: they changed answers and no MUST failure caught them) or as caught only by
 * failures citing no row of their kind (`familyUncited`) in spec/evidence/power.json.
 *
 * Each verdict rests on the documents' words:
 * - `hole-fixed`: the documents forbid what the fault does; the reason names the check (and row)
 *   that now catches it at MUST, or the row of its kind the catching failure is now credited with;
 * - `allowed`: the documents allow what the fault does (or leave it open, a decision records it), or
 *   the fault's kind has no row for the operation while a MUST failure still catches it;
 * - `unobservable`: the fault cannot change a judgement the documents let the suite make at MUST;
 * - `open`: a candidate hole not yet weighed to the end; the test pins how many may stay open.
 *
 * familyWeighing.test.ts fails when power.json lists a fault without a verdict here.
 */
export type FamilyVerdict = 'hole-fixed' | 'allowed' | 'unobservable' | 'open';

const D1_FIND_MEMBER_OPEN =
  'D1 4.1: "depends on insurer" and "Per-insurer mandatory and optional rules: not shown." (D1-4.1-08 INFO): the documents do not say the member found must match this field, so a server may match without it';
const D3_CONTRACTS_NO_ERRORS =
  'D3 7: "Contract operations and code-set style lists return no operation-specific errors; no match yields an empty result set."; D3 5: "Contract operations: authentication: not shown."';
const D3_OPEN_DELETE_ANSWERS =
  'DEC-D3-38: "the answers to requests about a deleted patient (an update, a second delete), to a second delete of a condition, and to deletes of unknown ids are not shown" (only "must not be a 5xx"); the derived invalid requests the table names no trigger for are SHOULD (DEC-D3-65: "where the table names nothing for the trigger, a 4xx (SHOULD)")';
const SUCCESS_ROW_CITED =
  'citation fixed: rowOfFamilyKind now reads a success row written "The response is ..." / "answers <Resource>" as of the success kind';
const NOT_5XX_ROW_CITED =
  'citation fixed: rowOfFamilyKind (refusal-as-5xx) now reads a row saying a request "is not answered with a 5xx status" as of the kind; not-server-error cites it';

/** A miss now caught: success-status fails at MUST citing the row, quoted. */
const successCited = (row: string, words: string) => ({
  verdict: 'hole-fixed' as const,
  reason: `${SUCCESS_ROW_CITED}: success-status cites ${row} (${words})`,
});
/** A miss now caught: the 5xx is failed at MUST citing the row named (and quoted). */
const not5xxCited = (row: string) => ({ verdict: 'hole-fixed' as const, reason: `${NOT_5XX_ROW_CITED} (${row})` });

export const FAMILY_WEIGHING: Record<string, { verdict: FamilyVerdict; reason: string }> = {
  // ---- familyMissed: find member
  'family:filter-ignored:find-member-v1:firstInitial': { verdict: 'allowed', reason: D1_FIND_MEMBER_OPEN },
  'family:filter-ignored:find-member-v1:postCode': { verdict: 'allowed', reason: D1_FIND_MEMBER_OPEN },
  'family:filter-ignored:find-member-v1:policyActiveOn': {
    verdict: 'hole-fixed',
    reason:
      'D1 4.1: policyActiveOn is the "Date (`YYYY-MM-DD`) on which the policy must be active". With the fixture findMemberV1.policyInactiveOn (DEC-D1-77; the sandbox config names 2020-06-01) the single search with that date must answer NO_MATCH_FOUND: error-status-and-code fails at MUST citing D1-4.1-13 when the field is ignored (targeted run, seed 5)',
  },
  'family:filter-ignored:find-member-v2:sex': {
    verdict: 'allowed',
    reason:
      'D1 4.2: `sex` | no | Gender, and step 2 only says "Repeat with the optional fields `sex`, `postCode`, `policyActiveOn` added. Outcomes: one match returns Coverage"; no sentence says a member of another recorded gender must not match (DEC-D1-43: the gender value is not listed)',
  },
  'family:filter-ignored:find-member-v2:policyActiveOn': {
    verdict: 'hole-fixed',
    reason:
      'D1 4.2: "(2) Repeat with the optional fields `sex`, `postCode`, `policyActiveOn` added. Outcomes: ... no match returns `NO_MATCH_FOUND`". With the fixture findMemberV2.policyInactiveOn (DEC-D1-77) the single search with that date must find no member: error-status-and-code fails at MUST citing D1-4.2-11 when the field is ignored (targeted run, seed 5)',
  },
  // ---- authorisation, remittance, clearing
  'family:sort-one-direction:search-authorisation': {
    verdict: 'unobservable',
    reason:
      'DEC-D1-22: "The order itself cannot be judged, since the issue date\'s place in the Claim is not shown ... a difference is a warning"; sort-orders-reverse warns at SHOULD (D1-4.3-12) on this fault (seed 7); equal issue dates make identical orders lawful, so no MUST judgement can tell',
  },
  'family:page-skip:search-remittance-summary': {
    verdict: 'hole-fixed',
    reason:
      'DEC-D1-12: total is "the number of matches (the same on every page and equal to the distinct entries collected over all pages)". The paging walk (suites/search-remittance.suite.ts) now walks up to 20 pages (DEC-R-06) so it ends; total-consistent fails at MUST citing D1-2.1-09 (total 48, 47 collected)',
  },
  'family:bearer-not-enforced:ack-remittance': {
    verdict: 'hole-fixed',
    reason:
      'D1 5 / D1-5-04: "a request without a token is refused with a 4xx status and returns no data". The token-less ack was sent for an unknown batch (refused 404 InvalidId whatever the token); it now names a pending batch the target holds, and request-refused fails at MUST citing D1-5-04 (HTTP 200)',
  },
  'family:code-unlisted:search-hospital-claims': {
    verdict: 'allowed',
    reason:
      'D1 7: "Hospital-claim and bill operations may return error messages"; DEC-D1-13: "codes and statuses of their errors are not shown" (MUST 4xx, INFO code)',
  },
  'family:code-unlisted:search-bills': {
    verdict: 'allowed',
    reason:
      'D1 7: "Hospital-claim and bill operations may return error messages"; DEC-D1-13: "codes and statuses of their errors are not shown" (MUST 4xx, INFO code); the codes of the operation table are the sandbox\'s',
  },
  'family:filter-ignored:search-bills:cuid': {
    verdict: 'allowed',
    reason:
      'D1-4.11-04 (INFO): "Where a bill shows `insurerid` and `cuid` is not shown; these filters are not judged (DEC-D1-30)"',
  },
  'family:code-unlisted:get-bill': {
    verdict: 'allowed',
    reason:
      'D1 7: "Hospital-claim and bill operations may return error messages"; DEC-D1-13: "codes and statuses of their errors are not shown" (an unknown bill: MUST 4xx, INFO code)',
  },
  // ---- reference data, register, booking
  'family:filter-ignored:get-code-set:_since': {
    verdict: 'allowed',
    reason:
      'D2-4.1-13 (INFO): "The names of the incremental-sync query parameters are not given; the suite uses `_since` (DEC-D2-05)"',
  },
  'family:filter-ignored:lookup-locations:type': {
    verdict: 'allowed',
    reason:
      'D2-4.3-04 (INFO): "The meaning of the `type` values is not shown; whether the `type=P` result is a subset of the unfiltered one is recorded (DEC-D2-47)"',
  },
  'family:code-unlisted:get-practitioner-photo': {
    verdict: 'allowed',
    reason:
      'DEC-D2-29: the answer for an unknown practitioner photo "is not shown" ("must be refused with a 4xx"; code INFO); DEC-D2-65/DEC-D3-65: a value naming a record the target may not hold "may be refused with any code"',
  },
  'family:status-swapped:get-practitioner-photo': {
    verdict: 'hole-fixed',
    reason:
      'D2 7 register table ("422 | MSG_REFERENCE_ID_NOT_FOUND"); D2-7-28: "Whenever a documented error code of the register or booking table is returned, its HTTP status is the one of the table." documented-code-has-its-status fails at MUST citing D2-7-28 on the unknown-photo answer and, now, on every derived request (suites/common/derivedRequests.ts; targeted run, seed 7: 422 expected, 400 received)',
  },

  'family:page-skip:search-booking-practitioners': {
    verdict: 'hole-fixed',
    reason:
      'DEC-D2-27: "Same paging rules as DEC-D1-12 (tags as digit text echoing the request, bounds, no overlap, consistent total)"; DEC-D1-12: total "equal to the distinct entries collected over all pages". The booking paging walk (suites/booking.suite.ts) now walks up to 20 pages (DEC-R-06) so it ends; total-consistent fails at MUST citing D2-2.1-11, D2-4.12-17 (24 stated, 23 collected; seed 7)',
  },

  'family:page-skip:search-booking-practitioner-roles': {
    verdict: 'hole-fixed',
    reason:
      'DEC-D2-27: "Same paging rules as DEC-D1-12 (tags as digit text echoing the request, bounds, no overlap, consistent total)"; DEC-D1-12: total "equal to the distinct entries collected over all pages". The booking paging walk (suites/booking.suite.ts) now walks up to 20 pages (DEC-R-06) so it ends; total-consistent fails at MUST citing D2-2.1-11, D2-4.13-08 (33 stated, 32 collected; seed 7)',
  },

  // ---- accounts
  'family:bearer-not-enforced:introspect': {
    verdict: 'unobservable',
    reason:
      'The fault puts a client-credentials token without a user in place of the missing one, and introspect refuses that too (D3 7: "Introspect, List features | 400 | userId not found in authentication token"): the answer stays a 4xx refusal, which is all D3-5-01 asks ("refused with a 4xx status and returns no data"); seed 7 run: request-refused passes on HTTP 400',
  },
  'family:refusal-accepted:list-authorised-sites-v2': {
    verdict: 'hole-fixed',
    reason:
      'D3 5 / D3-5-01: a request "without a token, or with an unknown one, is refused with a 4xx status and returns no data". The suite now catches it: tokenRequired on sites v2 (suites/accounts.suite.ts) fails request-refused at MUST citing D3-5-01 (HTTP 200; targeted run, seed 7); the miss in power.json predates that check',
  },

  // ---- patients
  'family:bearer-not-enforced:get-patient': {
    verdict: 'hole-fixed',
    reason:
      'D3 5: "When any mandatory header is absent the response is HTTP 401 with an error object." The missing-header requests to get patient were judged as create-patient\'s; they are now judged on get-patient: status-is fails at MUST citing D3-5-10, D3-7-40, D3-4.4-01',
  },
  'family:site-header-ignored:get-patient': {
    verdict: 'hole-fixed',
    reason:
      'D3 5: "a bearer token, together with `SU-SiteId`. When any mandatory header is absent the response is HTTP 401". The request without SU-SiteId to get patient is now judged on get-patient (status-is, D3-5-10 / D3-7-40 at MUST)',
  },
  'family:header-ignored:get-patient:SVC-API-Version': {
    verdict: 'hole-fixed',
    reason:
      'D3-7-40: "missing mandatory headers are answered HTTP 401; the bearer token, `SU-SiteId` and the version-id header are each omitted in turn (DEC-D3-07)". Now judged on get-patient (status-is at MUST)',
  },
  'family:refusal-accepted:delete-patient': { verdict: 'allowed', reason: D3_OPEN_DELETE_ANSWERS },
  'family:code-unlisted:delete-patient': { verdict: 'allowed', reason: D3_OPEN_DELETE_ANSWERS },
  'family:status-swapped:delete-patient': {
    verdict: 'hole-fixed',
    reason:
      'D3-7-39: "Whenever a documented patient error code is returned, its HTTP status is the one of the operation\'s table". The open answers of DEC-D3-38 and the derived requests now judge documented-code-has-its-status at MUST citing D3-7-39',
  },
  'family:refusal-accepted:delete-condition': { verdict: 'allowed', reason: D3_OPEN_DELETE_ANSWERS },
  'family:code-unlisted:delete-condition': { verdict: 'allowed', reason: D3_OPEN_DELETE_ANSWERS },
  'family:status-swapped:delete-condition': {
    verdict: 'hole-fixed',
    reason:
      'D3 7: "Patient create, get, condition operations: ... 404 MSG_ENTITY_NOT_FOUND_IN_DATABASE ..."; D3-7-39: "its HTTP status is the one of the operation\'s table". The derived requests now judge documented-code-has-its-status at MUST citing D3-7-39 (a 400 MSG_ENTITY_NOT_FOUND_IN_DATABASE, a 422 MSG_MISSING_MANDATORY_PARAM)',
  },
  // ---- contracts
  'family:refusal-accepted:get-effective-prices': { verdict: 'allowed', reason: D3_CONTRACTS_NO_ERRORS },
  'family:refusal-as-5xx:get-effective-prices': {
    verdict: 'allowed',
    reason: `${D3_CONTRACTS_NO_ERRORS}; DEC-D3-65: a request of documented form "must not get a 5xx" is SHOULD ("the documents do not promise that every value is served")`,
  },
  'family:filter-ignored:get-effective-prices:site': {
    verdict: 'unobservable',
    reason:
      "DEC-D3-56: \"The suite always sends `site` (the run's site)\"; the fault serves the token's site, which is the run's site, so every Contract still names it; a second site the token may price for is not configured",
  },
  'family:filter-ignored:get-effective-prices:location': {
    verdict: 'allowed',
    reason: 'DEC-D3-56: "how each filters ... not shown"; "Recorded: the effect of `payor` and `location`"',
  },
  'family:filter-ignored:get-effective-prices:payor': {
    verdict: 'allowed',
    reason: 'DEC-D3-56: "how each filters ... not shown"; "Recorded: the effect of `payor` and `location`"',
  },
  'family:filter-ignored:get-effective-prices:_since': {
    verdict: 'allowed',
    reason:
      'D3 4.5: "paging and incremental-sync parameters supported" with no names; DEC-D3-56: "whether the target honours these parameters is recorded"',
  },
  'family:page-ignored:get-effective-prices': {
    verdict: 'allowed',
    reason:
      'DEC-D3-56: the names of the "paging and incremental-sync parameters" are not shown; "whether the target honours these parameters is recorded"',
  },
  'family:count-ignored:get-effective-prices': {
    verdict: 'allowed',
    reason:
      'DEC-D3-56: the names of the "paging and incremental-sync parameters" are not shown; "whether the target honours these parameters is recorded"',
  },
  'family:refusal-accepted:list-site-payors': { verdict: 'allowed', reason: D3_CONTRACTS_NO_ERRORS },
  'family:refusal-as-5xx:list-site-payors': {
    verdict: 'allowed',
    reason: `${D3_CONTRACTS_NO_ERRORS}; a 5xx to a request the documents give no refusal for is SHOULD (DEC-D3-65)`,
  },
  'family:refusal-accepted:upsert-payor': {
    verdict: 'allowed',
    reason: `${D3_CONTRACTS_NO_ERRORS}; DEC-D3-58: a body without subject or authority is "not a 5xx (MUST), recorded"`,
  },
  'family:refusal-accepted:delete-payor': {
    verdict: 'allowed',
    reason: `${D3_CONTRACTS_NO_ERRORS}; DEC-D3-59: deleting what does not exist is "not a 5xx (MUST), recorded"`,
  },
  'family:refusal-accepted:upsert-contact-payor': {
    verdict: 'allowed',
    reason: `${D3_CONTRACTS_NO_ERRORS}; DEC-D3-58: a body without subject or authority is "not a 5xx (MUST), recorded"`,
  },
  'family:refusal-accepted:delete-contact-payor': {
    verdict: 'allowed',
    reason: `${D3_CONTRACTS_NO_ERRORS}; DEC-D3-59: deleting what does not exist is "not a 5xx (MUST), recorded"`,
  },
  'family:refusal-accepted:set-contract-service': {
    verdict: 'allowed',
    reason: `${D3_CONTRACTS_NO_ERRORS}; DEC-D3-67: negative bodies "should be refused with a 4xx (SHOULD)"`,
  },
  'family:refusal-as-5xx:set-contract-service': {
    verdict: 'allowed',
    reason: `${D3_CONTRACTS_NO_ERRORS}; DEC-D3-67: negative bodies "should be refused with a 4xx (SHOULD)"; no row says a malformed service body is not a 5xx`,
  },
  'family:refusal-accepted:delete-contract-service': {
    verdict: 'allowed',
    reason: `${D3_CONTRACTS_NO_ERRORS}; DEC-D3-59: deleting what does not exist is "not a 5xx (MUST), recorded"`,
  },
  'family:refusal-accepted:delete-contract-service-with-procedure': {
    verdict: 'allowed',
    reason: `${D3_CONTRACTS_NO_ERRORS}; DEC-D3-59: deleting what does not exist is "not a 5xx (MUST), recorded"`,
  },
  'family:refusal-accepted:set-contract-price': {
    verdict: 'allowed',
    reason: `${D3_CONTRACTS_NO_ERRORS}; DEC-D3-67: negative bodies "should be refused with a 4xx (SHOULD)"`,
  },
  'family:refusal-as-5xx:set-contract-price': {
    verdict: 'allowed',
    reason: `${D3_CONTRACTS_NO_ERRORS}; DEC-D3-67: negative bodies "should be refused with a 4xx (SHOULD)"; no row says a malformed price body is not a 5xx`,
  },

  // ---- familyUncited
  'family:filter-ignored:find-member-v1:lastName': {
    verdict: 'allowed',
    reason: `caught at MUST (error-status-and-code: MULTIPLE_MATCH_FOUND, D1-4.1-14, D1-7-02); no MUST row of find-member-v1 names lastName: ${D1_FIND_MEMBER_OPEN}`,
  },
  'family:filter-ignored:find-member-v1:membershipNumber': {
    verdict: 'allowed',
    reason: `caught at MUST (error-status-and-code D1-4.1-13/D1-7-01, success-status D1-4.1-12); the only MUST row naming membershipNumber is the Coverage shape (D1-2.2-03), not the search: ${D1_FIND_MEMBER_OPEN}`,
  },
  'family:filter-ignored:search-remittance-detail:invoiceTotal': {
    verdict: 'hole-fixed',
    reason:
      'D1-4.5-09 (MUST): "`invoiceTotal` ... keeps the details whose invoice total satisfies" the comparator. The suite now catches it citing that row: entries-match-filter fails at MUST citing D1-4.5-09 (invoiceTotal=le210.5, 14 of 15 entries do not match; targeted run, seed 7); the power.json entry predates that',
  },

  'family:success-as-5xx:list-pending-remittances': successCited(
    'D1-4.6-05',
    `"The response is a Bundle of \`type\` \`collection\`"`,
  ),
  'family:success-as-5xx:get-remittance-details': successCited(
    'D1-4.7-02',
    `"The response is the batch object of 2.6."`,
  ),
  'family:success-as-5xx:search-address': successCited(
    'D2-4.6-02',
    `"The response is a JSON array of address search items"`,
  ),
  'family:success-as-5xx:geocode-postcode': successCited('D2-4.8-02', `"The geo-coding response is an object ..."`),
  'family:success-as-5xx:get-practitioner-photo': successCited(
    'D2-4.10-02',
    `"The response is a Parameters resource with the photo"`,
  ),
  'family:success-as-4xx:get-practitioner-photo': successCited(
    'D2-4.10-02',
    `"The response is a Parameters resource with the photo"`,
  ),
  'family:refusal-as-5xx:list-authorised-sites-v2': not5xxCited(
    `D3-4.1-28: "A page beyond the last ... are not answered with a 5xx status"`,
  ),
  'family:refusal-as-5xx:delete-patient': not5xxCited(
    `D3-3-06: "... deletes of unknown ids are not answered with a 5xx status"`,
  ),
  'family:success-as-5xx:delete-condition': successCited(
    'D3-4.4-18',
    `"answers Parameters with \`Status\` = \`DELETED\`"`,
  ),
  'family:success-as-4xx:delete-condition': successCited(
    'D3-4.4-18',
    `"answers Parameters with \`Status\` = \`DELETED\`"`,
  ),
  'family:refusal-as-5xx:delete-condition': not5xxCited(
    `D3-3-06: "a second delete of a condition ... not answered with a 5xx status"`,
  ),
  'family:filter-ignored:get-effective-prices:service-code': {
    verdict: 'hole-fixed',
    reason:
      'citation fixed: D3-7-44 ("effective prices for a service code nothing is priced for answer an empty Bundle") names the parameter as "service code"; rowOfFamilyKind now reads a hyphenated parameter written with a space, so bundle-is-empty credits D3-7-44',
  },
  'family:refusal-as-5xx:upsert-payor': not5xxCited(
    `D3-4.5-19: "A Contract without the required \`subject\` ... is not answered with a 5xx status"`,
  ),
  'family:refusal-as-5xx:delete-payor': not5xxCited(
    `D3-4.5-38: "Deleting a payor ... that does not exist is not answered with a 5xx status"`,
  ),
  'family:refusal-as-5xx:upsert-contact-payor': not5xxCited(`D3-4.5-19`),
  'family:refusal-as-5xx:delete-contact-payor': not5xxCited(`D3-4.5-38`),
  'family:refusal-as-5xx:delete-contract-service': not5xxCited(`D3-4.5-38`),
  'family:refusal-as-5xx:delete-contract-service-with-procedure': not5xxCited(`D3-4.5-38`),
};
