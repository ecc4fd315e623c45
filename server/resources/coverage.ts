/** The Coverage resource of a member (Document 1, 2.2). */
import type { Member } from '../repo/model.ts';
import { REF_URL, refExtension } from './urls.ts';

type Extension = { url: string } & Record<string, unknown>;

const money = (value: number, currency: string | undefined) => (currency ? { value, currency } : { value });

export function coverageOf(m: Member): Record<string, unknown> {
  const planUrl = `${REF_URL}/insuranceSchemePlan`;
  const patientExtension = refExtension;
  const patientId = `patient-${m.coverageId}`;
  const orgId = `org-${m.insurer}`;
  const ext: Extension[] = [];
  const add = (name: string, value: Record<string, unknown> | undefined) => {
    if (value !== undefined) ext.push({ url: refExtension(name), ...value });
  };
  const moneyExt = (name: string, v: number | undefined) =>
    add(name, v === undefined ? undefined : { valueMoney: money(v, m.currency) });
  const str = (name: string, v: string | undefined) => add(name, v === undefined ? undefined : { valueString: v });
  const dt = (name: string, v: string | undefined) => add(name, v === undefined ? undefined : { valueDateTime: v });

  str('groupId', m.groupId);
  str('policyExpired', m.policyExpired);
  dt('expiryDate', m.expiryDate);
  str('coverType', m.coverType);
  if (m.insuranceSchemePlan !== undefined) ext.push({ url: planUrl, valueString: m.insuranceSchemePlan });
  str('doNotReject', m.doNotReject);
  moneyExt('benefitLimit', m.benefitLimit);
  moneyExt('benefitUsed', m.benefitUsed);
  dt('benefitUsedAsOf', m.benefitUsedAsOf);
  moneyExt('memberExcess', m.memberExcess);
  str('memberExcessType', m.memberExcessType);
  moneyExt('excessUsed', m.excessUsed);
  dt('excessUsedAsOf', m.excessUsedAsOf);
  if (m.memberCoPayment?.type === 'Monetary value') moneyExt('memberCoPayment', m.memberCoPayment.amount);
  if (m.memberCoPayment?.type === 'Percentage') add('memberCoPayment', { valueDecimal: m.memberCoPayment.percent });
  str('memberCoPaymentType', m.memberCoPayment?.type);
  str('currency', m.currency);

  const patientExt: Extension[] = [];
  if (m.genderIdentity !== undefined)
    patientExt.push({ url: patientExtension('genderIdentity'), valueString: m.genderIdentity });
  if (m.otherInitials !== undefined)
    patientExt.push({ url: patientExtension('otherInitials'), valueString: m.otherInitials });
  const telecom = [
    ...(m.insurerEmail ? [{ system: 'email', value: m.insurerEmail }] : []),
    ...(m.insurerPhone ? [{ system: 'phone', value: m.insurerPhone }] : []),
  ];

  return {
    resourceType: 'Coverage',
    id: m.coverageId,
    contained: [
      {
        resourceType: 'Patient',
        id: patientId,
        ...(patientExt.length > 0 ? { extension: patientExt } : {}),
        name: [{ family: m.family, given: [m.given] }],
        gender: m.sex,
        birthDate: m.birthDate,
        address: [{ ...m.address }],
      },
      { resourceType: 'Organization', id: orgId, name: m.insurerName, ...(telecom.length > 0 ? { telecom } : {}) },
    ],
    extension: ext,
    identifier: [{ id: 'membershipNumber', value: m.membershipNumber }],
    beneficiary: { reference: `#${patientId}` },
    period: { start: m.periodStart, end: m.periodEnd },
    payor: [{ reference: `#${orgId}` }],
  };
}
