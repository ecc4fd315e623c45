/**
 * A bill (Claim, Document 1, 2.8). The search form carries the listed members; the single-bill
 * form (`detailed`) adds the Encounter, Invoice and Claim extras of 2.8.
 */
import type { Bill } from '../repo/model.ts';
import { REF_URL } from './urls.ts';

const claimExt = (name: string) => `${REF_URL}/extension/Claim/${name}`;
const encounterExt = (name: string) => `${REF_URL}/extension/Encounter/${name}`;
const invoiceExt = (name: string) => `${REF_URL}/extension/Invoice/${name}`;

export function billOf(b: Bill, detailed: boolean): Record<string, unknown> {
  const money = (value: number) => ({ value, currency: b.currency });
  const ids = { encounter: 'encounter', invoice: 'invoice', patient: 'patient', gp: 'gp', coverage: 'coverage' };

  const encounter: Record<string, unknown> = { resourceType: 'Encounter', id: ids.encounter };
  const invoice: Record<string, unknown> = {
    resourceType: 'Invoice',
    id: ids.invoice,
    identifier: [{ id: 'InvoiceNumber', system: `${REF_URL}/invoiceNumber`, value: b.invoiceNumber }],
    date: b.invoiceDate,
    totalNet: { value: b.totalNet },
  };
  if (detailed) {
    Object.assign(encounter, {
      extension: [
        { url: encounterExt('InpaientNights'), valueInteger: b.encounter.inpatientNights },
        { url: encounterExt('Setting'), valueString: b.encounter.setting },
        { url: encounterExt('FirstAwareDate'), valueDate: b.encounter.firstAwareDate },
        { url: encounterExt('FirstGPVisitDate'), valueDate: b.encounter.firstGpVisitDate },
      ],
      participant: [{ individual: { display: b.encounter.consultant } }],
      period: { start: b.encounter.start, end: b.encounter.end },
      diagnosis: [{ condition: { display: `${b.encounter.diagnosisCode} ${b.encounter.diagnosisText}` }, rank: 1 }],
      serviceProvider: { display: b.serviceProvider },
    });
    Object.assign(invoice, {
      extension: [
        { url: invoiceExt('CompanyPaid'), valueMoney: money(b.companyPaid) },
        { url: invoiceExt('FromDate'), valueDate: b.encounter.start.slice(0, 10) },
        { url: invoiceExt('ToDate'), valueDate: b.encounter.end.slice(0, 10) },
        { url: invoiceExt('ExcessPaid'), valueMoney: money(b.excessPaid) },
        { url: invoiceExt('InvoiceReference'), valueString: b.invoiceReference },
      ],
      totalPriceComponent: [{ type: 'base', amount: money(b.totalNet) }],
      totalGross: money(b.totalGross),
    });
  }

  const extension: Record<string, unknown>[] = [
    { url: claimExt('IsArchived'), valueBoolean: b.archived },
    { url: claimExt('ClaimStatus'), valueString: b.claimStatus },
    { url: claimExt('EventReference'), valueString: b.eventReference },
    { url: claimExt('InvoiceReference'), valueReference: { reference: `#${ids.invoice}` } },
    { url: claimExt('DoubleInsurance'), valueBoolean: b.doubleInsurance },
    { url: claimExt('ThirdParty'), valueBoolean: b.thirdParty },
    { url: claimExt('PackageDeal'), valueBoolean: b.packageDeal },
    {
      url: claimExt('Currency'),
      valueCodeableConcept: { coding: [{ system: 'urn:iso:std:iso:4217', code: b.currency }] },
    },
  ];
  if (detailed) {
    extension.push(
      { url: claimExt('DiagnosisScheme'), valueString: b.diagnosisScheme },
      { url: claimExt('ServiceSetting'), valueString: b.encounter.setting },
      { url: claimExt('ServiceProvider'), valueString: b.serviceProvider },
      { url: claimExt('ClaimSource'), valueString: b.claimSource },
      { url: claimExt('SignatureRequired'), valueBoolean: b.signatureRequired },
    );
  }

  return {
    resourceType: 'Claim',
    id: b.id,
    contained: [
      encounter,
      invoice,
      {
        resourceType: 'Patient',
        id: ids.patient,
        identifier: [
          { id: 'HospitalNumber', system: `${REF_URL}/hospitalNumber`, value: b.patient.hospitalNumber },
          { id: 'NHSNumber', system: 'https://fhir.nhs.uk/Id/nhs-number', value: b.patient.nhsNumber },
        ],
        name: [{ family: b.patient.family, given: [b.patient.given] }],
        gender: b.patient.gender,
        birthDate: b.patient.birthDate,
        generalPractitioner: [{ reference: `#${ids.gp}` }],
      },
      {
        resourceType: 'Practitioner',
        id: ids.gp,
        identifier: [
          { id: 'GPCode', system: `${REF_URL}/gpCode`, value: b.gp.gpCode },
          { id: 'GPPracticeCode', system: `${REF_URL}/gpPracticeCode`, value: b.gp.practiceCode },
        ],
        name: [{ family: b.gp.family, given: [b.gp.given], prefix: ['Dr'] }],
      },
      { resourceType: 'Coverage', id: ids.coverage, subscriberId: b.membershipNumber },
    ],
    extension,
    patient: { reference: `#${ids.patient}` },
    created: b.created,
    priority: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/processpriority', code: b.priority }] },
    insurance: [{ sequence: 1, focal: true, coverage: { reference: `#${ids.coverage}` } }],
    total: { value: b.totalNet, code: b.currency },
  };
}
