/**
 * Run configuration: loaded from a JSON file validated by core/config.schema.json, whose types
 * (core/configTypes.ts) are generated from that schema. Secrets come only from environment
 * variables named in the config. Nothing here knows the sandbox: its demo config is a config file
 * it owns (server/demo-config.json), which the application layer loads when none is given.
 */
import { createHash, createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FeatureName, ServiceId } from '../spec/types.ts';
import { DEFAULT_STOP_AFTER_FAILURES } from './breaker.ts';
import type { Auth, ConformanceRunConfiguration, Fixtures } from './configTypes.ts';
import { discoveryConfigKey } from './discovery.ts';
import { EVIDENCE_DEFAULTS } from './evidenceCap.ts';
import {
  DEFAULT_CONCURRENCY,
  LOAD_RETRY_DEFAULTS,
  type ProxyChoice,
  type ProxySettings,
  secureContextOf,
  type TlsSettings,
} from './http.ts';
import type { Attestation } from './results.ts';

export type { Fixtures, MemberSearch } from './configTypes.ts';
/** A config file as written (the schema's type). */
export type ConfigFile = ConformanceRunConfiguration;
export type AuthConfig = Auth;

/** Credentials resolved from the environment; never written anywhere unmasked. */
export type Credentials =
  | { type: 'client-credentials'; tokenUrl: string; clientId: string; clientSecret: string }
  | { type: 'password'; tokenUrl: string; username: string; password: string; clientId: string; clientSecret: string }
  | { type: 'bearer'; token: string };

/** The config's `http` section with every default filled in (docs/hostile-targets.md). */
export interface HttpSettings {
  /** Time budget of one call, redirects and the whole body included. */
  timeoutMs: number;
  /** Bytes of an answer read and judged. */
  maxResponseBytes: number;
  /** Consecutive time-outs or transport failures that stop a service's calls (0: never). */
  stopAfterConsecutiveFailures: number;
  /** Bytes of one body kept as evidence. */
  maxEvidenceBytes: number;
  /** Bytes of body text the run keeps as evidence in all. */
  maxRunEvidenceBytes: number;
  /** Requests the whole run starts per second at most (no limit when absent). */
  maxRequestsPerSecond?: number;
  /** Calls the whole run has in flight at once at most (config default DEFAULT_CONCURRENCY; no limit when absent). */
  concurrency?: number;
  /** Resends the run may make after load refusals (HTTP 429, or 503 with Retry-After; 0: none). */
  loadRetries: number;
  /** Milliseconds the run may wait in all before those resends. */
  loadRetryWaitMs: number;
  /** Longest single wait after a load refusal. */
  maxRetryAfterMs: number;
  /** Trusted CA and client certificate of the target's TLS (config `http.caFile`, `http.clientCertFile` ...), read. */
  tls?: TlsSettings;
  /** Proxies (config `http.proxy`, else the environment's HTTPS_PROXY, HTTP_PROXY and NO_PROXY). */
  proxy?: ProxySettings;
}

/** The defaults of the config's `http` section. */
export const HTTP_DEFAULTS: Readonly<HttpSettings> = {
  timeoutMs: 10_000,
  maxResponseBytes: 5 * 1024 * 1024,
  stopAfterConsecutiveFailures: DEFAULT_STOP_AFTER_FAILURES,
  concurrency: DEFAULT_CONCURRENCY,
  ...EVIDENCE_DEFAULTS,
  ...LOAD_RETRY_DEFAULTS,
};

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
  http: HttpSettings;
  fixtures: Fixtures;
  attestation: Attestation;
  /** What `conformance compare` leaves out of a comparison (config `compare.ignore`), each item as `{ path, operations?, reason? }`. */
  compareIgnore: CompareIgnore[];
  /** SHA-256 of the config as loaded (before secrets were resolved). */
  digest: string;
  source: string;
}

