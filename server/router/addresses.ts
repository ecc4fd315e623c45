/**
 * Where the sandbox serves each discovery key (DEC-D1-08, -09), relative to its base URL. The
 * route table appends each operation's `pathSuffix`; discovery documents publish these
 * addresses as absolute URLs. `{claims_url}` is `{base}/claims`.
 */
import type { ServiceId } from '../../spec/types.ts';

export const ADDRESSES: Readonly<Record<string, string>> = {
  find_member_endpoint: '/membership/find-member',
  search_authorisation_endpoint: '/authorisation/search',
  search_remittance_summary_endpoint: '/remittance/summary/search',
  search_remittance_detail_endpoint: '/remittance/detail/search',
  list_pending_remittances_endpoint: '/claims/claimresponse/$batch',
  get_remittance_details_endpoint: '/claims/claimresponse/$batch',
  ack_remittance_endpoint: '/claims/claimresponse/$batch',
  list_hospital_claims_endpoint: '/claims/claim/$hospital-claim',
  search_hospital_claims_endpoint: '/claims/claim/search/$hospital-claim',
  search_claim_endpoint: '/claims/claim/search',
  get_claim_endpoint: '/claims/claim',
};

/** Where each service's discovery document is served. */
export const DISCOVERY_PATHS: Readonly<Record<ServiceId, string>> = {
  membership: '/.well-known/api-configuration',
  claims: '/claims/.well-known/api-configuration',
};

export function addressOf(discoveryKey: string): string {
  const path = ADDRESSES[discoveryKey];
  if (path === undefined) throw new Error(`No sandbox address for discovery key ${discoveryKey}`);
  return path;
}
