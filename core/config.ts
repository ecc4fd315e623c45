/**
 * Run configuration: loaded from a JSON file (validated by core/config.schema.json) or the
 * built-in defaults that match the sandbox's seed data. Secrets come only from environment
 * variables named in the config.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FeatureName, ServiceId } from '../spec/types.ts';
import type { Attestation } from './results.ts';

export interface MemberSearch {
  insurerIdentifier: string;
  refine?: Record<string, string>;
  [field: string]: string | Record<string, string> | undefined;
}

export interface Fixtures {
  findMemberV2?: {
    single?: MemberSearch;
    none?: MemberSearch;
    multipleResolvedByRefine?: MemberSearch;
    multipleAfterRefine?: MemberSearch;
  };
  findMemberV1?: { single?: MemberSearch; multiple?: MemberSearch; none?: MemberSearch };
  authorisation?: { authCode?: string; caseCode?: string; membershipNumber?: string; insurerIdentifier?: string };
  remittance?: { summaryId?: string };
  hospitalClaims?: {
    dateCompleted?: string;
    search?: { dateCompleted: string; treatmentSiteName: string; patientLastName: string; patientDateOfBirth: string };
  };
  bills?: {
    insurerid?: string;
    membershipNumber?: string;
    invoiceNumber?: string;
    billId?: string;
    isArchived?: 'true' | 'false';
  };
  batches?: { ackId?: string; foreignBatchId?: string };
  codeSets?: { profession?: string };
  lookups?: { practitionerText?: string; locationText?: string; locationType?: string; insurerId?: string };
  address?: { searchText?: string; postcode?: string; invalidPostcode?: string };
  register?: { photoPractitionerId?: string; near?: { lat: number; lon: number; distanceKm: number } };
  booking?: { practitionerId?: string; practitionerRoleId?: string };
  accounts?: {
    userId?: string;
    userInfoCode?: string;
    snsId?: string;
    unconnectedSiteId?: string;
    inactiveSiteId?: string;
    siteWithoutUsers?: string;
    inaccessibleUserId?: string;
    siteSearch?: string;
    /** A child site of one of the user's sites: listed by version 2 only (DEC-D3-25). */
    childSiteId?: string;
  };
  tokenDetails?: { idp?: string; redirectUri?: string; notSignedInRedirectUri?: string; unlinkedRedirectUri?: string };
  diary?: { validCode?: string; invalidCode?: string; unmappedSiteCode?: string };
  patients?: { inactivePatientId?: string; versionHeader?: { name: string; value: string } };
  contracts?: { freshSiteId?: string; location?: string; payor?: string; serviceCode?: string };
}

export type AuthConfig =
  | { type: 'client-credentials'; tokenUrl: string; clientIdEnv: string; clientSecretEnv: string }
  | {
      type: 'password';
      tokenUrl: string;
      usernameEnv: string;
      passwordEnv: string;
      clientIdEnv: string;
      clientSecretEnv: string;
    }
  | { type: 'bearer'; tokenEnv: string };

/** Client id and secret for HTTP Basic authentication (Document 3: revoke, token details). */
export interface BasicConfig {
  clientIdEnv: string;
  clientSecretEnv: string;
}

export interface ConfigFile {
  target?: string;
  services?: Partial<Record<ServiceId, { discovery: string }>>;
  auth?: AuthConfig;
  /** Further named credentials (Document 3: a user, clients in given states), by role name. */
  credentials?: Record<string, AuthConfig>;
  basic?: Record<string, BasicConfig>;
  siteId?: string;
  features?: FeatureName[];
  reservedOperations?: 'include' | 'omit';
  http?: { timeoutMs?: number; maxResponseBytes?: number };
  fixtures?: Fixtures;
  attestation?: Attestation;
}

/** Credentials resolved from the environment; never written anywhere unmasked. */
export type Credentials =
  | { type: 'client-credentials'; tokenUrl: string; clientId: string; clientSecret: string }
  | { type: 'password'; tokenUrl: string; username: string; password: string; clientId: string; clientSecret: string }
  | { type: 'bearer'; token: string };

