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
  /** The identity-provider sign-in of the workspace's client (token details). */
  idp?: { name: string; redirectUri: string };
}

export const CLIENT_FAULTS = {
  'no-site-id': 'sends no SU-SiteId header',
  'wrong-version-header': 'sends SVC-API-Version: 3 to Find Member',
  'no-refinement': 'repeats the step-1 search after MULTIPLE_MATCH_FOUND instead of refining it',
  'ack-before-get': 'acknowledges a batch before fetching it',
  'hard-coded-addresses': "calls the sandbox's reference addresses instead of the discovered ones",
  'blind-retry': 'repeats a request refused with 401 with the same token',
  'wrong-patient-id': 'reads, updates and deletes a patient by an id of its own instead of the id the create answered',
  'pipe-not-encoded': 'sends the | of an address key literally instead of as %7C',
  'retrieves-without-drill-down':
    'retrieves the key of the first search item (a street) without drilling down to an Address',
  'revoke-without-client-headers': 'revokes a token without the ClientId and secret headers',
  'stops-at-first-page': 'stops after the first page of a paged search',
  'acks-after-malformed-list': 'acknowledges a batch it has not read when the pending list does not parse',
  'date-not-iso': 'sends the date of birth as 30/09/1975 instead of YYYY-MM-DD',
  'patient-body-invalid': 'sends a patient whose name is a string instead of a HumanName list',
  'bearer-on-token-details': 'sends its bearer token to token details instead of Basic client authentication',
  'patient-with-own-id': 'creates a patient whose body carries an id of its own (the documents: "without id")',
  'patient-json-content-type':
    'sends patient and condition bodies as Content-Type: application/json instead of application/fhir+json',
  'fixed-paths':
    "never fetches a discovery document: builds each address from the token endpoint's base and the paths it knows",
  'acks-without-listing':
    'fetches and acknowledges a batch id it knows (BATCH-1002) without listing the pending batches',
  'revoke-as-json': 'sends the revoke as a JSON body (Content-Type: application/json) instead of a form',
  'no-version-header': 'sends Find Member without the SVC-API-Version header',
  'form-as-text-plain': 'sends the Find Member form with Content-Type: text/plain',
  'uses-find-member-v1': 'searches members with Find Member version 1 (SVC-API-Version: 1), which is deprecated',
  'token-details-user-basic':
    "sends token details with Basic of the user's name and password instead of the client's id and secret",
  'token-details-token-in-query':
    'sends token details with Basic client authentication and its access token in the query',
} as const;

export type ClientFault = keyof typeof CLIENT_FAULTS;

