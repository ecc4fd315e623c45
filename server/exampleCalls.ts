/**
 * Example calls of every operation against the sandbox, success and error cases, shared by the
 * sandbox's schema test (schemaConformance.test.ts) and the OpenAPI export's test
 * (openapi/sandboxAnswers.test.ts): each names the operation it calls.
 */
import { CODE_SET_NAMES } from '../spec/operationsD2.ts';
import { REF_URL } from './resources/urls.ts';
import { basicAuth, paths, withQuery, type Answer, type TestSandbox } from './testSupport.ts';

/** One example call: it sends its requests to the sandbox and returns the answer of the last. */
export type Call = (s: TestSandbox) => Promise<Answer>;

const hospitalSearch = `${paths.hospitalSearch}?${new URLSearchParams({ dateCompleted: '2026-03-14', treatmentSiteName: 'St Elsewhere Hospital', patientLastName: 'Smith', patientDateOfBirth: '1980-04-12' })}`;

/** Success cases of Documents 1 and 2: operation id, label, call (HTTP 200 expected). */
export const SUCCESS: [operationId: string, label: string, call: Call][] = [
  [
    'find-member-v2',
    'ppp J Smith (money co-payment)',
    (s) =>
      s.findMember('2', { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1980-04-12' }),
  ],
  [
    'find-member-v2',
    'nuh A Jones step 2 (percentage co-payment)',
    (s) =>
      s.findMember('2', {
        insurerIdentifier: 'nuh',
        firstInitial: 'A',
        lastName: 'Jones',
        dateOfBirth: '1975-09-30',
        sex: 'Female',
        postCode: 'AB1 2CD',
        policyActiveOn: '2026-06-01',
      }),
  ],
  [
    'find-member-v2',
    'expired ppp policy',
    (s) =>
      s.findMember('2', { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1982-11-03' }),
  ],
  [
    'find-member-v1',
    'bup BUP100001',
    (s) => s.findMember('1', { insurerIdentifier: 'bup', membershipNumber: 'BUP100001' }),
  ],
  ['search-authorisation', 'every record', (s) => s.form(paths.authorisation, { count: '100' })],
  ['search-authorisation', 'empty page', (s) => s.form(paths.authorisation, { page: '9' })],
  ['search-remittance-summary', 'every summary', (s) => s.form(paths.summary, { count: '100' })],
  ['search-remittance-detail', 'RS-0001', (s) => s.form(paths.detail('RS-0001'), { count: '100' })],
  ['list-pending-remittances', 'SITE001', (s) => s.get(paths.batches)],
  ['list-hospital-claims', 'every claim', (s) => s.get(paths.hospitalList)],
  ['list-hospital-claims', 'no claim', (s) => s.get(`${paths.hospitalList}?dateCompleted=2020-01-01`)],
  ['search-hospital-claims', 'configured search', (s) => s.get(hospitalSearch)],
  ['search-bills', 'bup', (s) => s.get(`${paths.bills}?insurerid=bup`)],
  ['search-bills', 'none', (s) => s.get(`${paths.bills}?insurerid=zzz`)],
  ['get-bill', 'BILL-0001 live', (s) => s.get(paths.bill('BILL-0001', 'false'))],
  ['get-bill', 'BILL-0009 archived', (s) => s.get(paths.bill('BILL-0009', 'true'))],
  ...['1001', '1002', '1003', '1004', '1005', '1006'].map((n): [string, string, Call] => [
    'get-remittance-details',
    `BATCH-${n}`,
    (s) => s.get(paths.batch(`BATCH-${n}`)),
  ]),
  ...CODE_SET_NAMES.map((name): [string, string, Call] => [
    'get-code-set',
    name,
    (s) => s.get(withQuery(paths.codeSet(name), { count: '1000' })),
  ]),
  [
    'get-code-set',
    'specialties of CON',
    (s) => s.get(withQuery(paths.codeSet('practitioner-specialty', 'CON'), { count: '1000' })),
  ],
  [
    'get-code-set',
    'ICD10 page 2',
    (s) => s.get(withQuery(paths.codeSet('condition-code', 'ICD10'), { page: '2', count: '7' })),
  ],
  ['get-code-set', 'unknown scheme (empty)', (s) => s.get(paths.codeSet('condition-code', 'SNOMED'))],
  ['lookup-practitioners', 'Smith', (s) => s.get(withQuery(paths.lookupPractitioners, { text: 'Smith', count: '50' }))],
  [
    'lookup-practitioners',
    'every practitioner',
    (s) => s.get(withQuery(paths.lookupPractitioners, { text: 'a', count: '50' })),
  ],
  [
    'lookup-locations',
    'London P',
    (s) => s.get(withQuery(paths.lookupLocations, { text: 'London', type: 'P', count: '50' })),
  ],
  [
    'lookup-locations',
    'with and without position',
    (s) => s.get(withQuery(paths.lookupLocations, { text: 'o', count: '50' })),
  ],
  ['list-insurers', 'all', (s) => s.get(paths.insurers)],
  ['list-insurers', 'edi', (s) => s.get(withQuery(paths.insurers, { type: 'edi' }))],
  [
    'get-insurer-control-parameters',
    'INS001',
    (s) => s.get(withQuery(paths.controlParameters, { insurerId: 'INS001' })),
  ],
  ['search-address', 'Downing Street', (s) => s.get(withQuery(paths.addressSearch, { text: 'Downing Street' }))],
  [
    'search-address',
    'drill into GB|ST|DOWNING',
    (s) => s.get(withQuery(paths.addressSearch, { text: 'Downing Street', container: 'GB|ST|DOWNING' })),
  ],
  ['retrieve-address', 'GB|RM|A|10001', (s) => s.get(withQuery(paths.addressRetrieve, { id: 'GB|RM|A|10001' }))],
  ['geocode-postcode', 'SW1A 2AA', (s) => s.get(withQuery(paths.geocode, { postcode: 'SW1A 2AA' }))],
  ['validate-postcode', 'valid', (s) => s.get(withQuery(paths.validatePostcode, { postcode: 'SW1A 2AA' }))],
  ['validate-postcode', 'invalid', (s) => s.get(withQuery(paths.validatePostcode, { postcode: 'NOT A POSTCODE' }))],
  [
    'search-register-practitioners',
    'every practitioner',
    (s) => s.get(withQuery(paths.registerPractitioners, { count: '100' })),
  ],
  ['get-practitioner-photo', 'PR-0001', (s) => s.get(paths.photo('PR-0001'))],
  ['search-register-practitioner-roles', 'every role', (s) => s.get(paths.registerRoles)],
  [
    'search-register-practitioner-roles',
    'near, sorted, with _include',
    (s) =>
      s.get(
        withQuery(paths.registerRoles, {
          near: '51.5074:-0.1278:20:km',
          _sort: 'distance:asc',
          _include: 'practitioner:location',
        }),
      ),
  ],
  [
    'search-register-practitioner-roles',
    'distinct-by location',
    (s) => s.get(withQuery(paths.registerRoles, { 'distinct-by': 'location', _include: 'practitioner:location' })),
  ],
  ['get-booking-practitioner', 'BP-0001', (s) => s.get(paths.bookingPractitioner('BP-0001'))],
  [
    'search-booking-practitioners',
    'every practitioner',
    (s) => s.get(withQuery(paths.bookingPractitioners, { count: '100' })),
  ],
  ['get-booking-practitioner-role', 'BR-0001', (s) => s.get(paths.bookingRole('BR-0001'))],
  ['search-booking-practitioner-roles', 'every role', (s) => s.get(withQuery(paths.bookingRoles, { count: '100' }))],
];

/** The id of a created resource in an answer. */
const idOf = (a: Answer): string => (a.json as { id: string }).id;

const NEW_PATIENT = {
  resourceType: 'Patient',
  extension: [{ url: `${REF_URL}/extension/patient/insurer`, valueString: 'bup' }],
  name: [{ family: 'Schema', given: ['Sam'], prefix: ['Mr'] }],
  telecom: [{ system: 'email', value: 'sam@example.org', use: 'home' }],
  gender: 'male',
  birthDate: '1985-05-05',
  address: [{ type: 'physical', text: '1 Road', line: ['1 Road'], city: 'Leeds', postalCode: 'LS1 1AA' }],
};
const NEW_CONDITION = {
  resourceType: 'Condition',
  evidence: [
    {
      detail: [
        {
          display: 'a.pdf',
          identifier: { id: 'ATT-1', system: 'document-store', value: 'https://files.example/a.pdf' },
        },
      ],
    },
  ],
  note: [{ text: 'Note', authorReference: { reference: 'patient/PAT-0001' } }],
};
const createdPatient = async (s: TestSandbox) => idOf(await s.patient('POST', paths.createPatient, NEW_PATIENT));
const payorRequest = (authority: string) => ({
  resourceType: 'Contract',
  subject: [{ reference: 'Site/SITE001' }],
  authority: [{ reference: authority, display: authority }],
});
/** A Contract of the documented price-request shape (D3 4.5) for site SITE001 and payor bup. */
export const priceRequest = (items: { system: string; code: string; fee?: number }[]) => ({
  resourceType: 'Contract',
  subject: [{ reference: 'Site/SITE001' }],
  term: [
    {
      asset: [
        {
          type: { coding: [{ code: 'PriceGroupAssignment' }] },
          context: [{ reference: { reference: 'Payor/I-bup' } }],
          valuedItem: items.map((i) => ({
            entityCodeableConcept: { coding: [{ system: i.system, code: i.code, display: i.code }] },
            ...(i.fee === undefined ? {} : { net: { value: i.fee } }),
          })),
        },
      ],
    },
  ],
});
const PROCEDURE = `${REF_URL}/procedure`;
/** Creates a payor contract, then deletes it (`payorType` I for an insurer, C for a contact). */
export const deletePayorOf = async (s: TestSandbox, authority: string, payorType: string) => {
  const created = { id: idOf(await s.contract('POST', paths.contract, payorRequest(authority))) };
  return s.contract(
    'DELETE',
    withQuery(paths.contractSite('SITE001'), { payorId: authority, payorType, providerGroup: created.id }),
  );
};

/** Success cases of Document 3: operation id, label, call (a 2xx expected). */
export const SUCCESS_D3: [operationId: string, label: string, call: Call][] = [
  ['introspect', 'alice at SITE001', (s) => s.accounts(paths.introspect, { site: 'SITE001' })],
  ['list-features', 'alice', (s) => s.accounts(paths.features)],
  ['get-user-info', 'CODE-0001', (s) => s.accounts(withQuery(paths.userInfo, { code: 'CODE-0001' }))],
  ['list-authorised-sites-v1', 'alice', (s) => s.accounts(paths.sitesV1)],
  ['list-authorised-sites-v2', 'alice page 1', (s) => s.accounts(paths.sitesV2)],
  ['list-authorised-sites-v2', 'alice last page', (s) => s.accounts(withQuery(paths.sitesV2, { pageNumber: '3' }))],
  ['list-site-subscriptions', 'SITE001', (s) => s.accounts(paths.subscription, { site: 'SITE001' })],
  ['get-user-details', 'alice', (s) => s.accounts(paths.userDetails)],
  [
    'get-user-details',
    'client token with SU-UserId',
    async (s) => s.accounts(paths.userDetails, { token: await s.token(), headers: { 'su-userid': 'U-1001' } }),
  ],
  ['get-event-info', 'SNS-0001', (s) => s.accounts(withQuery(paths.event, { sns_id: 'SNS-0001' }))],
  ['get-site-users', 'SITE001', (s) => s.accounts(paths.siteUsers('SITE001'), { site: 'SITE001' })],
  ['get-site-users', 'SITE004 without users', (s) => s.accounts(paths.siteUsers('SITE004'), { site: 'SITE001' })],
  [
    'get-idp-token-details',
    'linked user',
    (s) =>
      s.request('GET', withQuery(paths.tokenDetails('nhs'), { redirect_uri: 'https://app.example/callback' }), {
        headers: { authorization: basicAuth() },
      }),
  ],
  ['diary-post-auth', 'DIARY-OK', (s) => s.multipart(paths.diaryPostAuth, { Code: 'DIARY-OK', StateToken: 'x' })],
  ['diary-post-auth', 'DIARY-BAD', (s) => s.multipart(paths.diaryPostAuth, { Code: 'DIARY-BAD' })],
  ['diary-post-auth', 'DIARY-UNMAPPED', (s) => s.multipart(paths.diaryPostAuth, { Code: 'DIARY-UNMAPPED' })],
  [
    'diary-refresh-token',
    'diary token',
    async (s) =>
      s.request('POST', paths.diaryRefresh, { headers: { authorization: `Bearer ${await s.diaryToken()}` } }),
  ],
  ['list-episode-types', 'diary token', async (s) => s.get(paths.episodeTypes, { token: await s.diaryToken() })],
  [
    'list-appointment-statuses',
    'diary token',
    async (s) => s.get(paths.appointmentStatuses, { token: await s.diaryToken() }),
  ],
  ['list-recurrence-types', 'diary token', async (s) => s.get(paths.recurrenceTypes, { token: await s.diaryToken() })],
  ['create-patient', 'new patient', (s) => s.patient('POST', paths.createPatient, NEW_PATIENT)],
  ['get-patient', 'PAT-0001', (s) => s.patient('GET', paths.patient('PAT-0001'))],
  ['get-patient', 'PAT-0002 inactive', (s) => s.patient('GET', paths.patient('PAT-0002'))],
  [
    'update-patient',
    'created patient',
    async (s) => {
      const id = await createdPatient(s);
      return s.patient('PUT', paths.updatePatient(id), { ...NEW_PATIENT, id, gender: 'female' });
    },
  ],
  ['delete-patient', 'created patient', async (s) => s.patient('DELETE', paths.patient(await createdPatient(s)))],
  ['create-condition', 'for PAT-0001', (s) => s.patient('POST', paths.condition, NEW_CONDITION)],
  [
    'delete-condition',
    'created condition',
    async (s) => s.patient('DELETE', paths.conditionId(idOf(await s.patient('POST', paths.condition, NEW_CONDITION)))),
  ],
  ['get-effective-prices', 'SITE001', (s) => s.contract('GET', withQuery(paths.effectivePrices, { site: 'SITE001' }))],
  [
    'get-effective-prices',
    'bup THEATRE',
    (s) =>
      s.contract('GET', withQuery(paths.effectivePrices, { site: 'SITE001', payor: 'bup', 'service-code': 'THEATRE' })),
  ],
  ['list-contract-types', 'all', (s) => s.contract('GET', paths.contractTypes)],
  ['list-contract-subtypes', 'all', (s) => s.contract('GET', paths.contractSubtypes)],
  ['list-site-payors', 'SITE001', (s) => s.contract('GET', paths.sitePayors('SITE001'))],
  ['list-site-payors', 'SITE005 fresh', (s) => s.contract('GET', paths.sitePayors('SITE005'))],
  ['upsert-payor', 'CONF-INS', (s) => s.contract('POST', paths.contract, payorRequest('Organization/CONF-INS'))],
  [
    'upsert-contact-payor',
    'CONF-CONTACT',
    (s) => s.contract('POST', paths.contract, payorRequest('Person/CONF-CONTACT')),
  ],
  ['delete-payor', 'CONF-DEL', (s) => deletePayorOf(s, 'Organization/CONF-DEL', 'I')],
  ['delete-contact-payor', 'CONF-DEL-C', (s) => deletePayorOf(s, 'Person/CONF-DEL-C', 'C')],
  [
    'set-contract-service',
    'CONF-SVC',
    (s) => s.contract('POST', paths.contractPrice, priceRequest([{ system: 'ISC', code: 'CONF-SVC' }])),
  ],
  [
    'set-contract-service-with-procedure',
    'CONF-SVC2 + CONF-PROC',
    (s) =>
      s.contract(
        'POST',
        paths.contractPrice,
        priceRequest([
          { system: 'ISC', code: 'CONF-SVC2' },
          { system: PROCEDURE, code: 'CONF-PROC' },
        ]),
      ),
  ],
  [
    'set-contract-price',
    'CONF-SVC3 + CONF-PROC fee',
    (s) =>
      s.contract(
        'POST',
        paths.contractPrice,
        priceRequest([
          { system: 'ISC', code: 'CONF-SVC3' },
          { system: PROCEDURE, code: 'CONF-PROC', fee: 99 },
        ]),
      ),
  ],
  [
    'delete-contract-service',
    'FUCONS',
    (s) =>
      s.contract(
        'DELETE',
        withQuery(paths.contractPriceSite('SITE001'), { indStdCode: 'FUCONS', indStdCodeScheme: 'ISC' }),
      ),
  ],
  [
    'delete-contract-service-with-procedure',
    'ENDO G4500',
    (s) =>
      s.contract(
        'DELETE',
        withQuery(paths.contractPriceSite('SITE001'), {
          indStdCode: 'ENDO',
          indStdCodeScheme: 'ISC',
          procedureCode: 'G4500',
          procedureScheme: 'CCSD',
        }),
      ),
  ],
];

/** Error cases answered with an OperationOutcome: operation id, label, call (a 4xx expected). */
export const OUTCOME_ERRORS: [operationId: string, label: string, call: Call][] = [
  [
    'find-member-v2',
    'find member no match',
    (s) =>
      s.findMember('2', {
        insurerIdentifier: 'ppp',
        firstInitial: 'Z',
        lastName: 'Nobody',
        dateOfBirth: '1900-01-01',
      }),
  ],
  [
    'find-member-v2',
    'find member multiple',
    (s) =>
      s.findMember('2', {
        insurerIdentifier: 'nuh',
        firstInitial: 'A',
        lastName: 'Jones',
        dateOfBirth: '1975-09-30',
      }),
  ],
  ['find-member-v2', 'find member without token', (s) => s.findMember('2', {}, { token: null })],
  ['search-remittance-summary', 'summary empty value', (s) => s.form(paths.summary, { insurerIdentifier: '' })],
  ['search-remittance-detail', 'detail unknown summary', (s) => s.form(paths.detail('RS-9999'), {})],
  ['search-bills', 'bills without insurerid', (s) => s.get(paths.bills)],
  ['get-bill', 'unknown bill', (s) => s.get(paths.bill('BILL-9999', 'false'))],
  [
    'get-code-set',
    'code set with count 1001',
    (s) => s.get(withQuery(paths.codeSet('condition-code'), { count: '1001' })),
  ],
  ['get-code-set', 'unknown code set', (s) => s.get(paths.codeSet('no-such-set'))],
  ['lookup-practitioners', 'lookup without text', (s) => s.get(paths.lookupPractitioners)],
  ['search-address', 'address search without text', (s) => s.get(paths.addressSearch)],
  [
    'geocode-postcode',
    'geo-coding of an unknown postcode',
    (s) => s.get(withQuery(paths.geocode, { postcode: 'NOT A POSTCODE' })),
  ],
  [
    'search-register-practitioners',
    'register search with an empty value',
    (s) => s.get(withQuery(paths.registerPractitioners, { gender: '' })),
  ],
  ['get-practitioner-photo', 'photo of an unknown practitioner', (s) => s.get(paths.photo('PR-9999'))],
  [
    'search-register-practitioner-roles',
    'role distance sort without near',
    (s) => s.get(withQuery(paths.registerRoles, { _sort: 'distance:asc' })),
  ],
  ['get-booking-practitioner', 'unknown booking practitioner', (s) => s.get(paths.bookingPractitioner('BP-9999'))],
  [
    'search-booking-practitioners',
    'booking search with a malformed _since',
    (s) => s.get(withQuery(paths.bookingPractitioners, { _since: 'yesterday' })),
  ],
  [
    'search-register-practitioner-roles',
    'Document 2 operation without token',
    (s) => s.get(paths.registerRoles, { token: null }),
  ],
  [
    'get-patient',
    'patient without token',
    (s) => s.patient('GET', paths.patient('PAT-0001'), undefined, { token: null }),
  ],
  [
    'get-patient',
    'patient without SU-SiteId',
    (s) => s.patient('GET', paths.patient('PAT-0001'), undefined, { site: null }),
  ],
  ['get-patient', 'unknown patient', (s) => s.patient('GET', paths.patient('PAT-9999'))],
  [
    'update-patient',
    'update of an inactive patient',
    async (s) =>
      s.patient('PUT', paths.updatePatient('PAT-0002'), {
        ...((await s.patient('GET', paths.patient('PAT-0002'))).json as Record<string, unknown>),
      }),
  ],
  ['create-patient', 'malformed patient', (s) => s.patient('POST', paths.createPatient, '{')],
  [
    'create-condition',
    'condition of an unknown patient',
    (s) =>
      s.patient('POST', paths.condition, {
        ...NEW_CONDITION,
        note: [{ text: 'x', authorReference: { reference: 'patient/PAT-9999' } }],
      }),
  ],
  [
    'upsert-payor',
    'payor without authority',
    (s) => s.contract('POST', paths.contract, { resourceType: 'Contract', subject: [{ reference: 'Site/SITE001' }] }),
  ],
  [
    'set-contract-service-with-procedure',
    'procedure without service',
    (s) => s.contract('POST', paths.contractPrice, priceRequest([{ system: PROCEDURE, code: 'X' }])),
  ],
  [
    'delete-contract-service',
    'delete of an unknown service',
    (s) =>
      s.contract(
        'DELETE',
        withQuery(paths.contractPriceSite('SITE001'), { indStdCode: 'NOPE', indStdCodeScheme: 'ISC' }),
      ),
  ],
];

/** Error cases of the accounts operations (`{message, code}`): operation id, label, call. */
export const ACCOUNTS_ERRORS: [operationId: string, label: string, call: Call][] = [
  ['introspect', 'no token', (s) => s.accounts(paths.introspect, { token: null })],
  ['introspect', 'unconnected site', (s) => s.accounts(paths.introspect, { site: 'SITE002' })],
  ['list-features', 'no features', async (s) => s.accounts(paths.features, { token: await s.userToken('bob') })],
  [
    'get-user-details',
    'client without account',
    async (s) => s.accounts(paths.userDetails, { token: await s.token('sandbox-noaccount') }),
  ],
  ['get-user-info', 'unknown code', (s) => s.accounts(withQuery(paths.userInfo, { code: 'X' }))],
  ['get-event-info', 'unknown sns_id', (s) => s.accounts(withQuery(paths.event, { sns_id: 'X' }))],
  ['get-site-users', 'site users without SU-SiteId', (s) => s.accounts(paths.siteUsers('SITE001'))],
];

/** `redirect_uri` values of the token-details error cases ('' sends none): 404, 400, 400. */
export const TOKEN_DETAILS_ERROR_URIS: readonly string[] = [
  'https://app.example/unlinked',
  'https://app.example/not-signed-in',
  '',
];

/** One token-details error case: the call with this `redirect_uri` ('' sends none). */
export const tokenDetailsErrorCall =
  (uri: string): Call =>
  (s) =>
    s.request('GET', withQuery(paths.tokenDetails('nhs'), uri === '' ? {} : { redirect_uri: uri }), {
      headers: { authorization: basicAuth() },
    });
