/**
 * The connect guard: every address a run's HTTP client connects to is checked as it connects, so
 * that neither a discovery document publishing an internal address nor a name that resolves one
 * way when first checked and another at connect time (DNS rebinding) reaches a loopback, private,
 * link-local or reserved address the guard does not allow. The name is resolved once, each
 * address it resolves to is checked, and the socket connects to a checked address: there is no
 * second resolution. The certification service runs partners' configs under a guard
 * (service/ssrf.ts checks the URLs it knows before the run with the same ranges); the command runs
 * without one.
 */
import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Ranges the operator may allow by name. */
export type AllowedRange = 'loopback' | 'private' | 'link-local';

/** A run's connect guard: plain data, so that it reaches the suite workers with the run context. */
export interface ConnectGuard {
  /** The non-public ranges allowed; every other non-public address is refused. */
  allowRanges: readonly AllowedRange[];
  /**
   * Names answered from here instead of the system's resolver (lower case, each with its
   * addresses), checked like any other answer: the tests' stand-in for a name server.
   */
  hosts?: Readonly<Record<string, readonly string[]>>;
}

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
    // Teredo carries an obfuscated IPv4 address: no partner's server is reached through it.
    ['2001::', 32, 'ipv6'],
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

/** The eight 16-bit groups of an IPv6 address (a zone id dropped, a trailing dotted IPv4 read), or undefined. */
export function ipv6Groups(address: string): number[] | undefined {
  let text = address.replace(/%.*$/, '').toLowerCase();
  if (isIP(text) !== 6) return undefined;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const part = (p: string | undefined) => (p ? p.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 ? groups : undefined;
}

const dottedOf = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 address carries, in every form that reaches it: IPv4-mapped
 * (`::ffff:a.b.c.d`, also written in hex, `::ffff:7f00:1`), IPv4-compatible (`::a.b.c.d`), IPv4-
 * translated (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`) and 6to4 (`2002:AABB:CCDD::`).
 */
export function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (!g) return undefined;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return dottedOf(g[6] as number, g[7] as number);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return dottedOf(g[6] as number, g[7] as number);
  // `::` and `::1` are IPv6's own unspecified and loopback addresses.
  if (zeros(0, 6) && !(g[6] === 0 && (g[7] as number) <= 1)) return dottedOf(g[6] as number, g[7] as number);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return dottedOf(g[6] as number, g[7] as number);
  if (g[0] === 0x2002) return dottedOf(g[1] as number, g[2] as number);
  return undefined;
}

function rangeOfPlain(a: string): AllowedRange | 'reserved' | undefined {
  const family = isIP(a) === 6 ? 'ipv6' : 'ipv4';
  for (const name of ['loopback', 'private', 'link-local'] as const) if (LISTS[name].check(a, family)) return name;
  return LISTS.other.check(a, family) ? 'reserved' : undefined;
}

/**
 * The range an address falls in, or undefined for a public unicast address. An IPv6 address that
 * carries an IPv4 address is judged by the one it carries (a loopback IPv4 address is loopback in
 * any form), and by its own range when that is stricter (NAT64 stays reserved).
 */
export function rangeOf(address: string): AllowedRange | 'reserved' | undefined {
  const carried = embeddedIpv4(address);
  const own = rangeOfPlain(address);
  return carried === undefined ? own : (rangeOfPlain(carried) ?? own);
}

/** What the guard allows, as the end of a refusal line. */
function allowedText(allow: readonly AllowedRange[]): string {
  if (allow.length === 0) return 'public addresses only';
  const names = allow.length === 1 ? allow[0] : `${allow.slice(0, -1).join(', ')} and ${allow[allow.length - 1]}`;
  return `public addresses and ${names} ones only`;
}

/**
 * Why `host` may not be reached at `address` (the reason, without "Refused:"), or undefined when
 * the address is public or in an allowed range.
 */
export function addressRefusal(host: string, address: string, allow: readonly AllowedRange[]): string | undefined {
  const range = rangeOf(address);
  if (range === undefined || (range !== 'reserved' && allow.includes(range))) return undefined;
  return `${host} resolves to ${address}, a ${range} address; the service allows ${allowedText(allow)}`;
}

/** A connection the guard refused: its message is the one line a run reports. */
export class ConnectRefused extends Error {
  override name = 'ConnectRefused';
  readonly code = 'ERR_CONNECT_REFUSED_BY_GUARD';
  constructor(reason: string) {
    super(`Refused: ${reason}`);
  }
}

/** True for the error of a connection the guard refused. */
export function isConnectRefused(e: unknown): e is ConnectRefused {
  const err = e as { code?: string; cause?: { code?: string } } | undefined;
  return err?.code === 'ERR_CONNECT_REFUSED_BY_GUARD' || err?.cause?.code === 'ERR_CONNECT_REFUSED_BY_GUARD';
}

/** The refusal of a host written as an address (a socket connects to it with no lookup), or undefined. */
export function literalRefusal(hostname: string, guard: ConnectGuard): ConnectRefused | undefined {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) === 0) return undefined;
  const why = addressRefusal(host, host, guard.allowRanges);
  return why === undefined ? undefined : new ConnectRefused(why);
}

type Resolved = { address: string; family: number };

/**
 * The `lookup` of a guarded socket (net.connect, tls.connect): resolves the name once (the guard's
 * `hosts`, else the system's resolver), refuses the connection when any address is not allowed,
 * and otherwise hands the checked addresses to the socket, which connects to one of them.
 */
export function guardedLookup(guard: ConnectGuard): LookupFunction {
  return (hostname, options, callback) => {
    const answer = (e: NodeJS.ErrnoException | null, all: Resolved[]) => {
      if (e) return callback(e, '', 0);
      const refusal = all
        .map((a) => addressRefusal(hostname, a.address, guard.allowRanges))
        .find((why) => why !== undefined);
      if (refusal !== undefined) return callback(new ConnectRefused(refusal) as NodeJS.ErrnoException, '', 0);
      if (all.length === 0) {
        const none: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        none.code = 'ENOTFOUND';
        return callback(none, '', 0);
      }
      // The overloads of LookupFunction's callback: an array when all were asked for.
      if (options.all) (callback as unknown as (e: null, all: Resolved[]) => void)(null, all);
      else callback(null, all[0].address, all[0].family);
    };
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    const pinned = guard.hosts?.[hostname.toLowerCase()];
    if (pinned !== undefined) {
      const all = pinned
        .map((address) => ({ address, family: isIP(address) }))
        .filter((a) => family === 0 || a.family === family);
      process.nextTick(answer, null, all);
      return;
    }
    dnsLookup(hostname, { all: true, verbatim: true, ...(family !== 0 ? { family } : {}) }, (e, all) =>
      answer(e, e ? [] : all),
    );
  };
}

/**
 * Why the guard would refuse a connection to `hostname` (the whole line, "Refused: ..."), or
 * undefined when every address it resolves to is allowed or it does not resolve (the call then
 * says so itself): the check of a run's addresses before its suites start.
 */
export async function hostRefusal(hostname: string, guard: ConnectGuard): Promise<string | undefined> {
  const literal = literalRefusal(hostname, guard);
  if (literal) return literal.message;
  if (isIP(hostname.replace(/^\[|\]$/g, '')) !== 0) return undefined;
  return new Promise((resolve) => {
    guardedLookup(guard)(hostname, { all: true }, (e) => resolve(e && isConnectRefused(e) ? e.message : undefined));
  });
}
