/**
 * Discovery: operation addresses come from each service's discovery document, by key
 * (Document 1, section 1 and 4; DEC-D1-08).
 */
import type { Operation, ServiceId } from '../spec/types.ts';
import type { Exchange } from './exchange.ts';
import { isRecord, parseJson } from './exchange.ts';
import type { HttpClient } from './http.ts';

/** The target could not be reached at all: the CLI exits 2 with this one-line message. */
export class TargetUnreachableError extends Error {
  override name = 'TargetUnreachableError';
}

/**
 * The discovery document of a service the run needs is not at the address the config gives (HTTP
 * 404, or a body that is not JSON). The documents do not show where a discovery document is
 * published (DEC-D1-08, DEC-D2-01, DEC-D3-01, DEC-D3-02): the address is the config's, so this is
 * a config problem to check, never a failure of the target's operations. Like an unreachable
 * target, the CLI exits 2 with this one-line message naming the config key. The exception is a
 * document whose location the documents fix (DOCUMENTED_LOCATIONS) at an address of that form:
 * nothing there is the target's failure.
 */
export class DiscoveryDocumentNotFoundError extends TargetUnreachableError {
  override name = 'DiscoveryDocumentNotFoundError';
}

/** The config key that gives a service's discovery document (core/config.schema.json). */
export const discoveryConfigKey = (service: ServiceId): string => `services.${service}.discovery`;

/**
 * Where the documents publish a service's discovery document, after the service's base address
 * (D1 1: "published at `{claims_url}/.well-known/api-configuration`", DEC-D1-08; D3 1: "published
 * at `{contracts_url}/contract/.well-known/api-configuration`", DEC-D3-02). The location of the
 * other services' documents is not shown.
 */
export const DOCUMENTED_LOCATIONS: Readonly<Partial<Record<ServiceId, { base: string; suffix: string }>>> = {
  claims: { base: '{claims_url}', suffix: '/.well-known/api-configuration' },
  contracts: { base: '{contracts_url}', suffix: '/contract/.well-known/api-configuration' },
};

/**
 * The base address the configured URL gives the service, when the service's document location is
 * documented and the URL has its documented form (`{claims_url}` of `.../claims/.well-known/...`).
 */