export interface ResolvedConfig {
  target: string;
  services: Record<ServiceId, { discovery: string }>;
  credentials: Credentials;
  /** Named credentials (config `credentials`), resolved. */
  named: Record<string, Credentials>;
  /** Named Basic credentials, resolved to `id:secret` pairs. */
  basic: Record<string, { clientId: string; clientSecret: string }>;
  siteId: string;
  features: FeatureName[];
  reservedOperations: 'include' | 'omit';
  http: { timeoutMs: number; maxResponseBytes: number };
  fixtures: Fixtures;
  attestation: Attestation;
  /** SHA-256 of the config as loaded (before secrets were resolved). */
  digest: string;
  source: string;
}

/** A bad config or environment: the CLI prints the one-line message and exits 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Public demo credentials of the sandbox, used only by the built-in default config. */
export const SANDBOX_CLIENT = { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' } as const;

/** What the default config's variables fall back to when unset: the sandbox's public demo values. */
export const SANDBOX_DEMO: Readonly<Record<string, string>> = {
  CONFORMANCE_CLIENT_ID: SANDBOX_CLIENT.clientId,
  CONFORMANCE_CLIENT_SECRET: SANDBOX_CLIENT.clientSecret,
  CONFORMANCE_USER_NAME: 'alice',
  CONFORMANCE_USER_PASSWORD: 'alice-password',
  CONFORMANCE_USER2_NAME: 'bob',
  CONFORMANCE_USER2_PASSWORD: 'bob-password',
  CONFORMANCE_NOACCOUNT_CLIENT_ID: 'sandbox-noaccount',
  CONFORMANCE_NOACCOUNT_CLIENT_SECRET: 'sandbox-noaccount-secret',
  CONFORMANCE_INACTIVE_CLIENT_ID: 'sandbox-inactive',
  CONFORMANCE_INACTIVE_CLIENT_SECRET: 'sandbox-inactive-secret',
};

const passwordGrant = (user: string): AuthConfig => ({
  type: 'password',
  tokenUrl: '{target}/oauth/token',
  usernameEnv: `CONFORMANCE_${user}_NAME`,
  passwordEnv: `CONFORMANCE_${user}_PASSWORD`,
  clientIdEnv: 'CONFORMANCE_CLIENT_ID',
  clientSecretEnv: 'CONFORMANCE_CLIENT_SECRET',
});
const clientGrant = (prefix: string): AuthConfig => ({
  type: 'client-credentials',
  tokenUrl: '{target}/oauth/token',
  clientIdEnv: `CONFORMANCE_${prefix}CLIENT_ID`,
  clientSecretEnv: `CONFORMANCE_${prefix}CLIENT_SECRET`,
});

export const DEFAULT_CONFIG: ConfigFile = {
  services: {
    membership: { discovery: '{target}/.well-known/api-configuration' },
    claims: { discovery: '{target}/claims/.well-known/api-configuration' },
    reference: { discovery: '{target}/reference/.well-known/api-configuration' },
    address: { discovery: '{target}/address/.well-known/api-configuration' },
    register: { discovery: '{target}/register/.well-known/api-configuration' },
    booking: { discovery: '{target}/booking/.well-known/api-configuration' },
    accounts: { discovery: '{target}/accounts/.well-known/api-configuration' },
    auth: { discovery: '{target}/auth/.well-known/api-configuration' },
    diary: { discovery: '{target}/diary/.well-known/api-configuration' },
    patients: { discovery: '{target}/patients/.well-known/api-configuration' },
    contracts: { discovery: '{target}/contracts/contract/.well-known/api-configuration' },
  },
  auth: {
    type: 'client-credentials',
    tokenUrl: '{target}/oauth/token',
    clientIdEnv: 'CONFORMANCE_CLIENT_ID',
    clientSecretEnv: 'CONFORMANCE_CLIENT_SECRET',
  },
  credentials: {
    user: passwordGrant('USER'),
    userWithoutFeatures: passwordGrant('USER2'),
    client: clientGrant(''),
    clientWithoutAccount: clientGrant('NOACCOUNT_'),
    clientInactive: clientGrant('INACTIVE_'),
  },
  basic: { client: { clientIdEnv: 'CONFORMANCE_CLIENT_ID', clientSecretEnv: 'CONFORMANCE_CLIENT_SECRET' } },
  siteId: 'SITE001',
  features: ['Advanced_Search_1_0', 'Advanced_Filtering_And_Sorting_1_0'],
  reservedOperations: 'include',
  http: { timeoutMs: 10000, maxResponseBytes: 5 * 1024 * 1024 },
  fixtures: {
    findMemberV2: {
      single: { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1980-04-12' },
      none: { insurerIdentifier: 'ppp', firstInitial: 'Z', lastName: 'Nobody', dateOfBirth: '1900-01-01' },
      multipleResolvedByRefine: {
        insurerIdentifier: 'nuh',
        firstInitial: 'A',
        lastName: 'Jones',
        dateOfBirth: '1975-09-30',
        refine: { sex: 'Female', postCode: 'AB1 2CD', policyActiveOn: '2026-06-01' },
      },
      multipleAfterRefine: {
        insurerIdentifier: 'wpa',
        firstInitial: 'M',
        lastName: 'Brown',
        dateOfBirth: '1990-01-15',
        refine: { sex: 'Male', postCode: 'LS1 4AP', policyActiveOn: '2026-06-01' },
      },
    },
    findMemberV1: {
      single: { insurerIdentifier: 'bup', membershipNumber: 'BUP100001' },
      multiple: { insurerIdentifier: 'bup', lastName: 'Taylor', dateOfBirth: '1985-05-05' },
      none: { insurerIdentifier: 'bup', membershipNumber: 'BUP999999' },
    },
    authorisation: {
      authCode: 'AUTH-0001',
      caseCode: 'CASE-0001',
      membershipNumber: 'NUH200001',
      insurerIdentifier: 'nuh',
    },
    remittance: { summaryId: 'RS-0001' },
    hospitalClaims: {
      dateCompleted: '2026-03-14',
      search: {
        dateCompleted: '2026-03-14',
        treatmentSiteName: 'St Elsewhere Hospital',
        patientLastName: 'Smith',
        patientDateOfBirth: '1980-04-12',
      },
    },
    bills: {
      insurerid: 'bup',
      membershipNumber: 'BUP100001',
      invoiceNumber: 'INV-B-0001',
      billId: 'BILL-0001',
      isArchived: 'false',
    },
    batches: { foreignBatchId: 'BATCH-2001' },
    codeSets: { profession: 'CON' },
    lookups: { practitionerText: 'Smith', locationText: 'London', locationType: 'P', insurerId: 'INS001' },
    address: { searchText: 'Downing Street', postcode: 'SW1A 2AA', invalidPostcode: 'NOT A POSTCODE' },
    register: { photoPractitionerId: 'PR-0001', near: { lat: 51.5074, lon: -0.1278, distanceKm: 10 } },
    booking: { practitionerId: 'BP-0001', practitionerRoleId: 'BR-0001' },
    accounts: {
      userId: 'U-1001',
      userInfoCode: 'CODE-0001',
      snsId: 'SNS-0001',
      unconnectedSiteId: 'SITE002',
      inactiveSiteId: 'SITE003',
      siteWithoutUsers: 'SITE004',
      inaccessibleUserId: 'U-9999',
      siteSearch: 'SITE00',
      childSiteId: 'SITE006',
    },
    tokenDetails: {
      idp: 'nhs',
      redirectUri: 'https://app.example/callback',
      notSignedInRedirectUri: 'https://app.example/not-signed-in',
      unlinkedRedirectUri: 'https://app.example/unlinked',
    },
    diary: { validCode: 'DIARY-OK', invalidCode: 'DIARY-BAD', unmappedSiteCode: 'DIARY-UNMAPPED' },
    patients: { inactivePatientId: 'PAT-0002', versionHeader: { name: 'SVC-API-Version', value: '1' } },
    contracts: { freshSiteId: 'SITE005', payor: 'bup' },
  },
};

const schema = JSON.parse(readFileSync(new URL('./config.schema.json', import.meta.url), 'utf8')) as object;
const ajv = new Ajv2020({ strict: true, allErrors: false });
const validateFile = ajv.compile<ConfigFile>(schema);

function readConfigFile(file: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(
      `Cannot read config file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`Config file ${file} is not valid JSON: ${(e as Error).message}`);
  }
  if (!validateFile(data)) {
    const err = validateFile.errors?.[0];
    const where = err?.instancePath || '/';
    const extra =
      err?.params && 'additionalProperty' in err.params ? ` (${String(err.params.additionalProperty)})` : '';
    throw new ConfigError(`Config file ${file} is invalid at ${where}: ${err?.message ?? 'invalid'}${extra}`);
  }
  return data;
}

function env(name: string, fallback: string | undefined, environment: NodeJS.ProcessEnv): string {
  const value = environment[name];
  if (value !== undefined && value !== '') return value;
  if (fallback !== undefined) return fallback;
  throw new ConfigError(`Environment variable ${name} is not set (the config names it for a secret)`);
}

function normaliseTarget(target: string): string {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new ConfigError(`Target ${JSON.stringify(target)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`Target ${target} must be an http or https URL`);
  }
  return url.toString().replace(/\/+$/, '');
}

/**
 * Loads and resolves the configuration. Without a file, the built-in defaults apply and the
 * sandbox's public demo credentials stand in for unset environment variables.
 */
export function loadConfig(options: {
  file?: string;
  target?: string;
  environment?: NodeJS.ProcessEnv;
}): ResolvedConfig {
  const environment = options.environment ?? process.env;
  const fromFile = options.file ? readConfigFile(options.file) : undefined;
  const file: ConfigFile = fromFile ?? DEFAULT_CONFIG;
  const rawTarget = options.target ?? file.target;
  if (!rawTarget) throw new ConfigError('No target: pass --target URL or set "target" in the config');
  const target = normaliseTarget(rawTarget);
  const fill = (s: string) => s.replaceAll('{target}', target);
  const services = { ...DEFAULT_CONFIG.services, ...file.services } as Record<ServiceId, { discovery: string }>;
  for (const id of Object.keys(services) as ServiceId[]) services[id] = { discovery: fill(services[id].discovery) };
  const demo = fromFile === undefined;
  const variable = (name: string) => env(name, demo ? SANDBOX_DEMO[name] : undefined, environment);
  const resolve = (auth: AuthConfig): Credentials => {
    if (auth.type === 'bearer') return { type: 'bearer', token: variable(auth.tokenEnv) };
    const client = {
      tokenUrl: fill(auth.tokenUrl),
      clientId: variable(auth.clientIdEnv),
      clientSecret: variable(auth.clientSecretEnv),
    };
    return auth.type === 'password'
      ? { type: 'password', ...client, username: variable(auth.usernameEnv), password: variable(auth.passwordEnv) }
      : { type: 'client-credentials', ...client };
  };
  const credentials = resolve(file.auth ?? DEFAULT_CONFIG.auth!);
  const named = Object.fromEntries(Object.entries(file.credentials ?? {}).map(([name, auth]) => [name, resolve(auth)]));
  const basic = Object.fromEntries(
    Object.entries(file.basic ?? {}).map(([name, b]) => [
      name,
      { clientId: variable(b.clientIdEnv), clientSecret: variable(b.clientSecretEnv) },
    ]),
  );
  return {
    target,
    services,
    credentials,
    named,
    basic,
    siteId: file.siteId ?? DEFAULT_CONFIG.siteId!,
    features: file.features ?? [],
    reservedOperations: file.reservedOperations ?? 'include',
    http: {
      timeoutMs: file.http?.timeoutMs ?? DEFAULT_CONFIG.http!.timeoutMs!,
      maxResponseBytes: file.http?.maxResponseBytes ?? DEFAULT_CONFIG.http!.maxResponseBytes!,
    },
    fixtures: file.fixtures ?? {},
    attestation: file.attestation ?? {},
    digest: createHash('sha256').update(JSON.stringify(file)).digest('hex'),
    source: options.file ?? '<built-in defaults>',
  };
}

/** The secret values of credentials, for masking. */
export function secretsOf(credentials: Credentials): string[] {
  if (credentials.type === 'bearer') return [credentials.token];
  return credentials.type === 'password'
    ? [credentials.clientSecret, credentials.password]
    : [credentials.clientSecret];
}

/** Every secret a resolved config holds, for masking. */
export function allSecretsOf(config: Pick<ResolvedConfig, 'credentials' | 'named' | 'basic'>): string[] {
  return [
    ...secretsOf(config.credentials),
    ...Object.values(config.named).flatMap(secretsOf),
    ...Object.values(config.basic).flatMap((b) => [
      b.clientSecret,
      Buffer.from(`${b.clientId}:${b.clientSecret}`).toString('base64'),
    ]),
  ];
}
