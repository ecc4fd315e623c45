/** Probes of the variants in server/variants/http.ts (see ./types.ts). */
import { paths } from '../../server/testSupport.ts';
import type { Probe, Probes } from './types.ts';

const discovery: Probe = (s) => s.get('/.well-known/api-configuration', { token: null, site: null });

export const PROBES: Probes = {
  // The count tag says the page size served (20), not the 50 asked for.
  'page-size-capped-20': (s) => s.get(`${paths.registerPractitioners}?count=50`),
  // The first request to an address a fresh sandbox sees is refused.
  'transient-503-once': discovery,
  'fhir-accept-only': (s) => s.get(`${paths.insurers}?count=1`, { headers: { accept: 'application/json' } }),
  // fetch names gzip in Accept-Encoding; the answer carries Content-Encoding (and Vary).
  'gzip-content-coding': discovery,
};
