/**
 * The partner's consumer test with Pact: the client (practiceClient.ts) runs against Pact's mock
 * server, each interaction stating what the client sends and the least it relies on in the
 * answer (matchers where the documents fix only a type), with the provider state the provider
 * must arrange (pacts/providerStates.ts names them). Pact writes the pact file when the test
 * passes; `conformance pact check` judges it.
 *
 * PactV3 and not V4: V4's body builder sends text bodies through its binary path and mis-detects
 * the form and FHIR JSON content types (pacts/generate.test.ts pins it).
 *
 * `variant` names a broken variant of the example (README.md): the client's fault and the
 * interactions that go with it, so that the broken pact is a real consumer test's output too.
 */
import { MatchersV3, PactV3, SpecificationVersion, type V3Request } from '@pact-foundation/pact';
import { type ClientFault, PracticeClient } from './practiceClient.ts';

process.env.PACT_DO_NOT_TRACK = 'true';

const { like, eachLike, regex } = MatchersV3;

export const CONSUMER = 'partner-practice-app';
export const PROVIDER = 'api-family';

/** The broken variants, each breaking one rule `pact check` judges. */
export const BROKEN_VARIANTS = {
  /** Sends no SU-SiteId (D1-1-08, D3-4.4-01): refused by the requirement table. */
  'no-site-id': { faults: ['no-site-id'] as ClientFault[], rule: 'client-sends-header' },
  /** Sends SVC-API-Version 3 (D1-9-02): refused by the OpenAPI document and the table. */
  'unknown-version': { faults: ['unknown-version'] as ClientFault[], rule: 'agrees-with-open-api' },
  /** Calls an address of its own instead of the discovered one: refused by the OpenAPI document. */
  'hard-coded-address': { faults: ['hard-coded-address'] as ClientFault[], rule: 'agrees-with-open-api' },
  /** Relies on a Coverage member the documents do not define: refused by verification and the schema. */
  'undocumented-answer': { faults: [] as ClientFault[], rule: 'pact-interaction-verified' },
} as const;

export type BrokenVariant = keyof typeof BROKEN_VARIANTS;

const SEARCH = { insurerIdentifier: 'nuh', firstInitial: 'A', lastName: 'Jones', dateOfBirth: '1975-09-30' };
const REFINE = { sex: 'Female', postCode: 'AB1 2CD', policyActiveOn: '2026-06-01' };
const BATCH = 'BATCH-1001';
const SITE = 'SITE001';
const TOKEN = 'partner-demo-token';

const PATIENT = {
  resourceType: 'Patient',
  name: [{ family: 'Patel', given: ['Priya'], prefix: ['Mrs'] }],
  gender: 'female',
  birthDate: '1984-07-19',
  telecom: [{ system: 'phone', value: '07700 900123', use: 'mobile' }],
};

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/**
 * Runs the consumer test and returns the pact file Pact wrote into `dir`. Tried again when it
 * fails: Pact 16.5's native mock servers of two processes running at once were seen sharing a
 * port (pacts/generate.ts), so a request could reach the other process's server; a real failure
 * of the consumer test fails every attempt.
 */
export async function writePartnerPact(dir: string, variant?: BrokenVariant): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runConsumerTest(dir, variant);
    } catch (e) {
      if (attempt >= 4) throw e;
    }
  }
}

