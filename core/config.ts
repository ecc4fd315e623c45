/**
 * Run configuration: loaded from a JSON file validated by core/config.schema.json, whose types
 * (core/configTypes.ts) are generated from that schema. Secrets come only from environment
 * variables named in the config. Nothing here knows the sandbox: its demo config is a config file
 * it owns (server/demo-config.json), which the application layer loads when none is given.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FeatureName, ServiceId } from '../spec/types.ts';
import { DEFAULT_STOP_AFTER_FAILURES } from './breaker.ts';
import type { Auth, ConformanceRunConfiguration, Fixtures } from './configTypes.ts';
import { EVIDENCE_DEFAULTS } from './evidenceCap.ts';
import { LOAD_RETRY_DEFAULTS } from './http.ts';
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
  /** Calls the whole run has in flight at once at most (no limit when absent). */
  concurrency?: number;
  /** Resends the run may make after load refusals (HTTP 429, or 503 with Retry-After; 0: none). */
  loadRetries: number;
  /** Milliseconds the run may wait in all before those resends. */
  loadRetryWaitMs: number;
  /** Longest single wait after a load refusal. */
  maxRetryAfterMs: number;
}

/** The defaults of the config's `http` section. */
export const HTTP_DEFAULTS: Readonly<HttpSettings> = {
  timeoutMs: 10_000,
  maxResponseBytes: 5 * 1024 * 1024,
  stopAfterConsecutiveFailures: DEFAULT_STOP_AFTER_FAILURES,
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
  /** SHA-256 of the config as loaded (before secrets were resolved). */
  digest: string;
  source: string;
}

/** A bad config or environment: the CLI prints the one-line message and exits 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Every service's discovery document when the config does not name it (DESIGN: one per target). */
const DEFAULT_DISCOVERY = '{target}/.well-known/api-configuration';
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
 * Loads and resolves a config file. `fallbacks` stand in for unset environment variables (only
 * the sandbox's demo config has any: its public demo credentials).
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
  const services = Object.fromEntries(
    SERVICES.map((id) => [id, { discovery: fill(file.services?.[id]?.discovery ?? DEFAULT_DISCOVERY) }]),
  ) as Record<ServiceId, { discovery: string }>;
  const variable = (name: string) => env(name, options.fallbacks?.[name], environment);
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
  if (!file.auth) throw new ConfigError(`Config file ${options.file} names no auth (how the run obtains its token)`);
  if (!file.siteId) throw new ConfigError(`Config file ${options.file} names no siteId (the SU-SiteId the run sends)`);
  const credentials = resolve(file.auth);
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
    siteId: file.siteId,
    features: (file.features ?? []) as FeatureName[],
    reservedOperations: file.reservedOperations ?? 'include',
    http: { ...HTTP_DEFAULTS, ...file.http },
    fixtures: file.fixtures ?? {},
    attestation: file.attestation ?? {},
    digest: createHash('sha256').update(JSON.stringify(file)).digest('hex'),
    source: options.file,
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
