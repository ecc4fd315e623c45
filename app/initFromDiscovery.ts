/**
 * What `conformance init --target URL` reads from a target before it writes a starter config: the
 * discovery document of each service where one answers (at the places the documents and the
 * sandbox use, under the target), and the token endpoint where the target shows one (a discovery
 * or OAuth metadata document naming it, or an address that answers a credential-less token request
 * as an OAuth token endpoint does). It sends GETs and one form POST without credentials at a time;
 * nothing is judged. The starter writes every address once: `services.base` with per-service
 * paths, one `tokenUrl`.
 */
import type { ConfigFile } from '../core/config.ts';
import { isRecord, parseJson } from '../core/exchange.ts';
import { HttpClient } from '../core/http.ts';
import { operations } from '../spec/operations.ts';
import type { ServiceId } from '../spec/types.ts';

/** The services in the order of the documents (and of the config schema). */
export const SERVICE_ORDER: readonly ServiceId[] = [
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

const DOCUMENT = '.well-known/api-configuration';

/**
 * Where a service's discovery document may be, under the target, most likely first: the place the
 * documents give or the sandbox uses (DEC-D1-08, DEC-D2-01, DEC-D3-01, DEC-D3-02), the other
 * spelling of its name, then the target's own document (one document for every service).
 */
const FOLDERS: Readonly<Record<ServiceId, readonly string[]>> = {
  membership: ['', 'membership'],
  claims: ['claims', 'claim', ''],
  reference: ['reference', ''],
  address: ['address', ''],
  register: ['register', ''],
  booking: ['booking', ''],
  accounts: ['accounts', 'account', ''],
  auth: ['auth', ''],
  diary: ['diary', ''],
  patients: ['patients', 'patient', ''],
  contracts: ['contracts/contract', 'contract', 'contracts', ''],
};

/** The path of a discovery document under the target (as `services.<id>.discovery` writes it). */
const documentPath = (folder: string): string => (folder === '' ? DOCUMENT : `${folder}/${DOCUMENT}`);

/** The discovery keys of each service's operations (spec/operations.ts). */
const KEYS: ReadonlyMap<ServiceId, ReadonlySet<string>> = (() => {
  const keys = new Map<ServiceId, Set<string>>();
  for (const op of operations) keys.set(op.service, (keys.get(op.service) ?? new Set()).add(op.discoveryKey));
  return keys;
})();

/**
 * The keys only this service's document holds: a document answers for a service when it names one
 * of them (`search_practitionerrole_endpoint` of the booking document does not make it the
 * register's).
 */
function ownKeys(service: ServiceId): string[] {
  const others = new Set([...KEYS].filter(([s]) => s !== service).flatMap(([, k]) => [...k]));
  return [...(KEYS.get(service) ?? [])].filter((k) => !others.has(k));
}

export interface ServiceFinding {
  service: ServiceId;
  /** The document that answered with the service's keys, as an address and as written under the target. */
  found?: { url: string; path: string; keys: number; of: number };
  /** The addresses asked, in order. */
  tried: string[];
  /**
   * The scheme and host the found document's addresses name, when they are not the target's (a
   * server behind a TLS front or gateway that publishes its own inner address).
   */
  elsewhere?: string;
}

export interface TokenFinding {
  /** The token endpoint found, and how. */
  found?: { url: string; how: string };
  /** The addresses asked, in order. */
  tried: string[];
}

export interface TargetFindings {
  target: string;
  /** Whether the target answered anything at all (else the first transport error). */
  reached: boolean;
  unreachable?: string;
  services: ServiceFinding[];
  token: TokenFinding;
}

/** Members of OAuth and discovery documents that name a token endpoint. */
const TOKEN_MEMBER = /^(oauth2?_)?token_(endpoint|url)$/i;

/** RFC 6749 5.2: the error codes of a token endpoint's refusal. */
const OAUTH_ERRORS = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
]);

