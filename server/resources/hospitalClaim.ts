/** Hospital claim bundle entries: an Encounter and a Claim per claim (Document 1, 2.7). */
import type { HospitalClaim } from '../repo/model.ts';
import type { BundleEntry } from '../router/paging.ts';
import { REF_URL } from './urls.ts';

export function hospitalClaimEntries(c: HospitalClaim, claimsUrl: string): BundleEntry[] {
  return [
    {
      fullUrl: `${claimsUrl}/claim/${c.claimId}/encounter/${c.encounterId}`,
      resource: {
        resourceType: 'Encounter',
        id: c.encounterId,
        episodeOfCare: [{ extension: [{ url: 'setting', valueString: c.setting }] }],
      },
    },
    {
      fullUrl: `${claimsUrl}/claim/${c.claimId}`,
      resource: {
        resourceType: 'Claim',
        id: c.claimId,
        patient: { display: `${c.patientGiven} ${c.patientFamily}` },
        insurer: {
          id: c.insurer,
          identifier: { system: `${REF_URL}/insurerIdentifier`, value: c.insurer },
          display: c.insurerName,
        },
        procedure: [{ date: c.procedureDateTime }],
        item: [{ servicedDate: c.servicedDate, encounter: [{ id: c.encounterId }] }],
      },
    },
  ];
}
