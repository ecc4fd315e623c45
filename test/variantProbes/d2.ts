/** Probes of the variants in server/variants/d2.ts (see ./types.ts). */
import { paths } from '../../server/testSupport.ts';
import type { Probes } from './types.ts';

export const PROBES: Probes = {
  'codeset-count-clamped': (s) => s.get(`${paths.codeSet('condition-code')}?count=0`),
  'codeset-sync-parameter-other-name': (s) => s.get(`${paths.codeSet('condition-code')}?_since=2025-06-01T00:00:00Z&count=1000`),
  'booking-since-invalid-format-code': (s) => s.get(`${paths.bookingPractitioners}?_since=yesterday`),
  'booking-invalid-value-param-invalid': (s) => s.get(`${paths.bookingPractitioners}?page=abc`),
  'role-search-unknown-value-cant-parse': (s) => s.get(`${paths.registerRoles}?_sort=height:asc`),
  'name-filter-whole-name': (s) => s.get(`${paths.registerPractitioners}?family=Smi&count=50`),
  'role-search-paged-by-default': (s) => s.get(paths.registerRoles),
  'bundle-type-collection': (s) => s.get(paths.insurers),
  'distance-sort-without-near-unsorted': (s) => s.get(`${paths.registerRoles}?_sort=distance:asc`),
  'codeable-concept-flat': (s) => s.get(`${paths.registerPractitioners}?count=1`),
  'address-unknown-id-refused': (s) => s.get(`${paths.addressRetrieve}?id=NO-SUCH-ADDRESS`),
  'location-type-not-restricting': (s) => s.get(`${paths.lookupLocations}?text=London&type=P&count=50`),
  'control-parameters-unknown-insurer-404': (s) => s.get(`${paths.controlParameters}?insurerId=NO-SUCH-INSURER`),
  'codeset-unknown-set-empty': (s) => s.get(paths.codeSet('no-such-set')),
  'geocode-unknown-postcode-null-position': (s) => s.get(`${paths.geocode}?postcode=NOT%20A%20POSTCODE`),
  'photo-title-absent': (s) => s.get(paths.photo('PR-0001')),
  'codeset-item-extensions-absent': (s) => s.get(`${paths.codeSet('condition-code')}?count=5`),
  'location-position-null': (s) => s.get(`${paths.lookupLocations}?text=Mobile&count=10`),
  'd2-fhir-answers-plain-json': (s) => s.get(`${paths.insurers}?count=1`),
  'last-updated-other-forms': (s) => s.get(`${paths.insurers}?count=1`),
  'booking-identifier-by-system': (s) => s.get(`${paths.bookingRoles}?count=1`),
};
