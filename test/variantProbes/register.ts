/** Probes of the variants in server/variants/register.ts (see ./types.ts). */
import { paths } from '../../server/testSupport.ts';
import type { Probe, Probes } from './types.ts';

const v2Single = { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1980-04-12' };
const coverage: Probe = (s) => s.findMember('2', v2Single);

export const PROBES: Probes = {
  'empty-bundle-without-entry': (s) => s.get(`${paths.batches}?page=1000&count=50`),
  'names-matched-ignoring-accents': (s) => s.get(`${paths.registerPractitioners}?family=Smith&count=50`),
  'coverage-expiry-date-only': coverage,
  'copayment-type-other-case': coverage,
  'coverage-do-not-reject-absent': coverage,
  'coverage-money-as-decimal': coverage,
  'coverage-patient-name-object': coverage,
  'find-member-version-missing-param-invalid': (s) => s.findMember(null, v2Single),
  'find-member-empty-field-param-invalid': (s) => s.findMember('2', { ...v2Single, insurerIdentifier: '' }),
  'batch-live-status-absent': (s) => s.get(paths.batch('BATCH-1002')),
  'remittance-references-not-contained': (s) => s.form(paths.summary, { count: '1' }),
  'qualification-start-register-date-form': (s) => s.get(`${paths.registerPractitioners}?count=50`),
  'insurer-live-other-values': (s) => s.get(paths.insurers),
  'd2-error-body-plain': (s) => s.get(`${paths.registerPractitioners}?family=`),
  'patient-error-body-plain': (s) => s.patient('GET', paths.patient('NO-SUCH-PATIENT')),
  'copayment-type-absent': coverage,
  'valueset-name-descriptive': (s) => s.get(`${paths.codeSet('condition-code')}?count=5`),
  'booking-role-search-mode-match': (s) => s.get(`${paths.bookingRoles}?count=5`),
  'site-type-names-upper-case': (s) => s.accounts(paths.subscription, { site: 'SITE001' }),
  'diary-ids-as-text': async (s) =>
    s.request('GET', paths.episodeTypes, { headers: { authorization: `Bearer ${await s.diaryToken()}` } }),
};
