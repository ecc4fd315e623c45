/** Probes of the variants in server/variants/d3Silences.ts (see ./types.ts). */
import { paths, withQuery } from '../../server/testSupport.ts';
import type { Probes } from './types.ts';

/** A Patient with one name, one e-mail and a registration-id extension under the caller's prefix. */
const patient = {
  resourceType: 'Patient',
  gender: 'female',
  name: [{ family: 'Probe', given: ['Vera'], prefix: ['Ms'] }],
  telecom: [{ system: 'email', value: 'vera.probe@example.org', use: 'home' }],
  extension: [{ url: 'https://caller.example/ref/extension/patient/registrationid', valueString: 'REG-1' }],
};

export const PROBES: Probes = {
  'delete-payor-example-names-refused': (s) =>
    s.contract(
      'DELETE',
      withQuery(paths.contractSite('SITE001'), {
        payerId: 'Organization/bup',
        payerType: 'I',
        providerGroup: 'NO-SUCH',
      }),
    ),
  'procedure-without-service-422': (s) =>
    s.contract('POST', paths.contractPrice, {
      resourceType: 'Contract',
      id: 'PROBE',
      subject: [{ reference: 'Site/SITE001' }],
      term: [
        {
          asset: [
            {
              type: { coding: [{ code: 'PriceGroupAssignment' }] },
              context: [{ reference: { reference: 'Payor/I-bup' } }],
              valuedItem: [
                {
                  entityCodeableConcept: {
                    coding: [{ system: 'https://caller.example/ref/procedure', code: 'P001', display: 'x' }],
                  },
                },
              ],
            },
          ],
        },
      ],
    }),
  'sign-off-answers-without-body': (s) => s.get(paths.logout, { token: null }),
  'd3-fhir-answers-plain-json': (s) => s.patient('GET', paths.patient('PAT-0001')),
  'sites-v1-lists-child-sites': (s) => s.accounts(paths.sitesV1),
  'user-details-other-user-refused': (s) =>
    s.accounts(paths.userDetails, { headers: { 'su-userid': 'NO-SUCH-USER-000' } }),
  'patient-extension-urls-own-prefix': (s) => s.patient('POST', paths.createPatient, patient),
  'patient-telecom-entry-added': (s) => s.patient('POST', paths.createPatient, patient),
  'patient-narrative-and-entry-ids': (s) => s.patient('POST', paths.createPatient, patient),
  'accounts-no-token-403': (s) => s.accounts(paths.sitesV1, { token: null }),
  'features-narrowed-by-site': (s) => s.accounts(paths.features, { site: 'SITE001' }),
  'user-info-code-single-use': async (s) => {
    await s.accounts(withQuery(paths.userInfo, { code: 'CODE-0001' }));
    return s.accounts(withQuery(paths.userInfo, { code: 'CODE-0001' }));
  },
  'invalid-site-answer-more-members': (s) => s.accounts(paths.siteUsers('NO-SUCH-SITE-000'), { site: 'SITE001' }),
  'sites-page-past-last-404': (s) => s.accounts(withQuery(paths.sitesV2, { pageNumber: '9999' })),
  'diary-state-token-as-state': (s) => s.multipart(paths.diaryPostAuth, { Code: 'DIARY-BAD', StateToken: 'probe' }),
  'diary-refresh-revokes-old-token': async (s) => {
    const token = await s.diaryToken();
    await s.request('POST', paths.diaryRefresh, { headers: { authorization: `Bearer ${token}` } });
    return s.request('GET', paths.episodeTypes, { headers: { authorization: `Bearer ${token}` } });
  },
  'patient-update-unknown-id-invalid-resource': (s) =>
    s.patient('PUT', paths.updatePatient('NO-SUCH-PATIENT-000'), {
      resourceType: 'Patient',
      id: 'NO-SUCH-PATIENT-000',
      gender: 'female',
    }),
  'price-contracts-without-site-subject': (s) =>
    s.contract('GET', withQuery(paths.effectivePrices, { site: 'SITE001' })),
  'effective-prices-payor-required': (s) => s.contract('GET', withQuery(paths.effectivePrices, { site: 'SITE001' })),
  'contract-subtypes-payor-kinds': (s) => s.contract('GET', paths.contractSubtypes),
  'payor-create-existing-refused': async (s) => {
    const body = {
      resourceType: 'Contract',
      subject: [{ reference: 'Site/SITE001' }],
      authority: [{ reference: 'Organization/probe-payor', display: 'Probe Payor' }],
    };
    await s.contract('POST', paths.contract, body);
    return s.contract('POST', paths.contract, body);
  },
  'patient-misshapen-members-ignored': (s) =>
    s.patient('POST', paths.createPatient, { resourceType: 'Patient', gender: 42 }),
};
