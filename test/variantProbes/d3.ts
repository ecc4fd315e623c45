/** Probes of the variants in server/variants/d3.ts (see ./types.ts). */
import { basicAuth, paths, withQuery } from '../../server/testSupport.ts';
import type { Probes } from './types.ts';

const condition = {
  resourceType: 'Condition',
  note: [{ text: 'Variant probe', authorReference: { reference: 'patient/PAT-0001' } }],
};

export const PROBES: Probes = {
  'accounts-optional-members-null': (s) => s.accounts(paths.sitesV1),
  'site-status-title-case': (s) => s.accounts(paths.sitesV1),
  'payors-reserved-listed-last': (s) => s.contract('GET', paths.sitePayors('SITE001')),
  'condition-reference-capitalised': (s) => s.patient('POST', paths.condition, condition),
  'patient-birthdate-table-name': (s) => s.patient('GET', paths.patient('PAT-0001')),
  'patient-errors-other-fitting-codes': (s) =>
    s.patient('POST', paths.createPatient, { resourceType: 'Patient', birthDate: '31/12/1999' }),
  'subscriptions-as-list': (s) => s.accounts(paths.subscription, { site: 'SITE001' }),
  'deleted-outcome-text-forms': (s) =>
    s.contract(
      'DELETE',
      withQuery(paths.contractPriceSite('SITE001'), { indStdCode: 'FUCONS', indStdCodeScheme: 'ISC' }),
    ),
  'token-details-code-as-text': (s) =>
    s.request('GET', withQuery(paths.tokenDetails('nhs'), { redirect_uri: 'https://app.example/unlinked' }), {
      headers: { authorization: basicAuth() },
    }),
  'diary-success-false': async (s) =>
    s.request('GET', paths.episodeTypes, { headers: { authorization: `Bearer ${await s.diaryToken()}` } }),
  'introspect-client-token-success': async (s) => s.accounts(paths.introspect, { token: await s.token() }),
  'writes-other-2xx': (s) => s.patient('POST', paths.createPatient, { resourceType: 'Patient', gender: 'female' }),
  'token-details-redirect-checked-first': (s) => s.request('GET', paths.tokenDetails('nhs')),
  'token-details-unknown-idp-first': (s) =>
    s.request('GET', paths.tokenDetails('okta'), { headers: { authorization: basicAuth() } }),
  'condition-deleted-patient-404': async (s) => {
    const created = await s.patient('POST', paths.createPatient, { resourceType: 'Patient', gender: 'female' });
    const id = (created.json as { id: string }).id;
    await s.patient('DELETE', paths.patient(id));
    return s.patient('POST', paths.condition, {
      ...condition,
      note: [{ text: 'Variant probe', authorReference: { reference: `patient/${id}` } }],
    });
  },
  'patient-deleted-get-reference-id-not-found': async (s) => {
    const created = await s.patient('POST', paths.createPatient, { resourceType: 'Patient', gender: 'female' });
    const id = (created.json as { id: string }).id;
    await s.patient('DELETE', paths.patient(id));
    return s.patient('GET', paths.patient(id));
  },
  'condition-unknown-patient-entity-not-found': (s) =>
    s.patient('POST', paths.condition, {
      ...condition,
      note: [{ text: 'Variant probe', authorReference: { reference: 'patient/NO-SUCH-PATIENT-000' } }],
    }),
  'contract-price-id-required': (s) =>
    s.contract('POST', paths.contractPrice, {
      resourceType: 'Contract',
      subject: [{ reference: 'Site/SITE001' }],
      term: [
        {
          asset: [
            {
              type: [{ coding: [{ code: 'PriceGroupAssignment' }] }],
              context: [{ reference: { reference: 'Payor/I-bup' } }],
              valuedItem: [{ entityCodeableConcept: { coding: [{ system: 'ISC', code: 'FUCONS', display: 'x' }] } }],
            },
          ],
        },
      ],
    }),
  'revoke-unknown-token-refused': (s) =>
    s.request('POST', paths.revoke, {
      headers: { authorization: basicAuth(), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=not-a-known-token-0000',
    }),
  'event-creation-date-iso': (s) => s.accounts(withQuery(paths.event, { sns_id: 'SNS-0001' })),
  'diary-refusals-401': (s) => s.multipart(paths.diaryPostAuth, { Code: 'DIARY-BAD' }),
  'contract-asset-type-list': (s) => s.contract('GET', withQuery(paths.effectivePrices, { site: 'SITE001' })),
  'patient-email-validated': (s) =>
    s.patient('POST', paths.createPatient, {
      resourceType: 'Patient',
      telecom: [{ system: 'email', value: 'not-an-e-mail', use: 'home' }],
    }),
  'condition-id-refused': (s) => s.patient('POST', paths.condition, { ...condition, id: 'COND-OWN-ID' }),
  'diary-code-single-use': async (s) => {
    // A code of an unmapped site: its answer carries no token drawn anew, so two clean sandboxes agree.
    await s.multipart(paths.diaryPostAuth, { Code: 'DIARY-UNMAPPED' });
    return s.multipart(paths.diaryPostAuth, { Code: 'DIARY-UNMAPPED' });
  },
  'payor-upsert-without-id-creates': (s) =>
    s.contract('POST', paths.contract, {
      resourceType: 'Contract',
      subject: [{ reference: 'Site/SITE001' }],
      authority: [{ reference: 'Organization/bup', display: 'Bupa' }],
    }),
};