function documentedBase(service: ServiceId, url: string): string | undefined {
  const location = DOCUMENTED_LOCATIONS[service];
  if (!location) return undefined;
  const path = url.split(/[?#]/)[0];
  return path.endsWith(location.suffix) ? path.slice(0, -location.suffix.length) : undefined;
}

export interface ServiceDiscovery {
  service: ServiceId;
  url: string;
  /** Key -> address, when the document was readable. */
  keys?: Record<string, string>;
  /** Why the document could not be used (HTTP status, not JSON, not an object). */
  problem?: string;
  /**
   * The service's base address (`{claims_url}`), when the documents fix where its document is
   * published (DOCUMENTED_LOCATIONS) and the configured URL has that form: the run then judges the
   * document's location too (D1-1-09, D3-1-08).
   */
  documentedBase?: string;
  exchange: Exchange;
}

export async function discover(
  client: HttpClient,
  services: Record<ServiceId, { discovery: string }>,
  needed: readonly ServiceId[],
  optional: readonly ServiceId[] = [],
): Promise<Map<ServiceId, ServiceDiscovery>> {
  const found = new Map<ServiceId, ServiceDiscovery>();
  for (const service of [...needed, ...optional]) {
    const url = services[service].discovery;
    const x = await client.send({ method: 'GET', url, headers: { accept: 'application/json' } });
    if (!x.response) {
      if (optional.includes(service)) continue; // not needed by the selection: no address, no verdict
      throw new TargetUnreachableError(
        `Target unreachable: ${x.error ?? 'no response'} (discovery document of service ${service}: ${url})`,
      );
    }
    const base = documentedBase(service, url);
    const entry: ServiceDiscovery = {
      service,
      url,
      exchange: x,
      ...(base !== undefined ? { documentedBase: base } : {}),
    };
    const res = { ...x, response: x.response };
    const parsed = parseJson(res);
    const misplaced = misplacedDocument(service, url, res, parsed);
    if (misplaced !== undefined) {
      // Not needed by the selection: no address, no verdict, and nothing to stop the run for.
      if (optional.includes(service)) {
        found.set(service, { ...entry, problem: misplaced });
        continue;
      }
      // Where the documents fix the address (claims, contracts) and the config names it in that
      // form, nothing at it is the target's failure (D1-1-09, D3-1-08): judged on the operations
      // the document addresses (exit 1), with the config key named should the base be another.
      if (base === undefined) throw new DiscoveryDocumentNotFoundError(misplaced);
      const location = DOCUMENTED_LOCATIONS[service];
      const type = x.response.headers['content-type'];
      const received =
        x.response.status === 404 ? 'HTTP 404' : `a body that is not JSON (HTTP 200${type ? `, ${type}` : ''})`;
      entry.problem = `Expected the discovery document of service ${service} at its documented address ${location?.base}${location?.suffix}, here ${url} (${location?.base} = ${base}), received ${received}; were ${location?.base} another address, check config \`${discoveryConfigKey(service)}\``;
      found.set(service, entry);
      continue;
    }
    if (x.response.status !== 200)
      entry.problem = `Expected HTTP 200 for the discovery document ${url}, received HTTP ${x.response.status}`;
    else if (!parsed.ok)
      entry.problem = `Expected a JSON discovery document at ${url}, received a body that does not parse (${parsed.error})`;
    else if (!isRecord(parsed.value))
      entry.problem = `Expected a JSON object as discovery document at ${url}, received ${Array.isArray(parsed.value) ? 'an array' : typeof parsed.value}`;
    else {
      entry.keys = Object.fromEntries(
        Object.entries(parsed.value).filter((kv): kv is [string, string] => typeof kv[1] === 'string'),
      );
    }
    found.set(service, entry);
  }
  return found;
}

/**
 * Why the configured address holds no discovery document (HTTP 404, or a body that does not parse
 * as JSON: a web page, a wrong path), naming the config key to check; undefined otherwise.
 */
function misplacedDocument(
  service: ServiceId,
  url: string,
  x: Exchange & { response: NonNullable<Exchange['response']> },
  parsed: ReturnType<typeof parseJson>,
): string | undefined {
  const check = `check config \`${discoveryConfigKey(service)}\``;
  const status = x.response.status;
  if (status === 404) return `discovery document of service ${service} not found at ${url} (HTTP 404): ${check}`;
  if (status === 200 && !parsed.ok && !x.response.truncated) {
    const type = x.response.headers['content-type'];
    // A body the target itself calls JSON that does not parse (cut short, say) is the target's
    // failure at a right address, judged on the operations it addresses (exit 1), not a config
    // problem (issue 30, item 5). A web page or a text body is a wrong address.
    if (type !== undefined && isJsonMediaType(type)) return undefined;
    return `discovery document of service ${service} at ${url} is not JSON (HTTP 200${type ? `, ${type}` : ''}): ${check}`;
  }
  return undefined;
}

/** `application/json`, `application/fhir+json` and any other `+json` type, parameters aside. */
const isJsonMediaType = (contentType: string): boolean =>
  /^\s*[a-z0-9!#$&^_.+-]+\/(?:[a-z0-9!#$&^_.+-]+\+)?json\s*(?:;|$)/i.test(contentType);

/**
 * Why an operation has no address: its service's discovery document is missing or unusable
 * (`document`), lacks the key (`key`), or gives the key a value that is no address (`address`).
 */
export type Unaddressed = { problem: string; lacking: 'document' | 'key' | 'address' };

/** The absolute address of an operation, or a reason why there is none. */
export function addressOf(op: Operation, discovery: Map<ServiceId, ServiceDiscovery>): { url: string } | Unaddressed {
  const d = discovery.get(op.service);
  if (!d) return { problem: `Service ${op.service} was not discovered`, lacking: 'document' };
  if (!d.keys) return { problem: d.problem ?? 'discovery document unusable', lacking: 'document' };
  const value = d.keys[op.discoveryKey];
  if (value === undefined)
    return {
      problem: `Expected discovery key ${op.discoveryKey} in ${d.url}, received a document without it`,
      lacking: 'key',
    };
  try {
    return { url: new URL(value, d.url).toString().replace(/\/+$/, '') };
  } catch {
    return {
      problem: `Expected an address for ${op.discoveryKey}, received ${JSON.stringify(value).slice(0, 80)}`,
      lacking: 'address',
    };
  }
}