/** A path `conformance compare` leaves out (config `compare.ignore`): on every operation, or on those named. */
export interface CompareIgnore {
  path: string;
  operations?: string[];
  reason?: string;
}

/** The config's `compare.ignore`, each item in its object form. */
export function compareIgnoreOf(file: ConfigFile): CompareIgnore[] {
  return (file.compare?.ignore ?? []).map((item) =>
    typeof item === 'string'
      ? { path: item }
      : { ...item, ...(item.operations ? { operations: [...item.operations] } : {}) },
  );
}

/** A bad config or environment: the CLI prints the one-line message and exits 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A service's discovery document when the config does not name it, under `services.base` (DESIGN: one per target). */
const DEFAULT_DISCOVERY = '.well-known/api-configuration';
const SERVICES: readonly ServiceId[] = [
  'membership',
  'claims',
  'reference',
  'address',
  'register',
  'booking',
  'accounts',
  'auth',
  'diary',
  'patients',
  'contracts',
];

const schema = JSON.parse(readFileSync(new URL('./config.schema.json', import.meta.url), 'utf8')) as object;
const ajv = new Ajv2020({ strict: true, allErrors: false });
const validateFile = ajv.compile<ConfigFile>(schema);

/** Reads a config file and checks it against core/config.schema.json (nothing resolved: no target, secrets or files). */
export function readConfigFile(file: string): ConfigFile {
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
  throw new ConfigError(missingVariablesMessage([name]));
}

/**
 * Every environment variable a config names for a secret (each `*Env` member: auth, credentials,
 * basic, http.clientKeyPassphraseEnv), once each, in the order the file names them.
 */
export function variablesNamed(file: ConfigFile): string[] {
  const names = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const v of value) walk(v);
    else if (value !== null && typeof value === 'object')
      for (const [key, v] of Object.entries(value)) {
        if (key === 'fixtures') continue;
        if (key.endsWith('Env') && typeof v === 'string') names.add(v);
        else walk(v);
      }
  };
  walk(file);
  return [...names];
}

