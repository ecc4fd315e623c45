/** Probes of the variants in server/variants/protocol.ts (see ./types.ts): the discovery document carries addresses ("/"). */
import type { Probe, Probes } from './types.ts';

const discovery: Probe = (s) => s.get('/.well-known/api-configuration', { token: null, site: null });

export const PROBES: Probes = {
  // The first GET a fresh sandbox sees is shed.
  'load-shed-429': discovery,
  'json-pretty-printed': discovery,
  'json-members-reversed': discovery,
  'json-unicode-escaped': discovery,
  'extra-members': discovery,
  'media-type-without-charset': discovery,
  'media-type-upper-case': discovery,
  'cache-and-trace-headers': discovery,
  'discovery-addresses-percent-encoded': (s) =>
    s.get('/claims/.well-known/api-configuration', { token: null, site: null }),
};
