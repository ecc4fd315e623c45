/**
 * A small client of the API family that passes every certification scenario
 * (`conformance certify-client`): it reads its addresses from the discovery documents, obtains its
 * tokens from the token endpoint, and follows the documents' flows. `faults` make it break one
 * rule each; the certification self-test (certify/certification.test.ts) proves every fault
 * caught by its own check, as the server self-test does for sandbox faults.
 */

/** What a certification workspace gives the partner to configure (certify/workspace.ts). */
export interface ClientConfig {
  scenario: string;
  discovery: Record<string, string>;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  siteId: string;
  user: { username: string; password: string };
}

export const CLIENT_FAULTS = {
  'no-site-id': 'sends no SU-SiteId header',
  'wrong-version-header': 'sends SVC-API-Version: 3 to Find Member',
  'no-refinement': 'repeats the step-1 search after MULTIPLE_MATCH_FOUND instead of refining it',
  'ack-before-get': 'acknowledges a batch before fetching it',
  'hard-coded-addresses': "calls the sandbox's reference addresses instead of the discovered ones",
  'blind-retry': 'repeats a request refused with 401 with the same token',
} as const;

export type ClientFault = keyof typeof CLIENT_FAULTS;

/** Choices a conforming client may make where the documents leave it open (the mirror of the faults). */
export const CLIENT_CHOICES = {
  'stop-after-refusal': 'stops after a request refused with 401 instead of taking a new token (DEC-C-01)',
} as const;

export type ClientChoice = keyof typeof CLIENT_CHOICES;

