/**
 * Test helpers for the sandbox's own tests: a started sandbox with a few request shortcuts.
 * Real HTTP on 127.0.0.1, free port, global fetch.
 */
import { startSandbox } from './http.ts';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

/** Loose access to JSON inside these helpers only; exported signatures stay typed. */
type Json = any;

export interface CallOptions {
  /** Bearer token; default the sandbox-client token; null sends no Authorization. */
  token?: string | null;
  /** SU-SiteId; default SITE001; null sends none. */
  site?: string | null;
  headers?: Record<string, string>;
}

/** Document 3 patient calls: user token (default alice), SU-SiteId (default SITE001), version header (default 1). */
export interface PatientCallOptions {
  token?: string | null;
  site?: string | null;
  version?: string | null;
  headers?: Record<string, string>;
}

/** Demo secrets of the sandbox's clients (fixtures/clients.ts) and users (fixtures/accounts.ts). */
export const CLIENT_SECRETS: Readonly<Record<string, string>> = {
  'sandbox-client': 'sandbox-secret',
  'sandbox-basic': 'sandbox-basic-secret',
  'sandbox-other': 'sandbox-other-secret',
  'sandbox-noaccount': 'sandbox-noaccount-secret',
  'sandbox-inactive': 'sandbox-inactive-secret',
};
export const USER_PASSWORDS: Readonly<Record<string, string>> = {
  alice: 'alice-password',
  bob: 'bob-password',
  carol: 'carol-password',
};

