/**
 * A stored secret stays with its host (issue 33, item 4): the secrets of a product are bound to
 * the hosts they were stored for (the product's base URL and every URL its config names, such as
 * a token endpoint). A config that names another host later does not carry them there: the
 * secrets must be entered again for it, on the config page, and a run whose config names a host
 * they were not given for is refused before any request.
 *
 * Stored form, sealed: `{"$hosts": [...], NAME: value, ...}` (`$hosts` is no variable name).
 * Secrets stored before the binding existed carry no `$hosts`: they are taken as bound to the hosts
 * of the config they were stored with.
 */
import type { SecretBox } from './secrets.ts';

const HOSTS = '$hosts';

/**
 * Every http(s) URL a config has the run connect to (discovery documents, token endpoints),
 * `{target}` filled in. The fixtures' URLs are values the run sends (a redirect URI), never
 * addresses it connects to: they are neither resolved before the run nor given secrets.
 */
export function urlsOf(value: unknown, target: string, into: string[] = [], top = true): string[] {
  if (typeof value === 'string') {
    const filled = value.replaceAll('{target}', target);
    if (/^https?:\/\//i.test(filled)) into.push(filled);
  } else if (Array.isArray(value)) for (const v of value) urlsOf(v, target, into, false);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) if (!(top && k === 'fixtures')) urlsOf(v, target, into, false);
  return into;
}

/** The hosts (`host[:port]`, lower case) of the base URL and of every URL the config names. */
export function hostsOf(configJson: string | null | undefined, baseUrl: string): string[] {
  const urls = [baseUrl, ...(configJson ? urlsOf(JSON.parse(configJson), baseUrl) : [])];
  const hosts = new Set<string>();
  for (const u of urls) {
    try {
      hosts.add(new URL(u).host.toLowerCase());
    } catch {
      // not a URL: names no host
    }
  }
  return [...hosts].sort();
}

export interface StoredSecrets {
  values: Record<string, string>;
  /** The hosts they may be sent to; undefined for secrets stored before the binding. */
  hosts?: string[];
}

export function openSecrets(box: SecretBox, sealed: string | null | undefined): StoredSecrets {
  if (!sealed) return { values: {} };
  const { [HOSTS]: hosts, ...values } = JSON.parse(box.open(sealed)) as Record<string, unknown>;
  return {
    values: values as Record<string, string>,
    ...(Array.isArray(hosts) ? { hosts: hosts.map(String) } : {}),
  };
}

export function sealSecrets(box: SecretBox, values: Record<string, string>, hosts: readonly string[]): string {
  return box.seal(JSON.stringify({ [HOSTS]: [...hosts].sort(), ...values }));
}

/** The hosts of `wanted` the secrets were not stored for. */
export function newHosts(stored: readonly string[], wanted: readonly string[]): string[] {
  return wanted.filter((h) => !stored.includes(h));
}