async function runConsumerTest(dir: string, variant?: BrokenVariant): Promise<string> {
  const faults = variant ? BROKEN_VARIANTS[variant].faults : [];
  const has = (f: ClientFault) => (faults as readonly ClientFault[]).includes(f);
  const pact = new PactV3({
    consumer: CONSUMER,
    provider: variant ? `${PROVIDER}-${variant}` : PROVIDER,
    dir,
    spec: SpecificationVersion.SPECIFICATION_VERSION_V3,
    logLevel: 'error',
  });
  const auth: NonNullable<V3Request['headers']> = { Authorization: regex('^Bearer \\S+$', `Bearer ${TOKEN}`) };
  const site: NonNullable<V3Request['headers']> = has('no-site-id') ? {} : { 'SU-SiteId': SITE };
  const findMemberPath = has('hard-coded-address') ? '/membership/member-search' : '/membership/find-member';
  const memberHeaders: NonNullable<V3Request['headers']> = {
    ...auth,
    ...site,
    'SVC-API-Version': has('unknown-version') ? '3' : '2',
    'Content-Type': 'application/x-www-form-urlencoded',
  };
  const outcome = (code: string) => ({
    resourceType: 'OperationOutcome',
    issue: eachLike({ severity: 'error', code: like('exception'), details: { coding: eachLike({ code }) } }),
  });

  pact
    .given('a member who matches several times', SEARCH)
    .uponReceiving('a Find Member v2 search with the mandatory fields only')
    .withRequest({ method: 'POST', path: findMemberPath, headers: memberHeaders, body: form(SEARCH) })
    .willRespondWith({
      status: 400,
      headers: { 'Content-Type': regex('^application/(fhir\\+)?json.*', 'application/json') },
      body: outcome('MULTIPLE_MATCH_FOUND'),
    });
  pact
    .given('a member who matches several times', SEARCH)
    .uponReceiving('the same search refined with sex, postcode and the policy date')
    .withRequest({ method: 'POST', path: findMemberPath, headers: memberHeaders, body: form({ ...SEARCH, ...REFINE }) })
    .willRespondWith({
      status: 200,
      headers: { 'Content-Type': regex('^application/(fhir\\+)?json.*', 'application/json') },
      body:
        variant === 'undocumented-answer'
          ? { resourceType: 'Coverage', id: like('COV-0002'), memberTier: like('gold') }
          : {
              resourceType: 'Coverage',
              id: like('COV-0002'),
              identifier: eachLike({ id: like('membershipNumber'), value: like('NUH100001') }),
              beneficiary: { reference: like('#patient-COV-0002') },
            },
    });
  pact
    .given('pending remittance batches exist')
    .uponReceiving('the list of pending remittance batches')
    .withRequest({ method: 'GET', path: '/claims/claimresponse/$batch', headers: { ...auth, ...site } })
    .willRespondWith({
      status: 200,
      headers: { 'Content-Type': regex('^application/(fhir\\+)?json.*', 'application/fhir+json') },
      body: {
        resourceType: 'Bundle',
        type: like('collection'),
        entry: eachLike({ resource: { resourceType: 'Bundle', id: like(BATCH) } }),
      },
    });
  pact
    .given('a pending remittance batch', { id: BATCH })
    .uponReceiving('a pending batch read before it is imported')
    .withRequest({ method: 'GET', path: `/claims/claimresponse/$batch/${BATCH}`, headers: { ...auth, ...site } })
    .willRespondWith({
      status: 200,
      headers: { 'Content-Type': regex('^application/(fhir\\+)?json.*', 'application/fhir+json') },
      body: { msgId: like('1001'), msgRecipient: like(SITE), status: like('TEST'), providers: eachLike({}) },
    });
  pact
    .given('a pending remittance batch', { id: BATCH })
    .uponReceiving('the batch acknowledged once imported')
    .withRequest({ method: 'DELETE', path: `/claims/claimresponse/$batch/${BATCH}`, headers: { ...auth, ...site } })
    .willRespondWith({ status: 200 });
  pact
    .given('a patient can be created')
    .uponReceiving('a new patient')
    .withRequest({
      method: 'POST',
      path: '/patients/patient',
      headers: { ...auth, ...site, 'SVC-API-Version': '1', 'Content-Type': 'application/fhir+json' },
      body: PATIENT,
    })
    .willRespondWith({
      status: 201,
      headers: { 'Content-Type': regex('^application/(fhir\\+)?json.*', 'application/fhir+json') },
      body: { resourceType: 'Patient', id: like('PAT-0100') },
    });

  await pact.executeTest(async (server) => {
    const client = new PracticeClient({
      addresses: {
        findMember: `${server.url}/membership/find-member`,
        batches: `${server.url}/claims/claimresponse/$batch`,
        patients: `${server.url}/patients/patient`,
      },
      token: TOKEN,
      siteId: SITE,
      faults,
    });
    const member = await client.findMember(SEARCH, REFINE);
    if (member.status !== 200)
      throw new Error(`Expected the refined search to find the member, received ${member.status}`);
    const [first] = await client.pendingBatches();
    if (first !== BATCH) throw new Error(`Expected batch ${BATCH} first, received ${first}`);
    let stored: unknown;
    const ack = await client.importAndAcknowledge(first, (b) => {
      stored = b;
    });
    if (stored === undefined || ack.status !== 200) throw new Error('Expected the batch imported, then acknowledged');
    const created = await client.createPatient(PATIENT);
    if (created.status !== 201) throw new Error(`Expected the patient created, received ${created.status}`);
  });
  return `${dir}/${CONSUMER}-${variant ? `${PROVIDER}-${variant}` : PROVIDER}.json`;
}
