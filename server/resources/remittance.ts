/**
 * Remittance summary (PaymentReconciliation, 2.4) and detail (ClaimResponse, 2.5). Insurer bill
 * number, hospital number and CH claim number travel as identifier entries (DEC-D1-07).
 */
import type { RemittanceDetail, RemittanceSummary } from '../repo/model.ts';
import { CLEARING_URL, REF_URL, clearingExtension } from './urls.ts';

const CURRENCY = 'GBP';
const gbp = (value: number) => ({ value, currency: CURRENCY });

type Extension = { url: string } & Record<string, unknown>;

function extensions(entries: [name: string, value: Record<string, unknown> | undefined][]): Extension[] {
  return entries
    .filter((e): e is [string, Record<string, unknown>] => e[1] !== undefined)
    .map(([name, v]) => ({ url: clearingExtension(name), ...v }));
}

const opt = <T>(v: T | undefined, wrap: (v: T) => Record<string, unknown>) => (v === undefined ? undefined : wrap(v));
const money = (v: number | undefined) => opt(v, (x) => ({ valueMoney: gbp(x) }));
const text = (v: string | undefined) => opt(v, (x) => ({ valueString: x }));

export function paymentReconciliationOf(s: RemittanceSummary): Record<string, unknown> {
  return {
    resourceType: 'PaymentReconciliation',
    id: s.id,
    meta: { lastUpdated: s.lastUpdated },
    contained: [
      {
        resourceType: 'Organization',
        id: 'provider',
        identifier: [{ system: `${REF_URL}/providerIdentifier`, value: s.providerCode }],
        name: s.providerName,
      },
      {
        resourceType: 'Organization',
        id: 'insurer',
        identifier: [{ system: `${REF_URL}/insurerIdentifier`, value: s.insurer }],
        name: s.insurerName,
      },
    ],
    extension: extensions([
      ['paymentMethod', text(s.paymentMethod)],
      ['sortCode', text(s.sortCode)],
      ['accountNumber', text(s.accountNumber)],
      ['processedDate', { valueDate: s.processedDate }],
      ['amountDue', money(s.amountDue)],
      ['broughtForwarded', money(s.broughtForward)],
      ['carriedForwarded', money(s.carriedForward)],
      ['totalInvoiced', money(s.totalInvoiced)],
      ['totalShortfall', money(s.totalShortfall)],
      ['totalInvoices', { valueInteger: s.totalInvoices }],
      ['isExported', { valueBoolean: s.isExported }],
    ]),
    created: s.created,
    requestor: { reference: '#provider' },
    paymentIssuer: { reference: '#insurer' },
    paymentAmount: gbp(s.amountPaid),
    paymentDate: s.paymentDate,
    paymentIdentifier: { system: `${CLEARING_URL}/paymentReference`, value: s.paymentReference },
  };
}

export function claimResponseOf(d: RemittanceDetail): Record<string, unknown> {
  const identifiers = [
    { system: `${CLEARING_URL}/insurerBillNumber`, value: d.insurerBillNumber },
    { system: `${CLEARING_URL}/hospitalNumber`, value: d.hospitalNumber },
    ...(d.chClaimNo ? [{ system: `${CLEARING_URL}/chClaimNo`, value: d.chClaimNo }] : []),
  ];
  const adjudication = d.shortfallReasons.map((r) => ({
    extension: [{ url: clearingExtension('liabilityType'), valueString: r.liabilityType }],
    category: { coding: [{ system: `${CLEARING_URL}/adjudication`, code: r.category }] },
    reason: { text: r.reason },
    amount: gbp(r.amount),
  }));
  return {
    resourceType: 'ClaimResponse',
    id: d.id,
    meta: { lastUpdated: d.lastUpdated },
    contained: [
      {
        resourceType: 'Patient',
        id: 'patient',
        identifier: [{ system: `${CLEARING_URL}/membershipNumber`, value: d.membershipNumber }],
        ...(d.patientName
          ? {
              name: [
                { family: d.patientName.family, given: [...d.patientName.given], prefix: [...d.patientName.prefix] },
              ],
            }
          : {}),
      },
    ],
    extension: extensions([
      ['invoiceNumber', { valueString: d.invoiceNumber }],
      ['invoiceDate', { valueDate: d.invoiceDate }],
      ['invoiceTotal', money(d.invoiceTotal)],
      ['paidAmount', money(d.paidAmount)],
      ['previousPaidAmount', money(d.previousPaidAmount)],
      ['shortAmount', money(d.shortAmount)],
      ['collectionService', text(d.collectionService)],
      ['dateCompleted', { valueDate: d.dateCompleted }],
      ['createdOn', { valueDateTime: d.createdOn }],
    ]),
    identifier: identifiers,
    patient: { reference: '#patient' },
    item: adjudication.length > 0 ? [{ itemSequence: 1, adjudication }] : [],
  };
}