/** Choices a conforming client may make where the documents leave it open (the mirror of the faults). */
export const CLIENT_CHOICES = {
  'stop-after-refusal': 'stops after a request refused with 401 instead of taking a new token (DEC-C-01)',
  'browser-preflight':
    'runs as a browser app of another origin would (Document 3, 4.2: logout is "Executed from a browser"): sends Origin, a CORS preflight before each request that is not simple, and reads no answer the workspace does not allow it to',
  'patient-version-header-other-name':
    'sends the patients\' version as `Version-Id: 1` instead of `SVC-API-Version: 1` (DEC-C-03: Document 3, 4.4 names only "a version-id header")',
  'page-past-last':
    'collects a paged search by asking page after page until one comes back empty: one empty page past the last (DEC-C-04)',
  'lists-again-after-unreadable-list':
    'lists the pending batches once more after a list it cannot read, and fetches and acknowledges a batch only from a list it could read (DEC-C-05)',
  'caches-discovery':
    'fetches each discovery document once and keeps its addresses for the rest of the workspace (DEC-C-10)',
  'reads-stored-patient':
    'after the lifecycle, reads a patient it stored earlier (one the workspace holds, not created in this run) by its id (DEC-C-09)',
  'retrieves-stored-address':
    'retrieves an address by a key it stored earlier (an Address item it did not search for in this run) before drilling down (DEC-C-09)',
  'refreshes-token-early':
    'takes a new token before every request instead of reusing one until it is refused (DEC-C-11)',
  'client-token-for-patients':
    "sends its patient and condition requests with a client-credentials token instead of a signed-in user's (DEC-C-14)",
  'pages-of-25':
    "collects the paged register search 25 at a time instead of 10 (DEC-C-12: the page size is the caller's)",
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

const CONDITION_NOTE = 'Sprained left ankle, seen in clinic';
/** A patient and an address key stored by an earlier run (the workspace's seed holds them). */
const STORED_PATIENT = 'PAT-0001';
const STORED_ADDRESS_KEY = 'GB|RM|A|10004';
/** The identity-provider sign-in when the workspace names none (Document 3, 4.2). */
const DEFAULT_IDP = { name: 'nhs', redirectUri: 'https://app.example/callback' };

/** The origin of the browser app (choice `browser-preflight`). */
const BROWSER_ORIGIN = 'https://app.example';
/** What a browser sends without a preflight (the Fetch standard's simple requests). */
const SIMPLE_METHODS = new Set(['GET', 'HEAD', 'POST']);
const SAFELISTED_HEADERS = new Set(['accept', 'accept-language', 'content-language']);
const SIMPLE_CONTENT_TYPE = /^(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\b/i;

interface Answer {
  status: number;
  body: unknown;
}

/** True when an `Access-Control-Allow-Origin` value lets the browser app read the answer. */
const allows = (value: string | null): boolean => value === '*' || value === BROWSER_ORIGIN;

export class ReferenceClient {
  readonly #faults: ReadonlySet<ClientFault>;
  readonly #choices: ReadonlySet<ClientChoice>;
  #token = '';
  /** Discovery documents kept (choice `caches-discovery`), by service. */
  readonly #discovered = new Map<string, Answer>();

  constructor(
    private readonly config: ClientConfig,
    faults: readonly ClientFault[] = [],
    choices: readonly ClientChoice[] = [],
  ) {
    this.#faults = new Set(faults);
    this.#choices = new Set(choices);
  }

  async #call(url: string, init: RequestInit = {}): Promise<Answer> {
    const browser = this.#choices.has('browser-preflight');
    const res = await fetch(url, browser ? await this.#asBrowser(url, init) : init);
    const text = await res.text();
    // A browser hands the app no answer the server did not allow its origin to read.
    if (browser && !allows(res.headers.get('access-control-allow-origin')))
      throw new Error(`CORS: the answer of ${url} does not allow the origin ${BROWSER_ORIGIN}`);
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, body };
  }

  /**
   * The request as a browser app of another origin sends it: with `Origin`, after a CORS
   * preflight when it is not a simple request (a method other than GET, HEAD or POST, or a header
   * beyond the safelisted ones, such as Authorization); a refused preflight stops the request.
   */
  async #asBrowser(url: string, init: RequestInit): Promise<RequestInit> {
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers);
    const unsafe = [...headers]
      .filter(([name, value]) =>
        name === 'content-type' ? !SIMPLE_CONTENT_TYPE.test(value) : !SAFELISTED_HEADERS.has(name),
      )
      .map(([name]) => name);
    if (!SIMPLE_METHODS.has(method) || unsafe.length > 0) {
      const preflight = await fetch(url, {
        method: 'OPTIONS',
        headers: {
          Origin: BROWSER_ORIGIN,
          'Access-Control-Request-Method': method,
          ...(unsafe.length > 0 ? { 'Access-Control-Request-Headers': unsafe.sort().join(',') } : {}),
        },
      });
      await preflight.text();
      const methods = (preflight.headers.get('access-control-allow-methods') ?? '').toUpperCase().split(/\s*,\s*/);
      const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
      if (
        !preflight.ok ||
        !allows(preflight.headers.get('access-control-allow-origin')) ||
        (!SIMPLE_METHODS.has(method) && !methods.includes(method)) ||
        unsafe.some((h) => !allowed.includes(h) && !allowed.includes('*'))
      )
        throw new Error(`CORS: the preflight of ${method} ${url} was refused (${preflight.status})`);
    }
    headers.set('Origin', BROWSER_ORIGIN);
    return { ...init, headers };
  }

  /** The address of an operation: from its service's discovery document, by key. */
  async address(service: string, key: string, reference: string): Promise<string> {
    if (this.#faults.has('hard-coded-addresses')) return `${new URL(this.config.tokenUrl).origin}${reference}`;
    // The right address, guessed: the token endpoint's base and the path the client knows.
    if (this.#faults.has('fixed-paths')) return `${this.config.tokenUrl.replace(/\/oauth\/token$/, '')}${reference}`;
    let doc = this.#discovered.get(service);
    if (!doc) {
      doc = await this.#call(this.config.discovery[service]);
      if (this.#choices.has('caches-discovery')) this.#discovered.set(service, doc);
    }
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
    return (await this.#userTokens()).access;
  }

  /** The token of the patient operations: the signed-in user's, or under the choice the client's own (DEC-C-14). */
  #patientsToken(): Promise<string> {
    return this.#choices.has('client-token-for-patients') ? this.#clientToken() : this.#userToken();
  }

  /** A password-grant sign-in: the user's access token and refresh token. */
  async #userTokens(): Promise<{ access: string; refresh: string }> {
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
    const tokens = answer.body as { access_token?: string; refresh_token?: string };
    return { access: String(tokens.access_token), refresh: String(tokens.refresh_token) };
  }

  /** `Authorization: Basic` with the client id and secret (Document 3, 4.2 and 5). */
  #basic(): string {
    const credentials = `${this.config.clientId}:${this.config.clientSecret}`;
    return `Basic ${Buffer.from(credentials).toString('base64')}`;
  }

  #headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      Authorization: `Bearer ${this.#token}`,
      ...(this.#faults.has('no-site-id') ? {} : { 'SU-SiteId': this.config.siteId }),
      ...extra,
    };
  }

  async #findMember(url: string, fields: Record<string, string>): Promise<Answer> {
    if (this.#choices.has('refreshes-token-early')) this.#token = await this.#clientToken();
    return this.#call(url, {
      method: 'POST',
      headers: this.#headers({
        'Content-Type': this.#faults.has('form-as-text-plain') ? 'text/plain' : FORM,
        ...(this.#faults.has('no-version-header')
          ? {}
          : {
              'SVC-API-Version': this.#faults.has('wrong-version-header')
                ? '3'
                : this.#faults.has('uses-find-member-v1')
                  ? '1'
                  : '2',
            }),
      }),
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Find Member version 2 in two steps: step 2 only after MULTIPLE_MATCH_FOUND. */
  async findMemberTwoStep(): Promise<void> {
    this.#token = await this.#clientToken();
    const url = await this.address('membership', 'find_member_endpoint', '/membership/find-member');
    const member = this.#faults.has('date-not-iso') ? { ...MEMBER, dateOfBirth: '30/09/1975' } : MEMBER;
    const first = await this.#findMember(url, member);
    if (first.status !== 400 || !JSON.stringify(first.body).includes('MULTIPLE_MATCH_FOUND')) return;
    await this.#findMember(url, this.#faults.has('no-refinement') ? MEMBER : { ...MEMBER, ...REFINE });
  }

  /** List the pending batches, fetch one, import it, acknowledge it (never before the get). */
  async batchCycle(): Promise<void> {
    this.#token = await this.#clientToken();
    const list = await this.address('claims', 'list_pending_remittances_endpoint', '/claims/claimresponse/$batch');
    const get = await this.address('claims', 'get_remittance_details_endpoint', '/claims/claimresponse/$batch');
    const ack = await this.address('claims', 'ack_remittance_endpoint', '/claims/claimresponse/$batch');
    if (this.#faults.has('acks-without-listing')) {
      const known = `${get}/BATCH-1002`;
      const batch = await this.#call(known, { headers: this.#headers() });
      if (batch.status === 200) await this.#call(`${ack}/BATCH-1002`, { method: 'DELETE', headers: this.#headers() });
      return;
    }
    let pending = await this.#call(list, { headers: this.#headers() });
    // An unreadable list (DEC-C-05): listed once more under the choice; nothing is done from it.
    if (typeof pending.body === 'string' && this.#choices.has('lists-again-after-unreadable-list')) {
      pending = await this.#call(list, { headers: this.#headers() });
      if (typeof pending.body === 'string') return;
    }
    if (typeof pending.body === 'string' && this.#faults.has('acks-after-malformed-list')) {
      await this.#call(`${ack}/BATCH-1002`, { method: 'DELETE', headers: this.#headers() });
      return;
    }
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
    this.#token = await this.#patientsToken();
    const url = await this.address('patients', 'create_patient_endpoint', '/patients/patient');
    await this.#call(url, {
      method: 'POST',
      headers: this.#patientHeaders(),
      body: JSON.stringify(
        this.#faults.has('patient-body-invalid')
          ? { ...PATIENT, name: 'Priya Patel' }
          : this.#faults.has('patient-with-own-id')
            ? { ...PATIENT, id: 'local-1' }
            : PATIENT,
      ),
    });
  }

  /** The patients' version header (Document 3, 4.4: "a version-id header"; its name is not shown, DEC-C-03). */
  #version(): Record<string, string> {
    return this.#choices.has('patient-version-header-other-name') ? { 'Version-Id': '1' } : { 'SVC-API-Version': '1' };
  }

  #patientHeaders(): Record<string, string> {
    const media = this.#faults.has('patient-json-content-type') ? 'application/json' : 'application/fhir+json';
    return this.#headers({ 'Content-Type': media, ...this.#version() });
  }

  /** Create a patient, read, update it by the id the create answered, add and delete a condition, delete it. */
  async patientLifecycle(): Promise<void> {
    this.#token = await this.#patientsToken();
    const create = await this.address('patients', 'create_patient_endpoint', '/patients/patient');
    const get = await this.address('patients', 'get_patienet_endpoint', '/patients/patient');
    const update = await this.address('patients', 'update_patient_endpoint', '/patients');
    const remove = await this.address('patients', 'delete_patient_endpoint', '/patients/patient');
    const addCondition = await this.address('patients', 'create_condition_endpoint', '/patients/patient/condition');
    const removeCondition = await this.address(
      'patients',
      'delete_patient_condition_endpoint',
      '/patients/patient/condition',
    );
    const created = await this.#call(create, {
      method: 'POST',
      headers: this.#patientHeaders(),
      body: JSON.stringify(PATIENT),
    });
    const answered = (created.body as { id?: string } | undefined)?.id;
    if (!answered) return;
    // The id the create answered is stored (Document 3, 4.4); the fault keeps a local one instead.
    const id = this.#faults.has('wrong-patient-id') ? 'local-1' : answered;
    const one = encodeURIComponent(id);
    await this.#call(`${get}/${one}`, { headers: this.#headers(this.#version()) });
    await this.#call(`${update}/${one}`, {
      method: 'PUT',
      headers: this.#patientHeaders(),
      body: JSON.stringify({ ...PATIENT, id, telecom: [{ system: 'phone', value: '07700 900123', use: 'home' }] }),
    });
    const condition = await this.#call(addCondition, {
      method: 'POST',
      headers: this.#patientHeaders(),
      body: JSON.stringify({
        resourceType: 'Condition',
        note: [{ text: CONDITION_NOTE, authorReference: { reference: `patient/${id}` } }],
      }),
    });
    const conditionId = (condition.body as { id?: string } | undefined)?.id;
    if (conditionId)
      await this.#call(`${removeCondition}/${encodeURIComponent(conditionId)}`, {
        method: 'DELETE',
        headers: this.#headers(this.#version()),
      });
    await this.#call(`${remove}/${one}`, { method: 'DELETE', headers: this.#headers(this.#version()) });
    // A patient stored by an earlier run (the workspace's seed holds it): read by its stored id.
    if (this.#choices.has('reads-stored-patient'))
      await this.#call(`${get}/${encodeURIComponent(STORED_PATIENT)}`, { headers: this.#headers(this.#version()) });
  }

  /** A query with each value percent-encoded (`|` as %7C), or with `|` left literal under the fault. */
  #query(fields: Record<string, string>): string {
    const query = new URLSearchParams(fields).toString();
    return this.#faults.has('pipe-not-encoded') ? query.replaceAll('%7C', '|') : query;
  }

  /** Search addresses, drill down until an Address item appears, retrieve it by its key. */
  async addressDrillDown(): Promise<void> {
    this.#token = await this.#clientToken();
    const search = await this.address('address', 'search_address_endpoint', '/address/search');
    const retrieve = await this.address('address', 'retrieve_address_endpoint', '/address/retrieve');
    const text = 'Downing Street';
    type Item = { key?: string; addressType?: string };
    // A key stored by an earlier run: retrieved before any search of this run.
    if (this.#choices.has('retrieves-stored-address'))
      await this.#call(`${retrieve}?${this.#query({ id: STORED_ADDRESS_KEY })}`, { headers: this.#headers() });
    const first = await this.#call(`${search}?${this.#query({ text })}`, { headers: this.#headers() });
    let items = Array.isArray(first.body) ? (first.body as Item[]) : [];
    let found = items.find((i) => i.addressType === 'Address');
    if (this.#faults.has('retrieves-without-drill-down')) found = items[0];
    // At most five steps down (DEC-D2-12): the documents do not bound the drill-down.
    for (let step = 0; !found && step < 5; step++) {
      const container = items.find((i) => i.addressType !== 'Address' && i.key)?.key;
      if (!container) return;
      const answer = await this.#call(`${search}?${this.#query({ text, container })}`, { headers: this.#headers() });
      items = Array.isArray(answer.body) ? (answer.body as Item[]) : [];
      found = items.find((i) => i.addressType === 'Address');
    }
    if (!found?.key) return;
    await this.#call(`${retrieve}?${this.#query({ id: found.key })}`, { headers: this.#headers() });
  }

  /** Collect every page of a register practitioner search: stop at a page short of `count` or at `maxCount`. */
  async registerPaging(): Promise<void> {
    this.#token = await this.#clientToken();
    const search = await this.address('register', 'search_practitioner_endpoint', '/register/practitioner');
    const count = this.#choices.has('pages-of-25') ? 25 : 10;
    for (let page = 1; ; page++) {
      if (this.#choices.has('refreshes-token-early')) this.#token = await this.#clientToken();
      const answer = await this.#call(
        `${search}?${new URLSearchParams({ page: String(page), count: String(count) })}`,
        {
          headers: this.#headers(),
        },
      );
      const bundle = answer.body as { entry?: unknown[]; meta?: { tag?: { code?: string; display?: string }[] } };
      const matches = Number(bundle?.meta?.tag?.find((t) => t.code === 'maxCount')?.display ?? Number.NaN);
      const entries = bundle?.entry?.length ?? 0;
      // Under the choice the client asks until a page comes back empty (DEC-C-04): one page past the last.
      if (
        this.#choices.has('page-past-last')
          ? answer.status !== 200 || entries === 0
          : answer.status !== 200 || entries < count || page * count >= matches
      )
        return;
      if (this.#faults.has('stops-at-first-page')) return;
    }
  }

  /** Token details with Basic client authentication, revoke the refresh token, sign in again and log out. */
  async tokenRevokeAndLogout(): Promise<void> {
    const auth = await this.address('auth', 'auth_url', '/auth');
    const tokens = await this.#userTokens();
    const idp = this.config.idp ?? DEFAULT_IDP;
    const details = `${auth}/oauth/${idp.name}/token-details?${new URLSearchParams({ redirect_uri: idp.redirectUri })}`;
    const userBasic = `Basic ${Buffer.from(`${this.config.user.username}:${this.config.user.password}`).toString('base64')}`;
    await this.#call(
      this.#faults.has('token-details-token-in-query')
        ? `${details}&${new URLSearchParams({ access_token: tokens.access })}`
        : details,
      {
        headers: {
          Authorization: this.#faults.has('bearer-on-token-details')
            ? `Bearer ${tokens.access}`
            : this.#faults.has('token-details-user-basic')
              ? userBasic
              : this.#basic(),
        },
      },
    );
    // The token was generated with a client id: ClientId and secret go with the Basic credentials (Document 3, 4.2).
    await this.#call(`${auth}/revoke`, {
      method: 'POST',
      headers: {
        Authorization: this.#basic(),
        ...(this.#faults.has('revoke-without-client-headers')
          ? {}
          : { ClientId: this.config.clientId, secret: this.config.clientSecret }),
        'Content-Type': this.#faults.has('revoke-as-json') ? 'application/json' : FORM,
      },
      body: this.#faults.has('revoke-as-json')
        ? JSON.stringify({ token: tokens.refresh, token_type_hint: 'refresh_token' })
        : new URLSearchParams({ token: tokens.refresh, token_type_hint: 'refresh_token' }).toString(),
    });
    // Revoking the refresh token revoked its access token too: a new sign-in has a session to log out of.
    const again = await this.#userTokens();
    await this.#call(`${auth}/logout`, { headers: { Authorization: `Bearer ${again.access}` } });
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
      case 'malformed-answer':
        return this.batchCycle();
      case 'patient-create':
        return this.createPatient();
      case 'expired-token':
        return this.expiredToken();
      case 'patient-lifecycle':
        return this.patientLifecycle();
      case 'address-drill-down':
        return this.addressDrillDown();
      case 'register-paging':
        return this.registerPaging();
      case 'token-revoke-and-logout':
        return this.tokenRevokeAndLogout();
      default:
        throw new Error(`The reference client knows no scenario ${this.config.scenario}`);
    }
  }
}
