/**
 * A pre-authorisation Claim (Document 1, 4.3; DEC-D1-22): `use` = preauthorization, the issue date
 * in `created`, the other values as extensions under `{ref_url}/extension/`.
 */
import type { Authorisation } from '../repo/model.ts';
import { refExtension } from './urls.ts';

export function preauthorisationOf(a: Authorisation): Record<string, unknown> {
  const s = (name: string, valueString: string) => ({ url: refExtension(name), valueString });
  return {
    resourceType: 'Claim',
    id: a.id,
    meta: { lastUpdated: a.lastUpdated },
    use: 'preauthorization',
    created: a.issueDate,
    extension: [
      s('insurerIdentifier', a.insurer),
      s('caseCode', a.caseCode),
      s('authCode', a.authCode),
      s('membershipNumber', a.membershipNumber),
      s('status', a.readStatus),
      s('preAuthStatus', a.preAuthStatus),
      s('actionStatus', a.actionStatus),
      { url: refExtension('requestedDate'), valueDateTime: a.requestedDate },
      { url: refExtension('lastUpdatedOn'), valueDateTime: a.lastUpdated },
      s('patientName', a.patientName),
      s('procedure', a.procedure),
    ],
  };
}