/** The origins (scheme, host and port) of the absolute addresses among `values`. */
function originsOf(values: readonly unknown[]): string[] {
  return values.flatMap((v) => {
    if (typeof v !== 'string' || !/^https?:\/\//i.test(v)) return [];
    try {
      return [new URL(v).origin];
    } catch {
      return [];
    }
  });
}

/** Reads the target's discovery documents and looks for its token endpoint. */
export async function readTarget(target: string, client?: HttpClient): Promise<TargetFindings> {
  const http =
    client ??
    new HttpClient({
      timeoutMs: 10_000,
      maxResponseBytes: 1024 * 1024,
      loadRetries: 3,
      loadRetryWaitMs: 15_000,
      maxRetryAfterMs: 5_000,
      concurrency: 4,
    });
  try {
    return await read(target.replace(/\/+$/, ''), http);
  } finally {
    if (!client) await http.close();
  }
}

async function read(target: string, http: HttpClient): Promise<TargetFindings> {
  let reached = false;
  let unreachable: string | undefined;
  const documents = new Map<string, Promise<Record<string, unknown> | undefined>>();
  /** The JSON object at an address (each asked once), or undefined. */
  const documentAt = (url: string): Promise<Record<string, unknown> | undefined> => {
    let answer = documents.get(url);
    if (answer === undefined) {
      answer = http.send({ method: 'GET', url, headers: { accept: 'application/json' } }).then((x) => {
        if (!x.response) {
          unreachable ??= x.error;
          return undefined;
        }
        reached = true;
        if (x.response.status !== 200) return undefined;
        const parsed = parseJson({ ...x, response: x.response });
        return parsed.ok && isRecord(parsed.value) ? parsed.value : undefined;
      });
      documents.set(url, answer);
    }
    return answer;
  };

  const services = await Promise.all(
    SERVICE_ORDER.map(async (service): Promise<ServiceFinding> => {
      const own = ownKeys(service);
      const all = [...(KEYS.get(service) ?? [])];
      const tried: string[] = [];
      for (const folder of FOLDERS[service]) {
        const path = documentPath(folder);
        const url = `${target}/${path}`;
        tried.push(url);
        const doc = await documentAt(url);
        if (doc && own.some((k) => typeof doc[k] === 'string')) {
          const keys = all.filter((k) => typeof doc[k] === 'string').length;
          const elsewhere = originsOf(all.map((k) => doc[k])).find((o) => o !== new URL(target).origin);
          return { service, found: { url, path, keys, of: all.length }, tried, ...(elsewhere ? { elsewhere } : {}) };
        }
      }
      return { service, tried };
    }),
  );

  const token = await findTokenEndpoint(target, services, documentAt, http, () => {
    reached = true;
  });
  return { target, reached, ...(reached || unreachable === undefined ? {} : { unreachable }), services, token };
}

/**
 * The token endpoint: named by a discovery document found, or by OAuth metadata (RFC 8414, OpenID
 * Connect discovery) at the target or at the sign-on base `auth_url`; else the first usual address
 * that answers a credential-less `grant_type=client_credentials` POST as a token endpoint refuses
 * it (HTTP 400 or 401 with an OAuth `error`).
 */
async function findTokenEndpoint(
  target: string,
  services: readonly ServiceFinding[],
  documentAt: (url: string) => Promise<Record<string, unknown> | undefined>,
  http: HttpClient,
  answered: () => void,
): Promise<TokenFinding> {
  const tried: string[] = [];
  for (const s of services) {
    if (!s.found) continue;
    const doc = (await documentAt(s.found.url)) ?? {};
    const named = Object.entries(doc).find(([k, v]) => TOKEN_MEMBER.test(k) && typeof v === 'string');
    if (named)
      return {
        found: { url: absolute(String(named[1]), s.found.url), how: `named ${named[0]} in ${s.found.url}` },
        tried,
      };
  }
  const authDoc = services.find((s) => s.service === 'auth')?.found;
  const authUrl = authDoc ? (await documentAt(authDoc.url))?.auth_url : undefined;
  const bases = [target, ...(typeof authUrl === 'string' ? [absolute(authUrl, authDoc?.url ?? target)] : [])];
  const uniqueBases = [...new Set(bases.map((b) => b.replace(/\/+$/, '')))];
  for (const base of uniqueBases)
    for (const metadata of ['.well-known/oauth-authorization-server', '.well-known/openid-configuration']) {
      const url = `${base}/${metadata}`;
      tried.push(url);
      const doc = await documentAt(url);
      if (typeof doc?.token_endpoint === 'string')
        return { found: { url: absolute(doc.token_endpoint, url), how: `token_endpoint of ${url}` }, tried };
    }
  const probes = uniqueBases.flatMap((base) => [`${base}/oauth/token`, `${base}/oauth2/token`, `${base}/token`]);
  for (const url of [...new Set(probes)]) {
    tried.push(url);
    const x = await http.send({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: 'grant_type=client_credentials',
    });
    if (!x.response) continue;
    answered();
    if (x.response.status !== 400 && x.response.status !== 401) continue;
    const parsed = parseJson({ ...x, response: x.response });
    const error = parsed.ok && isRecord(parsed.value) ? parsed.value.error : undefined;
    if (typeof error === 'string' && OAUTH_ERRORS.has(error))
      return {
        found: { url, how: `answers a token request without credentials with HTTP ${x.response.status} ${error}` },
        tried,
      };
  }
  return { tried };
}

/** An address a document gives, made absolute against the document's own address. */
function absolute(value: string, base: string): string {
  try {
    return new URL(value, base).toString();
  } catch {
    return value;
  }
}

/** An address as the starter writes it: under the target with `{target}`, else whole. */
export function writtenUnder(target: string, url: string): string {
  const base = target.replace(/\/+$/, '');
  return url === base || url.startsWith(`${base}/`) ? `{target}${url.slice(base.length)}` : url;
}

/** The demo config's discovery path of each service (`{target}/claims/...` -> `claims/...`). */
function demoPaths(demo: ConfigFile): Record<ServiceId, string> {
  return Object.fromEntries(
    SERVICE_ORDER.map((id) => {
      const written = demo.services?.[id]?.discovery ?? DOCUMENT;
      return [id, written.replace(/^\{target\}\/?/, '')];
    }),
  ) as Record<ServiceId, string>;
}

/**
 * The starter config: the demo config's credentials, features and fixtures, with every address
 * written once (`services.base` `{target}` and per-service paths, one `tokenUrl`), filled with what
 * was found on the target.
 */
export function starterConfig(demo: ConfigFile, schema: string, findings?: TargetFindings): ConfigFile {
  const paths = demoPaths(demo);
  const services: NonNullable<ConfigFile['services']> = { base: '{target}' };
  for (const id of SERVICE_ORDER) {
    const found = findings?.services.find((s) => s.service === id)?.found;
    services[id] = { discovery: found ? found.path : paths[id] };
  }
  const demoTokenUrl = demo.auth && 'tokenUrl' in demo.auth ? demo.auth.tokenUrl : undefined;
  const found = findings?.token.found;
  const tokenUrl = found ? writtenUnder(findings.target, found.url) : (demoTokenUrl ?? '{target}/oauth/token');
  const withoutTokenUrl = <T extends object>(auth: T): T => {
    const { tokenUrl: _own, ...rest } = auth as T & { tokenUrl?: string };
    return rest as T;
  };
  const { $schema: _schema, target: _target, services: _services, auth, credentials, ...rest } = demo;
  return {
    $schema: schema,
    ...(findings ? { target: findings.target } : {}),
    services,
    tokenUrl,
    ...(auth ? { auth: withoutTokenUrl(auth) } : {}),
    ...(credentials
      ? {
          credentials: Object.fromEntries(
            Object.entries(credentials).map(([name, c]) => [name, c ? withoutTokenUrl(c) : c]),
          ),
        }
      : {}),
    ...rest,
  };
}
