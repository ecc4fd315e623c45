/**
 * Contract-pricing resources (Document 3, 2.6, 4.5). A payor is a Contract with subject
 * `Site/<site>` and authority `Organization/<payor>` or `Person/<contact>`, sub type coding code
 * `I` or `C` displayed `FEE_SCHEDULE`. A price contract carries `authority` only for
 * FEE_SCHEDULE and PRACTITIONER_BESPOKE_CONTRACT; its `subject` names its site, and the practitioner
 * only for PRACTITIONER_BESPOKE_CONTRACT and SELF_PAY; its `term[0].asset[]` holds one PriceGroupAssignment
 * per service: the service entry (system `ISC`) followed by its procedure entries (system
 * `{ref_url}/procedure`), fees as `net`. Also the MSG_DELETED_ID outcome of the deletes.
 */
import type { Payor, PayorType, PriceContract, PriceSubType } from '../repo/model.ts';
import { ERROR_CODE_SYSTEM } from '../router/errors.ts';
import { REF_URL } from './urls.ts';

export const SERVICE_SYSTEM = 'ISC';
export const PROCEDURE_SYSTEM = `${REF_URL}/procedure`;
export const PRICE_GROUP_ASSIGNMENT = 'PriceGroupAssignment';
export const PRICE_SUB_TYPES: readonly PriceSubType[] = ['FEE_SCHEDULE', 'PRACTITIONER_BESPOKE_CONTRACT', 'SELF_PAY'];

const SUB_TYPE_DISPLAY: Readonly<Record<PriceSubType, string>> = {
  FEE_SCHEDULE: 'Payor fee schedule',
  PRACTITIONER_BESPOKE_CONTRACT: 'Practitioner bespoke contract',
  SELF_PAY: 'Self-pay',
};

export const contractTypeSystem = (contractsUrl: string) => `${contractsUrl}/valueset/contract-type`;
export const contractSubTypeSystem = (contractsUrl: string) => `${contractsUrl}/valueset/contract-subtype/PRICING`;

/** Items of the contract type ValueSet. */
export const contractTypeItems = (contractsUrl: string) => [
  { system: contractTypeSystem(contractsUrl), code: 'PRICING', display: 'Pricing' },
];

/** Items of the contract sub type ValueSet. */
export const contractSubTypeItems = (contractsUrl: string) =>
  PRICE_SUB_TYPES.map((code) => ({
    system: contractSubTypeSystem(contractsUrl),
    code,
    display: SUB_TYPE_DISPLAY[code],
  }));

/** The authority reference of a payor: `Organization/<payor>` or `Person/<contact>`. */
export const payorReference = (type: PayorType, payorId: string) =>
  `${type === 'I' ? 'Organization' : 'Person'}/${payorId}`;

const pricingType = (contractsUrl: string) => ({
  coding: [{ system: contractTypeSystem(contractsUrl), code: 'PRICING', display: 'Pricing' }],
});
const subTypeOf = (contractsUrl: string, type: PayorType, subType: PriceSubType) => [
  { coding: [{ system: contractSubTypeSystem(contractsUrl), code: type, display: subType }] },
];

export function payorContractOf(p: Payor, contractsUrl: string): Record<string, unknown> {
  return {
    resourceType: 'Contract',
    id: p.contractId,
    meta: { lastUpdated: p.lastUpdated },
    subject: [{ reference: `Site/${p.siteId}` }],
    authority: [{ id: 'payor', reference: payorReference(p.type, p.payorId), display: p.display }],
    type: pricingType(contractsUrl),
    subType: subTypeOf(contractsUrl, p.type, 'FEE_SCHEDULE'),
  };
}

const money = (fee: number | undefined) => (fee === undefined ? {} : { net: { value: fee, currency: 'GBP' } });

export interface PriceRenderOptions {
  /** Display of the payor (its name at the site). */
  payorDisplay: string;
  /** Display of the location, when the contract has one. */
  locationDisplay?: string;
}

export function priceContractOf(
  c: PriceContract,
  contractsUrl: string,
  o: PriceRenderOptions,
): Record<string, unknown> {
  const withAuthority = c.subType === 'FEE_SCHEDULE' || c.subType === 'PRACTITIONER_BESPOKE_CONTRACT';
  const withSubject =
    (c.subType === 'PRACTITIONER_BESPOKE_CONTRACT' || c.subType === 'SELF_PAY') && c.practitioner !== undefined;
  const context = [
    { reference: { reference: `${c.payorType}/${c.payorId}` }, display: o.payorDisplay },
    { reference: { reference: `Payor/${c.payorType}-${c.payorId}` }, display: o.payorDisplay },
    ...(c.locationId === undefined
      ? []
      : [{ reference: { reference: `Location/${c.locationId}` }, display: o.locationDisplay ?? c.locationId }]),
  ];
  const asset = c.services.map((s) => {
    const service = {
      entityCodeableConcept: {
        coding: [{ system: SERVICE_SYSTEM, code: s.code, display: s.display }],
      },
      ...money(s.fee),
    };
    const procedures = s.procedures.map((p) => ({
      entityCodeableConcept: { coding: [{ system: PROCEDURE_SYSTEM, code: p.code, display: p.display }] },
      ...money(p.fee),
    }));
    return {
      type: { coding: [{ code: PRICE_GROUP_ASSIGNMENT, display: 'Price group assignment' }] },
      extension: [{ url: `${contractsUrl}/contract/extension/isESTV`, valueString: c.isESTV }],
      context,
      valuedItem: [service, ...procedures],
    };
  });
  return {
    resourceType: 'Contract',
    id: c.id,
    meta: { lastUpdated: c.lastUpdated },
    // The site whose prices these are (a `Site/` subject passes on any Contract, DEC-D3-36), then
    // the practitioner of a bespoke or self-pay contract.
    subject: [
      { reference: `Site/${c.siteId}` },
      ...(withSubject && c.practitioner
        ? [{ reference: `Practitioner/${c.practitioner.id}`, display: c.practitioner.display }]
        : []),
    ],
    ...(withAuthority
      ? { authority: [{ id: 'payor', reference: payorReference(c.payorType, c.payorId), display: o.payorDisplay }] }
      : {}),
    type: pricingType(contractsUrl),
    subType: subTypeOf(contractsUrl, c.payorType, c.subType),
    term: [{ asset }],
  };
}

/** The delete answer (4.5): MSG_DELETED_ID, severity information, code informational, location CONTRACTS. */
export function deletedOutcome(diagnostics: string): Record<string, unknown> {
  return {
    resourceType: 'OperationOutcome',
    issue: [
      {
        severity: 'information',
        code: 'informational',
        details: { coding: [{ system: ERROR_CODE_SYSTEM, code: 'MSG_DELETED_ID', display: 'Deleted' }] },
        diagnostics,
        location: ['CONTRACTS'],
        expression: [],
      },
    ],
  };
}
