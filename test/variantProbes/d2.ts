/** Probes of the variants in server/variants/d2.ts (see ./types.ts). */
import { paths } from '../../server/testSupport.ts';
import type { Probes } from './types.ts';

export const PROBES: Probes = {
  'booking-empty-value-served': (s) => s.get(`${paths.bookingPractitioners}?family=`),
  'postcode-empty-validated-false': (s) => s.get(`${paths.validatePostcode}?postcode=`),
  'address-empty-id-empty-list': (s) => s.get(`${paths.addressRetrieve}?id=`),
  'address-search-without-formatted-address': (s) => s.get(`${paths.addressSearch}?text=Downing%20Street`),
  'codeset-count-clamped': (s) => s.get(`${paths.codeSet('condition-code')}?count=0`),
  'codeset-sync-parameter-other-name': (s) =>
    s.get(`${paths.codeSet('condition-code')}?_since=2025-06-01T00:00:00Z&count=1000`),
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
  'lookup-missing-text-other-body': (s) => s.get(`${paths.lookupPractitioners}?count=5`),
  'distinct-by-answer-sorted-by-name': (s) => s.get(`${paths.registerRoles}?distinct-by=practitioner`),
  'd2-no-token-403': (s) => s.get(paths.insurers, { token: null }),
  'retrieved-address-blank-members-null': async (s) => {
    // Drill down from the street to an Address item (DEC-D2-12), then retrieve it.
    let items = (await s.get(`${paths.addressSearch}?text=Downing%20Street`)).json as {
      key: string;
      addressType: string;
    }[];
    for (let i = 0; i < 3 && Array.isArray(items) && !items.some((x) => x.addressType === 'Address') && items[0]; i++) {
      items = (
        await s.get(`${paths.addressSearch}?text=Downing%20Street&container=${encodeURIComponent(items[0].key)}`)
      ).json as typeof items;
    }
    const key = Array.isArray(items) ? items.find((x) => x.addressType === 'Address')?.key : undefined;
    return s.get(`${paths.addressRetrieve}?id=${encodeURIComponent(key ?? 'NONE')}`);
  },
  'd2-optional-members-absent': (s) => s.get(`${paths.insurers}?count=1`),
  'lookup-total-of-page': (s) => s.get(`${paths.lookupPractitioners}?text=Smith&count=2`),
  'photo-unknown-practitioner-404': (s) => s.get(paths.photo('NO-SUCH-PRACTITIONER')),
  'bundle-id-and-full-urls-everywhere': (s) => s.get(paths.insurers),
  'profession-url-display-segment': (s) => s.get(`${paths.lookupPractitioners}?text=Smith&count=2`),
  'register-codes-beyond-examples': (s) => s.get(`${paths.registerPractitioners}?count=2`),
  'edi-list-routed-only': (s) => s.get(`${paths.insurers}?type=edi`),
  'online-booking-false-not-restricting': (s) =>
    s.get(`${paths.registerPractitioners}?is-onlinebooking-available=false&count=50`),
  'insurer-filters-on-one-entry': (s) =>
    s.get(`${paths.registerPractitioners}?insurer=bup&insurer-recognition-status=N&count=50`),
  'insurer-codes-intersection': (s) => s.get(`${paths.registerRoles}?insurer=bup,ppp&count=50`),
  'included-practitioner-header-only': (s) => s.get(`${paths.registerRoles}?_include=practitioner:location&count=2`),
  'role-practitioner-display-given-family': (s) => s.get(`${paths.registerRoles}?_sort=name:asc&count=5`),
  'address-drill-down-parameter-other-name': async (s) => {
    const top = (await s.get(`${paths.addressSearch}?text=Downing%20Street`)).json as { key: string }[];
    const key = Array.isArray(top) && top[0] ? top[0].key : 'NONE';
    return s.get(`${paths.addressSearch}?text=Downing%20Street&container=${encodeURIComponent(key)}`);
  },
};
