/**
 * Where the sandbox serves each discovery key, per service (DEC-D1-08, -09; DEC-D2-01; DEC-D3-01,
 * -02), relative
 * to its base URL. The route table appends each operation's `pathSuffix`; discovery documents
 * publish these addresses as absolute URLs. `{claims_url}` is `{base}/claims`. A key may repeat
 * across services (`search_practitionerrole_endpoint`: register 4.11 and booking 4.13) and then
 * has one address per service. Document 3: the accounts, auth and diary documents publish only their
 * base (`accounts_url`, `auth_url`, `diary_url`, DEC-D3-01); `{base_url}` of the patients is
 * `{base}/patients` and `{contracts_url}` is `{base}/contracts`. Several patient and contract keys
 * share an address (the method and path parameters tell them apart).
 */
import type { ServiceId } from '../../spec/types.ts';

export const ADDRESSES: Readonly<Record<ServiceId, Readonly<Record<string, string>>>> = {
  membership: {
    find_member_endpoint: '/membership/find-member',
    search_authorisation_endpoint: '/authorisation/search',
    search_remittance_summary_endpoint: '/remittance/summary/search',
    search_remittance_detail_endpoint: '/remittance/detail/search',
  },
  claims: {
    list_pending_remittances_endpoint: '/claims/claimresponse/$batch',
    get_remittance_details_endpoint: '/claims/claimresponse/$batch',
    ack_remittance_endpoint: '/claims/claimresponse/$batch',
    list_hospital_claims_endpoint: '/claims/claim/$hospital-claim',
    search_hospital_claims_endpoint: '/claims/claim/search/$hospital-claim',
    search_claim_endpoint: '/claims/claim/search',
    get_claim_endpoint: '/claims/claim',
  },
  reference: {
    codes_valueset_namespace: '/reference/valueset',
    lookup_practitioner_endpoint: '/reference/practitioner/lookup',
    lookup_location_endpoint: '/reference/location/lookup',
    list_organization_endpoint: '/reference/organization/insurer',
    get_organization_control_params_endpoint: '/reference/organization/control-parameters',
  },
  address: {
    search_address_endpoint: '/address/search',
    retrieve_address_endpoint: '/address/retrieve',
    geo_coding_endpoint: '/address/geocode',
  },
  register: {
    search_practitioner_endpoint: '/register/practitioner',
    get_practitionerphoto_endpoint: '/register/practitioner-photo',
    search_practitionerrole_endpoint: '/register/practitionerrole',
  },
  booking: {
    get_booking_practitioner_endpoint: '/booking/practitioner',
    search_booking_practitioner_endpoint: '/booking/practitioner',
    get_practitionerrole_endpoint: '/booking/practitionerrole',
    search_practitionerrole_endpoint: '/booking/practitionerrole',
  },
  accounts: { accounts_url: '/accounts' },
  auth: { auth_url: '/auth' },
  diary: { diary_url: '/diary' },
  patients: {
    create_patient_endpoint: '/patients/patient',
    get_patienet_endpoint: '/patients/patient',
    update_patient_endpoint: '/patients',
    delete_patient_endpoint: '/patients/patient',
    create_condition_endpoint: '/patients/patient/condition',
    delete_patient_condition_endpoint: '/patients/patient/condition',
  },
  contracts: {
    get_effective_prices_endpoint: '/contracts/contract/PRICING/$effective-prices',
    get_contract_type_list: '/contracts/valueset/contract-type',
    get_contract_subtype_list: '/contracts/valueset/contract-subtype/PRICING',
    get_payors_list_endpoint: '/contracts/contract/site',
    add_payor_endpoint: '/contracts/contract',
    delete_payor_endpoint: '/contracts/contract',
    add_contact_as_payor_endpoint: '/contracts/contract',
    delete_contact_as_payor_endpoint: '/contracts/contract',
    set_contract_service_endpoint: '/contracts/contract/PRICING/$contract-price',
    delete_contract_service_endpoint: '/contracts/contract/PRICING/$contract-price',
    set_contract_service_withprocedure_endpoint: '/contracts/contract/PRICING/$contract-price',
    delete_contract_service_withprocedure_endpoint: '/contracts/contract/PRICING/$contract-price',
    set_contract_price_endpoint: '/contracts/contract/PRICING/$contract-price',
  },
};

/** Where each service's discovery document is served. */
export const DISCOVERY_PATHS: Readonly<Record<ServiceId, string>> = {
  membership: '/.well-known/api-configuration',
  claims: '/claims/.well-known/api-configuration',
  reference: '/reference/.well-known/api-configuration',
  address: '/address/.well-known/api-configuration',
  register: '/register/.well-known/api-configuration',
  booking: '/booking/.well-known/api-configuration',
  accounts: '/accounts/.well-known/api-configuration',
  auth: '/auth/.well-known/api-configuration',
  diary: '/diary/.well-known/api-configuration',
  patients: '/patients/.well-known/api-configuration',
  contracts: '/contracts/contract/.well-known/api-configuration',
};

export function addressOf(service: ServiceId, discoveryKey: string): string {
  const path = ADDRESSES[service][discoveryKey];
  if (path === undefined) throw new Error(`No sandbox address for discovery key ${discoveryKey} of service ${service}`);
  return path;
}
