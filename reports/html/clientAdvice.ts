/**
 * What a partner changes in their client when a client check fails: one sentence per check of a
 * client certification or pact check, shown under the failure in report.html.
 */
export const CLIENT_ADVICE: Readonly<Record<string, string>> = {
  'client-uses-discovered-address':
    "Read every operation's address from the service's discovery document by its key at start-up; do not build addresses from a base URL or keep them in configuration.",
  'client-sends-header':
    "Send every header the operation's row lists (Document section 4), with the documented value or scheme: SU-SiteId on site-dependent operations, SVC-API-Version with the exact version meant, Authorization with the documented scheme.",
  'client-sends-documented-parameters':
    'Send every required field of the operation, each in its documented form (dates as YYYY-MM-DD, insurer codes of the operation list, positive counts).',
  'client-body-matches-schema':
    'Send the resource the operation describes (for example a Patient without id to create one); the report quotes what the schema refused.',
  'client-encodes-pipe': "Percent-encode `|` as %7C in paths and query values (use your HTTP library's URL encoding).",
  'client-avoids-reserved':
    "Remove calls to operations reserved for the operator's own products; if your product is one of them, certify with --operator-product.",
  'client-avoids-deprecated':
    'Move from Find Member version 1 to version 2 (SVC-API-Version: 2 and its two-step flow).',
  'client-create-without-id':
    'Send the Patient to create without `id`: the server answers the new id, which you store and use from then on (Document 3, 4.4).',
  'client-refines-after-multiple-match':
    'On MULTIPLE_MATCH_FOUND, repeat the search once with sex, postCode and policyActiveOn added (step 2); do not resend step 1.',
  'client-acknowledges-after-get':
    'Acknowledge (DELETE) a remittance batch only after you have fetched and imported it; never acknowledge a batch you have not read.',
  'client-no-blind-retry':
    'After a refusal, change the request or stop; after a 401, obtain a new token before trying again.',
  'client-reads-discovery':
    "Fetch the service's discovery document (the address you were given) and read each operation's address from it by its key; an address built from another (the token endpoint's base) is one of your own, even when it happens to be right.",
  'client-authenticates-as-client':
    "Send token details with Authorization: Basic of your client's own id and secret (BASE64(client_id:client_secret)), never a user's name and password, and never a token (in Authorization or in the query).",
  'client-fetches-listed-batch':
    'List the pending remittance batches first and fetch and acknowledge only a batch the list answered (Document 1, 4.6 to 4.8); do not keep batch ids across runs.',
  'client-uses-created-patient-id':
    'Store the id the create answered and address the patient by it (path, update body, the condition note patient/<id>); an id of your own names no patient.',
  'client-retrieves-address-item':
    'Drill down with repeated searches until an item of type Address appears, and retrieve only that item by its key; keys of streets and postcodes only serve to drill down.',
  'client-revoke-names-client':
    'Send the headers ClientId and secret with every revoke of a token your client obtained (Document 3, 4.2 and 5).',
  'client-pages-to-last-page':
    "Ask page after page until the answer's paging tags show the last page, and stop there (at most one empty page past it).",
  'client-no-action-on-malformed-answer':
    'When an answer does not parse, act on nothing it might have said: stop, or ask again, and acknowledge only a batch you have fetched.',
  'agrees-with-open-api':
    'Align the interaction with the exported OpenAPI document (npx conformance openapi): the path, parameters, headers and body it allows, and only the answers it documents.',
  'pact-interaction-verified':
    'Expect only what the provider answers per the documents: relax the pact to the members and statuses the documents fix.',
  'scenario-completed':
    "Run the scenario's flow in your application within the time-out (npx conformance certify-client --list shows what each scenario asks).",
};