const FORM = 'application/x-www-form-urlencoded';
const MEMBER = { insurerIdentifier: 'nuh', firstInitial: 'A', lastName: 'Jones', dateOfBirth: '1975-09-30' };
const REFINE = { sex: 'Female', postCode: 'AB1 2CD', policyActiveOn: '2026-06-01' };
const SINGLE = { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1980-04-12' };
const PATIENT = {
  resourceType: 'Patient',
  name: [{ family: 'Patel', given: ['Priya'], prefix: ['Mrs'] }],
  gender: 'female',
  birthDate: '1984-07-19',
};

interface Answer {
  status: number;
  body: unknown;
}

export class ReferenceClient {
  readonly #faults: ReadonlySet<ClientFault>;
  readonly #choices: ReadonlySet<ClientChoice>;
  #token = '';

  constructor(
    private readonly config: ClientConfig,
    faults: readonly ClientFault[] = [],
    choices: readonly ClientChoice[] = [],
  ) {
    this.#faults = new Set(faults);
    this.#choices = new Set(choices);
  }

  async #call(url: string, init: RequestInit = {}): Promise<Answer> {
    const res = await fetch(url, init);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, body };
  }

  /** The address of an operation: from its service's discovery document, by key. */
  async address(service: string, key: string, reference: string): Promise<string> {
    if (this.#faults.has('hard-coded-addresses')) return `${new URL(this.config.tokenUrl).origin}${reference}`;
    const doc = await this.#call(this.config.discovery[service]);
    const url = (doc.body as Record<string, unknown> | undefined)?.[key];
    if (typeof url !== 'string') throw new Error(`Discovery of ${service} has no ${key}`);
    return url;
  }

  async #clientToken(): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.config.clientId,
      client_secret: this.config.clientSecret,
    });
    const answer = await this.#call(this.config.tokenUrl, {
      method: 'POST',
      headers: { 'Content-Type': FORM },
      body: form.toString(),
    });
    return String((answer.body as { access_token?: string }).access_token);
  }

  async #userToken(): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'password',
      client_id: this.config.clientId,
      client_secret: this.config.clientSecret,
      username: this.config.user.username,
      password: this.config.user.password,
    });
    const answer = await this.#call(this.config.tokenUrl, {
      method: 'POST',
      headers: { 'Content-Type': FORM },
      body: form.toString(),
    });
    return String((answer.body as { access_token?: string }).access_token);
  }

  #headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      Authorization: `Bearer ${this.#token}`,
      ...(this.#faults.has('no-site-id') ? {} : { 'SU-SiteId': this.config.siteId }),
      ...extra,
    };
  }

  #findMember(url: string, fields: Record<string, string>): Promise<Answer> {
    return this.#call(url, {
      method: 'POST',
      headers: this.#headers({
        'Content-Type': FORM,
        'SVC-API-Version': this.#faults.has('wrong-version-header') ? '3' : '2',
      }),
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Find Member version 2 in two steps: step 2 only after MULTIPLE_MATCH_FOUND. */
  async findMemberTwoStep(): Promise<void> {
    this.#token = await this.#clientToken();
    const url = await this.address('membership', 'find_member_endpoint', '/membership/find-member');
    const first = await this.#findMember(url, MEMBER);
    if (first.status !== 400 || !JSON.stringify(first.body).includes('MULTIPLE_MATCH_FOUND')) return;
    await this.#findMember(url, this.#faults.has('no-refinement') ? MEMBER : { ...MEMBER, ...REFINE });
  }

  /** List the pending batches, fetch one, import it, acknowledge it (never before the get). */
  async batchCycle(): Promise<void> {
    this.#token = await this.#clientToken();
    const list = await this.address('claims', 'list_pending_remittances_endpoint', '/claims/claimresponse/$batch');
    const get = await this.address('claims', 'get_remittance_details_endpoint', '/claims/claimresponse/$batch');
    const ack = await this.address('claims', 'ack_remittance_endpoint', '/claims/claimresponse/$batch');
    const pending = await this.#call(list, { headers: this.#headers() });
    const ids = ((pending.body as { entry?: { resource?: { id?: string } }[] })?.entry ?? []).flatMap((e) =>
      e.resource?.id ? [e.resource.id] : [],
    );
    const id = ids.includes('BATCH-1002') ? 'BATCH-1002' : ids[0];
    if (!id) return;
    const one = `${get}/${encodeURIComponent(id)}`;
    const receipt = `${ack}/${encodeURIComponent(id)}`;
    if (this.#faults.has('ack-before-get')) {
      await this.#call(receipt, { method: 'DELETE', headers: this.#headers() });
      await this.#call(one, { headers: this.#headers() });
      return;
    }
    const batch = await this.#call(one, { headers: this.#headers() });
    if (batch.status !== 200) return;
    await this.#call(receipt, { method: 'DELETE', headers: this.#headers() });
  }

  /** Sign the user in and create a patient. */
  async createPatient(): Promise<void> {
    this.#token = await this.#userToken();
    const url = await this.address('patients', 'create_patient_endpoint', '/patients/patient');
    await this.#call(url, {
      method: 'POST',
      headers: this.#headers({ 'Content-Type': 'application/fhir+json', 'SVC-API-Version': '1' }),
      body: JSON.stringify(PATIENT),
    });
  }

  /** A search refused with 401: a new token before the one retry (or, with the fault, the same request again). */
  async expiredToken(): Promise<void> {
    this.#token = await this.#clientToken();
    const url = await this.address('membership', 'find_member_endpoint', '/membership/find-member');
    const first = await this.#findMember(url, SINGLE);
    if (first.status !== 401 || this.#choices.has('stop-after-refusal')) return;
    if (!this.#faults.has('blind-retry')) this.#token = await this.#clientToken();
    await this.#findMember(url, SINGLE);
  }

  /** Runs the flow of the workspace's scenario. */
  run(): Promise<void> {
    switch (this.config.scenario) {
      case 'find-member-two-step':
        return this.findMemberTwoStep();
      case 'batch-cycle':
        return this.batchCycle();
      case 'patient-create':
        return this.createPatient();
      case 'expired-token':
        return this.expiredToken();
      default:
        throw new Error(`The reference client knows no scenario ${this.config.scenario}`);
    }
  }
}
