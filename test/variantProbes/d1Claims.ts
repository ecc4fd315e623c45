/** Probes of the variants in server/variants/d1Claims.ts (see ./types.ts). */
import { paths, withQuery } from '../../server/testSupport.ts';
import type { Probe, Probes } from './types.ts';

const summaries: Probe = (s) => s.form(paths.summary, { count: '5' });
const details: Probe = (s) => s.form(paths.detail('RS-0001'), { count: '15' });
const hospitalList: Probe = (s) => s.get(paths.hospitalList);
const bills: Probe = (s) => s.get(withQuery(paths.bills, { insurerid: 'bup' }));

export const PROBES: Probes = {
  'fhir-datetime-date-only': summaries,
  'fhir-datetime-basic-offset': summaries,
  'payment-method-lower-case': summaries,
  'remittance-optional-members-null': details,
  'hospital-claim-optional-members-null': hospitalList,
  'bill-optional-members-null': bills,
  'remittance-error-code-alternative': (s) => s.form(paths.summary, { hasShortFall: 'yes' }),
  'remittance-patient-name-whole-words': (s) => s.form(paths.detail('RS-0001'), { patientName: 'Wri', count: '15' }),
  'remittance-provider-exact-name': (s) => s.form(paths.summary, { provider: 'Harley', count: '50' }),
  'remittance-default-order-newest-first': summaries,
  'remittance-total-of-page': summaries,
  'remittance-example-names-refused': (s) => s.form(paths.summary, { _sort: 'providerName', count: '5' }),
  'remittance-error-body-plain': (s) => s.form(paths.summary, { count: '' }),
  'remittance-default-window': (s) => s.form(paths.summary, { count: '50' }),
  'remittance-no-last-updated': summaries,
  'remittance-unknown-summary-empty': (s) => s.form(paths.detail('no-such-summary-00000'), {}),
  'remittance-reversed-range-refused': (s) => s.form(paths.summary, { dateCreated: '2026-12-31_2026-01-01' }),
  'hospital-claims-bundle-collection': hospitalList,
  'hospital-claims-lenient-dates': (s) => s.get(withQuery(paths.hospitalList, { dateCompleted: '14/03/2026' })),
  'clearing-errors-422': (s) => s.get(paths.bills),
  'bill-archived-flag-as-text': bills,
  'remittance-numbers-as-extensions': details,
  'gated-field-ignored-without-feature': async (s) =>
    s.form(paths.summary, { invoiceNumber: 'INV-0001-01', count: '5' }, { token: await s.token('sandbox-basic') }),
  // The sandbox's helper sends a GET without Content-Type.
  'clearing-get-content-type-required': (s) => s.get(paths.batches),
  'has-shortfall-false-restricts': (s) => s.form(paths.summary, { hasShortFall: 'false', count: '50' }),
  'cheque-bank-details-present': summaries,
  'summary-forward-extensions-batch-names': (s) => s.form(paths.summary, { count: '50' }),
  'short-amount-of-insurer-total': details,
  'encounter-full-url-episode-id': hospitalList,
  'clearing-site-header-required': bills,
};