/** The one line naming every variable that is not set (one run tells them all, not one per run). */
export function missingVariablesMessage(missing: readonly string[]): string {
  if (missing.length === 1) return `Environment variable ${missing[0]} is not set (the config names it for a secret)`;
  const list = `${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]}`;
  return `Environment variables ${list} are not set (the config names them for secrets)`;
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

/** An address written whole (`https://...`, or `{target}/...` once filled), as opposed to a path. */
const WHOLE_ADDRESS = /^[a-z][a-z0-9+.-]*:/i;

/** A filled-in address, checked to be an http or https URL; the error names the setting. */
function httpAddress(setting: string, written: string, address: string): string {
  let url: URL | undefined;
  try {
    url = new URL(address);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new ConfigError(
      `${setting} is ${JSON.stringify(written)}${address !== written ? ` (${address})` : ''}, not an http or https address`,
    );
  return address;
}

/**
 * The discovery document of each service: `services.<id>.discovery` (default
 * `.well-known/api-configuration`) is a path appended to `services.base` (default `{target}`), an
 * address holding `{target}`, or a whole URL. Old configs, which wrote every address with
 * `{target}`, resolve as before.
 */
function serviceAddresses(
  services: ConfigFile['services'],
  fill: (s: string) => string,
): Record<ServiceId, { discovery: string }> {
  const writtenBase = services?.base ?? '{target}';
  const base = httpAddress('services.base', writtenBase, fill(writtenBase)).replace(/\/+$/, '');
  const discovery = (id: ServiceId): string => {
    const written = services?.[id]?.discovery ?? DEFAULT_DISCOVERY;
    const filled = fill(written);
    const address = WHOLE_ADDRESS.test(filled) ? filled : `${base}/${filled.replace(/^\/+/, '')}`;
    return httpAddress(discoveryConfigKey(id), written, address);
  };
  return Object.fromEntries(SERVICES.map((id) => [id, { discovery: discovery(id) }])) as Record<
    ServiceId,
    { discovery: string }
  >;
}

/**
 * Loads and resolves a config file. `fallbacks` stand in for unset environment variables (only
 * the sandbox's demo config has any: its public demo credentials). Every variable the config
 * names and the environment lacks is named in one ConfigError.
 */
export function loadConfig(options: {
  file: string;
  target?: string;
  environment?: NodeJS.ProcessEnv;
  fallbacks?: Readonly<Record<string, string>>;
}): ResolvedConfig {
  const environment = options.environment ?? process.env;
  const file: ConfigFile = readConfigFile(options.file);
  const rawTarget = options.target ?? file.target;
  if (!rawTarget) throw new ConfigError('No target: pass --target URL or set "target" in the config');
  const target = normaliseTarget(rawTarget);
  const fill = (s: string) => s.replaceAll('{target}', target);
  if (!file.auth) throw new ConfigError(`Config file ${options.file} names no auth (how the run obtains its token)`);
  if (!file.siteId) throw new ConfigError(`Config file ${options.file} names no siteId (the SU-SiteId the run sends)`);
  const missing = variablesNamed(file).filter(
    (name) => (environment[name] ?? '') === '' && options.fallbacks?.[name] === undefined,
  );
  if (missing.length > 0) throw new ConfigError(missingVariablesMessage(missing));
  const services = serviceAddresses(file.services, fill);
  const variable = (name: string) => env(name, options.fallbacks?.[name], environment);
  const tokenUrl = (where: string, own: string | undefined): string => {
    const written = own ?? file.tokenUrl;
    if (written === undefined)
      throw new ConfigError(
        `${where} names no tokenUrl, and the config gives no tokenUrl for every credential: set "tokenUrl" (for instance "{target}/oauth/token")`,
      );
    return httpAddress(own !== undefined ? `${where}.tokenUrl` : 'tokenUrl', written, fill(written));
  };
  const resolve = (where: string, auth: AuthConfig): Credentials => {
    if (auth.type === 'bearer') return { type: 'bearer', token: variable(auth.tokenEnv) };
    const client = {
      tokenUrl: tokenUrl(where, auth.tokenUrl),
      clientId: variable(auth.clientIdEnv),
      clientSecret: variable(auth.clientSecretEnv),
    };
    return auth.type === 'password'
      ? { type: 'password', ...client, username: variable(auth.usernameEnv), password: variable(auth.passwordEnv) }
      : { type: 'client-credentials', ...client };
  };
  const credentials = resolve('auth', file.auth);
  const named: Record<string, Credentials> = {};
  for (const [name, auth] of Object.entries(file.credentials ?? {}))
    if (auth !== undefined) named[name] = resolve(`credentials.${name}`, auth);
  const basic: Record<string, { clientId: string; clientSecret: string }> = {};
  for (const [name, b] of Object.entries(file.basic ?? {}))
    if (b !== undefined) basic[name] = { clientId: variable(b.clientIdEnv), clientSecret: variable(b.clientSecretEnv) };
  return {
    target,
    services,
    credentials,
    named,
    basic,
    siteId: file.siteId,
    features: (file.features ?? []) as FeatureName[],
    reservedOperations: file.reservedOperations ?? 'include',
    http: httpSettings(file.http, dirname(resolvePath(options.file)), variable, environment),
    fixtures: file.fixtures ?? {},
    attestation: file.attestation ?? {},
    compareIgnore: compareIgnoreOf(file),
    digest: createHash('sha256').update(JSON.stringify(file)).digest('hex'),
    source: options.file,
  };
}

type HttpSection = NonNullable<ConfigFile['http']>;

/**
 * The `http` section with its defaults, its files read and checked (paths relative to the config
 * file's folder) and its proxy chosen: every problem is a ConfigError naming the setting, before
 * any request. (`init --target` reads its connection options through it too.)
 */
export function httpSettings(
  section: HttpSection | undefined,
  base: string,
  variable: (name: string) => string,
  environment: NodeJS.ProcessEnv,
): HttpSettings {
  const { caFile, clientCertFile, clientKeyFile, clientKeyPassphraseEnv, proxy, ...limits } = section ?? {};
  const tls: TlsSettings = {};
  if (caFile !== undefined) {
    const ca = settingFile('http.caFile', caFile, base);
    const blocks = pemBlocks(ca.text, 'CERTIFICATE');
    if (blocks.length === 0) throw new ConfigError(`http.caFile (${ca.file}) holds no PEM certificate`);
    for (const block of blocks) certificateOf('http.caFile', ca.file, block);
    tls.ca = { pem: blocks.join('\n'), file: ca.file };
  }
  if (clientCertFile !== undefined && clientKeyFile !== undefined) {
    const cert = settingFile('http.clientCertFile', clientCertFile, base);
    const blocks = pemBlocks(cert.text, 'CERTIFICATE');
    if (blocks.length === 0) throw new ConfigError(`http.clientCertFile (${cert.file}) holds no PEM certificate`);
    const leaf = certificateOf('http.clientCertFile', cert.file, blocks[0]);
    const key = settingFile('http.clientKeyFile', clientKeyFile, base);
    const passphrase = clientKeyPassphraseEnv !== undefined ? variable(clientKeyPassphraseEnv) : undefined;
    const keyObject = privateKeyOf(key, passphrase, clientKeyPassphraseEnv);
    if (!leaf.checkPrivateKey(keyObject))
      throw new ConfigError(
        `http.clientKeyFile (${key.file}) is not the key of the certificate of http.clientCertFile (${cert.file})`,
      );
    tls.client = {
      cert: cert.text,
      key: key.text,
      ...(passphrase !== undefined ? { passphrase } : {}),
      certFile: cert.file,
      keyFile: key.file,
    };
  }
  if (tls.ca || tls.client) {
    try {
      secureContextOf(tls);
    } catch (e) {
      throw new ConfigError(`The TLS settings (http.caFile, http.clientCertFile) do not load: ${firstLine(e)}`);
    }
  }
  const proxies = proxySettings(proxy, environment);
  return {
    ...HTTP_DEFAULTS,
    ...limits,
    ...(tls.ca || tls.client ? { tls } : {}),
    ...(proxies ? { proxy: proxies } : {}),
  };
}

/** A file a setting names, read (a relative path is the config file's folder's). */
function settingFile(setting: string, name: string, base: string): { file: string; text: string } {
  const file = resolvePath(base, name);
  try {
    return { file, text: readFileSync(file, 'utf8') };
  } catch (e) {
    throw new ConfigError(
      `${setting} names ${file}, which cannot be read (${(e as NodeJS.ErrnoException).code ?? firstLine(e)})`,
    );
  }
}

/** The PEM blocks of one label (CERTIFICATE) in a text, each whole. */
function pemBlocks(text: string, label: string): string[] {
  const pattern = new RegExp(`-----BEGIN ${label}-----[\\s\\S]*?-----END ${label}-----`, 'g');
  return text.match(pattern) ?? [];
}

function certificateOf(setting: string, file: string, pem: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch (e) {
    throw new ConfigError(`${setting} (${file}) holds a certificate that does not parse: ${firstLine(e)}`);
  }
}

function privateKeyOf(key: { file: string; text: string }, passphrase?: string, passphraseEnv?: string): KeyObject {
  const encrypted = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,ENCRYPTED/.test(key.text);
  if (encrypted && passphrase === undefined)
    throw new ConfigError(
      `http.clientKeyFile (${key.file}) is encrypted: set http.clientKeyPassphraseEnv to the name of an environment variable holding its passphrase`,
    );
  try {
    return createPrivateKey({ key: key.text, ...(passphrase !== undefined ? { passphrase } : {}) });
  } catch (e) {
    throw new ConfigError(
      encrypted
        ? `http.clientKeyFile (${key.file}) does not open with the passphrase of ${passphraseEnv} (http.clientKeyPassphraseEnv)`
        : `http.clientKeyFile (${key.file}) holds no private key in PEM (${(e as NodeJS.ErrnoException).code ?? firstLine(e)})`,
    );
  }
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0];
}

/** The first of these environment variables set (not empty), as undici reads them: lower case first. */
function fromEnvironment(
  environment: NodeJS.ProcessEnv,
  ...names: string[]
): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = environment[name];
    if (value !== undefined && value.trim() !== '') return { name, value: value.trim() };
  }
  return undefined;
}

