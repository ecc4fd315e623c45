/**
 * The service is a careful client of other people's servers: a partner's base URL is resolved
 * (every address dns.lookup answers) and refused when any address is loopback, link-local,
 * private, unique-local, unspecified, multicast or otherwise not a public unicast address, unless
 * the operator allows that range in the service config (the tests allow loopback). This check
 * before the run covers the URLs known then; the run's connect guard (core/connectGuard.ts) checks
 * every address the run's calls connect to, discovery's addresses and a name that resolves
 * otherwise at connect time included.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type AllowedRange, addressRefusal } from '../core/connectGuard.ts';

// One classification of addresses for the check before a run and the run's connect guard.
export { type AllowedRange, rangeOf } from '../core/connectGuard.ts';

/** The partner URL may not be used: one line for the partner's page. */
export class TargetRefused extends Error {}

export type Resolver = (host: string) => Promise<{ address: string }[]>;
const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/** Resolves the URL's host and refuses it unless every address is public or in an allowed range. */
export async function guardTarget(
  url: string,
  allow: readonly AllowedRange[],
  resolve: Resolver = systemResolver,
): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TargetRefused(`Expected an http or https URL, received ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new TargetRefused(`Expected an http or https URL, received ${JSON.stringify(url)}`);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await resolve(host)).map((a) => a.address);
  } catch (e) {
    throw new TargetRefused(`${host} does not resolve (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (addresses.length === 0) throw new TargetRefused(`${host} does not resolve`);
  for (const address of addresses) {
    const refusal = addressRefusal(host, address, allow);
    if (refusal !== undefined) throw new TargetRefused(refusal);
  }
}