/** `Authorization: Basic` of a client. */
export const basicAuth = (clientId = 'sandbox-client', secret = CLIENT_SECRETS[clientId] ?? '') =>
  `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;

export class TestSandbox {
  readonly #tokens = new Map<string, string>();

  private constructor(
    readonly url: string,
    readonly close: () => Promise<void>,
  ) {}

  static async start(faults: readonly string[] = [], variants: readonly string[] = []): Promise<TestSandbox> {
    const s = await startSandbox({ faults, variants });
    return new TestSandbox(s.url, s.close);
  }

  async request(
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string } = {},
  ): Promise<Answer> {
    const res = await fetch(this.url + path, { method, headers: init.headers, body: init.body });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  async token(clientId = 'sandbox-client'): Promise<string> {
    const known = this.#tokens.get(clientId);
    if (known) return known;
    const secret = CLIENT_SECRETS[clientId] ?? '';
    const a = await this.request('POST', '/oauth/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: secret,
      }).toString(),
    });
    const token = (a.json as { access_token: string }).access_token;
    this.#tokens.set(clientId, token);
    return token;
  }

  /** A new user sign-in (password grant through sandbox-client): access and refresh token. */
  async signIn(
    username = 'alice',
    clientId = 'sandbox-client',
  ): Promise<{ access_token: string; refresh_token: string }> {
    const a = await this.request('POST', '/oauth/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        username,
        password: USER_PASSWORDS[username] ?? '',
        client_id: clientId,
        client_secret: CLIENT_SECRETS[clientId] ?? '',
      }).toString(),
    });
    if (a.status !== 200) throw new Error(`Sign-in of ${username} failed: ${a.status} ${a.text}`);
    return a.json as { access_token: string; refresh_token: string };
  }

  /** A user access token, one per user and sandbox. */
  async userToken(username = 'alice'): Promise<string> {
    const key = `user:${username}`;
    const known = this.#tokens.get(key);
    if (known) return known;
    const token = (await this.signIn(username)).access_token;
    this.#tokens.set(key, token);
    return token;
  }

  /** A diary access token from post authorisation with DIARY-OK. */
  async diaryToken(): Promise<string> {
    const a = await this.multipart(paths.diaryPostAuth, { Code: 'DIARY-OK' });
    return (a.json as { access_token: string }).access_token;
  }

  /** A multipart/form-data POST of text fields. */
  async multipart(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Answer> {
    const boundary = 'sandbox-test-boundary';
    const body = `${Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('')}--${boundary}--\r\n`;
    return this.request('POST', path, {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...headers },
      body,
    });
  }

  /** An accounts GET: default alice's user token. */
  async accounts(path: string, options: CallOptions = {}): Promise<Answer> {
    const token = options.token === undefined ? await this.userToken() : options.token;
    return this.request('GET', path, {
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...(options.site ? { 'su-siteid': options.site } : {}),
        ...options.headers,
      },
    });
  }

  /** A patient operation: JSON body (an object is serialised, a string sent as is). */
  async patient(method: string, path: string, body?: unknown, options: PatientCallOptions = {}): Promise<Answer> {
    const token = options.token === undefined ? await this.userToken() : options.token;
    const site = options.site === undefined ? 'SITE001' : options.site;
    const version = options.version === undefined ? '1' : options.version;
    return this.request(method, path, {
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...(site === null ? {} : { 'su-siteid': site }),
        ...(version === null ? {} : { 'svc-api-version': version }),
        'content-type': 'application/fhir+json',
        ...options.headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  /** A contract operation with a JSON body: default the sandbox-client token. */
  async contract(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<Answer> {
    return this.request(method, path, {
      headers: { ...(await this.#auth(options)), 'content-type': 'application/fhir+json', ...options.headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  async #auth(options: CallOptions): Promise<Record<string, string>> {
    const token = options.token === undefined ? await this.token() : options.token;
    return token === null ? {} : { authorization: `Bearer ${token}` };
  }

  /** A form POST with SU-SiteId, as the membership, authorisation and remittance searches take. */
  async form(path: string, fields: Record<string, string>, options: CallOptions = {}): Promise<Answer> {
    const site = options.site === undefined ? 'SITE001' : options.site;
    return this.request('POST', path, {
      headers: {
        ...(await this.#auth(options)),
        ...(site === null ? {} : { 'su-siteid': site }),
        'content-type': 'application/x-www-form-urlencoded',
        ...options.headers,
      },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Find Member with SVC-API-Version (null sends none). */
  async findMember(version: string | null, fields: Record<string, string>, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = version === null ? {} : { 'svc-api-version': version };
    return this.form('/membership/find-member', fields, { ...options, headers: { ...headers, ...options.headers } });
  }

  /** A GET (clearing operations: site from the token). */
  async get(path: string, options: CallOptions = {}): Promise<Answer> {
    return this.request('GET', path, { headers: { ...(await this.#auth(options)), ...options.headers } });
  }

  async delete(path: string, options: CallOptions = {}): Promise<Answer> {
    return this.request('DELETE', path, {
      headers: { ...(await this.#auth(options)), 'content-type': 'application/fhir+json', ...options.headers },
    });
  }
}

/** The error code of an OperationOutcome answer (or of the InvalidId object). */
export function errorCode(body: unknown): string | undefined {
  const b = body as Json;
  return b?.issue?.[0]?.details?.coding?.[0]?.code ?? b?.code;
}

/** Paging tags as code -> display. */
export function tags(body: unknown): Record<string, unknown> {
  return Object.fromEntries(((body as Json)?.meta?.tag ?? []).map((t: Json) => [t.code, t.display]));
}

/** Ids of the bundle entries' resources. */
export function ids(body: unknown): string[] {
  return ((body as Json)?.entry ?? []).map((e: Json) => e.resource.id);
}

/** The resources of a bundle. */
export function resources(body: unknown): unknown[] {
  return ((body as Json)?.entry ?? []).map((e: Json) => e.resource);
}

/** The value[x] of an extension by name suffix. */
export function extension(resource: unknown, name: string): unknown {
  const e = ((resource as Json)?.extension ?? []).find((x: Json) => String(x.url).endsWith(`/${name}`));
  if (!e) return undefined;
  const key = Object.keys(e).find((k) => k.startsWith('value'));
  return key ? e[key] : undefined;
}

export const paths = {
  findMember: '/membership/find-member',
  authorisation: '/authorisation/search',
  summary: '/remittance/summary/search',
  detail: (id: string) => `/remittance/detail/search/${encodeURIComponent(id)}`,
  batches: '/claims/claimresponse/$batch',
  batch: (id: string) => `/claims/claimresponse/$batch/${encodeURIComponent(id)}`,
  hospitalList: '/claims/claim/$hospital-claim',
  hospitalSearch: '/claims/claim/search/$hospital-claim',
  bills: '/claims/claim/search',
  bill: (id: string, archived: string) => `/claims/claim/${encodeURIComponent(id)}/${encodeURIComponent(archived)}`,
  codeSet: (setName: string, scheme?: string) =>
    `/reference/valueset/${encodeURIComponent(setName)}${scheme === undefined ? '' : `/${encodeURIComponent(scheme)}`}`,
  lookupPractitioners: '/reference/practitioner/lookup',
  lookupLocations: '/reference/location/lookup',
  insurers: '/reference/organization/insurer',
  controlParameters: '/reference/organization/control-parameters',
  addressSearch: '/address/search',
  addressRetrieve: '/address/retrieve',
  geocode: '/address/geocode',
  validatePostcode: '/address/geocode/validate-postcode',
  registerPractitioners: '/register/practitioner',
  photo: (id: string) => `/register/practitioner-photo/${encodeURIComponent(id)}`,
  registerRoles: '/register/practitionerrole',
  bookingPractitioners: '/booking/practitioner',
  bookingPractitioner: (id: string) => `/booking/practitioner/${encodeURIComponent(id)}`,
  bookingRoles: '/booking/practitionerrole',
  bookingRole: (id: string) => `/booking/practitionerrole/${encodeURIComponent(id)}`,
  introspect: '/accounts/api/introspect',
  features: '/accounts/api/feature',
  userInfo: '/accounts/api/userinfo',
  sitesV1: '/accounts/api/restricted/site/v1/authorised',
  sitesV2: '/accounts/api/restricted/site/v2/authorised',
  subscription: '/accounts/api/restricted/subscription',
  userDetails: '/accounts/api/restricted/user',
  event: '/accounts/api/event',
  siteUsers: (siteId: string) => `/accounts/api/restricted/site/${encodeURIComponent(siteId)}`,
  logout: '/auth/logout',
  revoke: '/auth/revoke',
  tokenDetails: (idp: string) => `/auth/oauth/${encodeURIComponent(idp)}/token-details`,
  diaryPostAuth: '/diary/api/auth/postauth',
  diaryRefresh: '/diary/api/auth/refreshtoken',
  episodeTypes: '/diary/api/episodetypes',
  appointmentStatuses: '/diary/api/appointments/appointmentstatus',
  recurrenceTypes: '/diary/api/recurrencetypes',
  createPatient: '/patients/patient',
  patient: (id: string) => `/patients/patient/${encodeURIComponent(id)}`,
  updatePatient: (id: string) => `/patients/${encodeURIComponent(id)}`,
  condition: '/patients/patient/condition',
  conditionId: (id: string) => `/patients/patient/condition/${encodeURIComponent(id)}`,
  effectivePrices: '/contracts/contract/PRICING/$effective-prices',
  contractTypes: '/contracts/valueset/contract-type',
  contractSubtypes: '/contracts/valueset/contract-subtype/PRICING',
  sitePayors: (siteId: string) => `/contracts/contract/site/${encodeURIComponent(siteId)}`,
  contract: '/contracts/contract',
  contractSite: (site: string) => `/contracts/contract/${encodeURIComponent(site)}`,
  contractPrice: '/contracts/contract/PRICING/$contract-price',
  contractPriceSite: (site: string) => `/contracts/contract/PRICING/$contract-price/${encodeURIComponent(site)}`,
} as const;

/** A path with a query string (standard form encoding, so `|` travels as %7C and `+` as %2B). */
export function withQuery(path: string, query: Record<string, string> = {}): string {
  const q = new URLSearchParams(query).toString();
  return q === '' ? path : `${path}?${q}`;
}

/** Bundle entries whose resource has this resourceType. */
export function entriesOf(body: unknown, resourceType: string): { resource: Json; search?: { mode: string } }[] {
  return ((body as Json)?.entry ?? []).filter((e: Json) => e.resource?.resourceType === resourceType);
}

const FORM_TYPE = 'application/x-www-form-urlencoded';

/** A revoke with the sandbox client's Basic credentials (or others) and the given form fields. */
export const revokeWith = (s: TestSandbox, fields: Record<string, string>, authorization = basicAuth()) =>
  s.request('POST', paths.revoke, {
    headers: { authorization, 'content-type': FORM_TYPE },
    body: new URLSearchParams(fields).toString(),
  });

/** The status Introspect answers for a token. */
export const introspectStatus = async (s: TestSandbox, token: string): Promise<number> =>
  (await s.accounts(paths.introspect, { token })).status;

/** The status of a refresh grant with a refresh token, as the sandbox client. */
export const refreshStatus = async (s: TestSandbox, refreshToken: string): Promise<number> =>
  (
    await s.request('POST', '/oauth/token', {
      headers: { 'content-type': FORM_TYPE },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: 'sandbox-client',
        client_secret: 'sandbox-secret',
      }).toString(),
    })
  ).status;