/** A proxy address as a URL (an address without a scheme, usual in the environment, is http://). */
function proxyUrl(value: string, from: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '')
    throw new ConfigError(`${from} is not the address of an http or https proxy (http://host:port)`);
  return url;
}

/**
 * The proxies of a run: `http.proxy` for every call when the config sets it, else the
 * environment's HTTPS_PROXY (calls to https: addresses; HTTP_PROXY when it is not set, as undici
 * does) and HTTP_PROXY (calls to http: addresses); NO_PROXY exempts hosts in both cases.
 */
function proxySettings(configured: string | undefined, environment: NodeJS.ProcessEnv): ProxySettings | undefined {
  const noProxy = fromEnvironment(environment, 'no_proxy', 'NO_PROXY')?.value ?? '';
  if (configured !== undefined) {
    const url = proxyUrl(configured, 'http.proxy');
    if (url.username !== '' || url.password !== '')
      throw new ConfigError(
        'http.proxy holds credentials, and a config file holds no secret: give the proxy with its credentials in HTTPS_PROXY and HTTP_PROXY instead',
      );
    const choice: ProxyChoice = { url: url.toString(), from: 'http.proxy' };
    return { http: choice, https: choice, noProxy };
  }
  const choice = (v: { name: string; value: string } | undefined): ProxyChoice | undefined =>
    v ? { url: proxyUrl(v.value, `Environment variable ${v.name}`).toString(), from: v.name } : undefined;
  const http = choice(fromEnvironment(environment, 'http_proxy', 'HTTP_PROXY'));
  const https = choice(fromEnvironment(environment, 'https_proxy', 'HTTPS_PROXY')) ?? http;
  if (http === undefined && https === undefined) return undefined;
  return { ...(http ? { http } : {}), ...(https ? { https } : {}), noProxy };
}

