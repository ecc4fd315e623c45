/**
 * The service is a careful client of other people's servers: a partner's base URL is resolved
 * (every address dns.lookup answers) and refused when any address is loopback, link-local,
 * private, unique-local, unspecified, multicast or otherwise not a public unicast address, unless
 * the operator allows that range in the service config (the tests allow loopback).
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Ranges the operator may allow by name. */
export type AllowedRange = 'loopback' | 'private' | 'link-local';

const RANGES: Record<AllowedRange | 'other', [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  private: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['100.64.0.0', 10, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
  'link-local': [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  other: [
    ['0.0.0.0', 8, 'ipv4'],
    ['192.0.0.0', 24, 'ipv4'],
    ['192.0.2.0', 24, 'ipv4'],
    ['198.18.0.0', 15, 'ipv4'],
    ['198.51.100.0', 24, 'ipv4'],
    ['203.0.113.0', 24, 'ipv4'],
    ['224.0.0.0', 3, 'ipv4'],
    ['::', 128, 'ipv6'],
    ['ff00::', 8, 'ipv6'],
    ['2001:db8::', 32, 'ipv6'],
    ['64:ff9b::', 96, 'ipv6'],
  ],
};

function blockList(ranges: [string, number, 'ipv4' | 'ipv6'][]): BlockList {
  const list = new BlockList();
  for (const [net, prefix, family] of ranges) list.addSubnet(net, prefix, family);
  return list;
}

const LISTS = Object.fromEntries(Object.entries(RANGES).map(([k, v]) => [k, blockList(v)])) as Record<
  AllowedRange | 'other',
  BlockList
>;

/** The range an address falls in, or undefined for a public unicast address. */
export function rangeOf(address: string): AllowedRange | 'reserved' | undefined {
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const a = mapped ? mapped[1] : address;
  const family = isIP(a) === 6 ? 'ipv6' : 'ipv4';
  for (const name of ['loopback', 'private', 'link-local'] as const) if (LISTS[name].check(a, family)) return name;
  return LISTS.other.check(a, family) ? 'reserved' : undefined;
}

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
    const range = rangeOf(address);
    if (range !== undefined && (range === 'reserved' || !allow.includes(range))) {
      throw new TargetRefused(
        `${host} resolves to ${address}, a ${range} address: the service does not call ${range} addresses${range === 'reserved' ? '' : ' unless its operator allows them'}`,
      );
    }
  }
}