/** The secrets of the http section: the client key's passphrase and the proxies' credentials. */
function httpSecretsOf(http: Pick<HttpSettings, 'tls' | 'proxy'> | undefined): string[] {
  const secrets: string[] = [];
  if (http?.tls?.client?.passphrase) secrets.push(http.tls.client.passphrase);
  for (const choice of [http?.proxy?.http, http?.proxy?.https]) {
    if (choice === undefined) continue;
    const url = new URL(choice.url);
    if (url.password === '') continue;
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    secrets.push(password, url.password, Buffer.from(`${user}:${password}`).toString('base64'));
  }
  return [...new Set(secrets)];
}

/** The secret values of credentials, for masking. */
export function secretsOf(credentials: Credentials): string[] {
  if (credentials.type === 'bearer') return [credentials.token];
  return credentials.type === 'password'
    ? [credentials.clientSecret, credentials.password]
    : [credentials.clientSecret];
}

/** Every secret a resolved config holds, for masking. */
export function allSecretsOf(
  config: Pick<ResolvedConfig, 'credentials' | 'named' | 'basic'> & { http?: Pick<HttpSettings, 'tls' | 'proxy'> },
): string[] {
  return [
    ...httpSecretsOf(config.http),
    ...secretsOf(config.credentials),
    ...Object.values(config.named).flatMap(secretsOf),
    ...Object.values(config.basic).flatMap((b) => [
      b.clientSecret,
      Buffer.from(`${b.clientId}:${b.clientSecret}`).toString('base64'),
    ]),
  ];
}
