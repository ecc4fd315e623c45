/**
 * Contract pricing (Document 3, 2.6, 4.5, 7): value sets, payor listing (creates `slf` and `na`
 * once), payors and contact payors, services, services with procedure, prices, and effective
 * prices. Every state-changing step runs only with --allow-destructive and cleans up what it made.
 */
import { test } from 'vitest';
import {
  contractAuthoritySubjectRules, contractHoldsItem, deletedIdOutcome, effectivePricesProcedureHasService, payorsReservedOnce, requestRefused,
} from '../checks/index.ts';
import type { Exchange } from '../core/exchange.ts';
import { bodyOf, isRecord } from '../core/exchange.ts';
import type { CallOptions } from '../core/suite.ts';
import { call, describeFlow, describeOperation, record, runContext, tokenFor, verify } from '../core/suite.ts';
import { DESTRUCTIVE_CHECK, FIXTURE_CHECK, verifySuccess } from './common/steps.ts';

const C = () => runContext().fixtures.contracts ?? {};
const REF = 'https://ref.example';

async function contractCall(id: string, options: CallOptions = {}): Promise<Exchange> {
  const token = (await tokenFor('user')) ?? runContext().token;
  return call(id, { ...options, values: { token, ...options.values } });
}

function omitted(id: string, requirements: string[]): boolean {
  if (runContext().allowDestructive) return false;
  record(DESTRUCTIVE_CHECK, 'omit', 'This step changes contract data; run with --allow-destructive to include it', { operation: id, level: 'MUST', requirements });
  return true;
}

const idOf = (x: Exchange) => {
  const b = bodyOf(x);
  return isRecord(b) && typeof b.id === 'string' ? b.id : undefined;
};

/** A payor Contract for the run's site (2.6; DEC-D3-13: codes prefixed CONF-). */
function payorContract(authority: string, subType: { code: string; display: string }, id?: string) {
  return {
    resourceType: 'Contract',
    ...(id ? { id } : {}),
    subject: [{ reference: `Site/${runContext().siteId}` }],
    authority: [{ id: 'payor', reference: authority, display: authority.split('/')[1] }],
    type: { coding: [{ system: `${REF}/valueset/contract-type`, code: 'PRICING', display: 'Pricing' }] },
    subType: [{ coding: [{ system: `${REF}/valueset/contract-subtype/PRICING`, code: subType.code, display: subType.display }] }],
  };
}

/** A price-group Contract holding the given valued items (4.5 set-contract-* operations). */
function priceContract(items: { system: string; code: string; net?: number }[]) {
  return {
    resourceType: 'Contract',
    subject: [{ reference: `Site/${runContext().siteId}` }],
    term: [{
      asset: [{
        type: [{ coding: [{ code: 'PriceGroupAssignment' }] }],
        extension: [{ url: `${REF}/contract/extension/isESTV`, valueString: 'N' }],
        context: [{ reference: { reference: `Payor/I-${C().payor ?? 'bup'}` }, display: C().payor ?? 'bup' }],
        valuedItem: items.map((i) => ({
          entityCodeableConcept: { coding: [{ system: i.system, code: i.code, display: i.code }] },
          ...(i.net !== undefined ? { net: { value: i.net } } : {}),
        })),
      }],
    }],
  };
}

const SERVICE = { system: 'ISC', code: 'CONF-SVC-1' };
const PROCEDURE = { system: `${REF}/procedure`, code: 'CONF-PROC-1' };

describeFlow('contract value sets', ['list-contract-types', 'list-contract-subtypes'], () => {
  test('contract types and sub types are value sets', async () => {
    for (const id of ['list-contract-types', 'list-contract-subtypes']) {
      const x = await contractCall(id);
      verifySuccess(x, id, { success: ['D3-4.5-09'], schema: ['D3-4.5-09'] }, { status: 200 });
    }
  });
});

describeOperation('list-site-payors', () => {
  test('a site\'s payors, with slf and na once each', async () => {
    const x = await contractCall('list-site-payors', { path: { siteId: runContext().siteId } });
    if (!verifySuccess(x, 'list-site-payors', { success: ['D3-4.5-12'], schema: ['D3-2.6-01'] }, { status: 200 })) return;
    verify(x, payorsReservedOnce, { operation: 'list-site-payors', level: 'MUST', requirements: ['D3-4.5-12', 'D3-2.6-02'], decisions: ['DEC-D3-12'] });
    verify(x, contractAuthoritySubjectRules, { operation: 'list-site-payors', level: 'MUST', requirements: ['D3-2.6-03'] });
  });

  test('listing a fresh site creates slf and na, and a second listing does not duplicate them', async () => {
    const fresh = C().freshSiteId;
    if (!fresh) return record(FIXTURE_CHECK, 'skip', 'No fixture contracts.freshSiteId', { operation: 'list-site-payors', level: 'MUST', requirements: ['D3-4.5-13'] });
    if (omitted('list-site-payors', ['D3-4.5-13'])) return;
    for (const round of [1, 2]) {
      const x = await contractCall('list-site-payors', { path: { siteId: fresh } });
      if (verifySuccess(x, 'list-site-payors', { success: ['D3-4.5-13'] }, { status: 200 })) {
        verify(x, payorsReservedOnce, { operation: 'list-site-payors', level: 'MUST', requirements: ['D3-4.5-13'], decisions: ['DEC-D3-12'], evidence: { listing: round } });
      }
    }
  });
});

for (const [upsert, remove, authority, type, subType] of [
    ['upsert-payor', 'delete-payor', 'Organization/CONF-PAYOR', 'I', { code: 'I', display: 'FEE_SCHEDULE' }],
    ['upsert-contact-payor', 'delete-contact-payor', 'Person/CONF-CONTACT', 'C', { code: 'C', display: 'FEE_SCHEDULE' }],
] as const) {
  describeFlow(`${upsert} and ${remove}`, [upsert, remove], () => {
    test(`${upsert}: create, update, delete with MSG_DELETED_ID`, async () => {
      if (omitted(upsert, ['D3-4.5-16'])) return;
      const created = await contractCall(upsert, { body: JSON.stringify(payorContract(authority, subType)) });
      const id = idOf(created);
      try {
        if (!verifySuccess(created, upsert, { success: ['D3-4.5-16'], schema: ['D3-2.6-01'] }) || !id) return;
        verify(created, contractAuthoritySubjectRules, { operation: upsert, level: 'MUST', requirements: ['D3-2.6-03'] });
        const updated = await contractCall(upsert, { body: JSON.stringify(payorContract(authority, subType, id)) });
        if (verifySuccess(updated, upsert, { success: ['D3-4.5-17'], schema: ['D3-2.6-01'] })) {
          record({ id: 'update-keeps-id', summary: 'Updating a payor keeps its contract id' }, idOf(updated) === id ? 'pass' : 'fail',
            idOf(updated) === id ? `id ${id}` : `Expected id ${id}, received ${String(idOf(updated))}`, { operation: upsert, level: 'MUST', requirements: ['D3-4.5-17'], exchange: updated });
        }
      } finally {
        if (id) {
          const del = await contractCall(remove, { path: { site: runContext().siteId }, query: { payorId: authority, payorType: type, providerGroup: id } });
          if (verifySuccess(del, remove, { success: ['D3-4.5-37'], schema: ['D3-4.5-37'] })) verify(del, deletedIdOutcome, { operation: remove, level: 'MUST', requirements: ['D3-4.5-37'], decisions: ['DEC-D3-14'] });
        }
      }
    });
  });
}

describeFlow('contract services and prices', ['set-contract-service', 'delete-contract-service', 'set-contract-service-with-procedure', 'delete-contract-service-with-procedure', 'set-contract-price'], () => {
  test('services, services with procedure and prices are stored and deleted', async () => {
    if (omitted('set-contract-service', ['D3-4.5-26'])) return;
    const site = runContext().siteId;
    const service = await contractCall('set-contract-service', { body: JSON.stringify(priceContract([SERVICE])) });
    if (verifySuccess(service, 'set-contract-service', { success: ['D3-4.5-26'], schema: ['D3-2.6-01'] })) {
      verify(service, contractHoldsItem(SERVICE), { operation: 'set-contract-service', level: 'MUST', requirements: ['D3-4.5-26'] });
    }
    const withProcedure = await contractCall('set-contract-service-with-procedure', { body: JSON.stringify(priceContract([SERVICE, PROCEDURE])) });
    if (verifySuccess(withProcedure, 'set-contract-service-with-procedure', { success: ['D3-4.5-30'], schema: ['D3-2.6-01'] })) {
      verify(withProcedure, contractHoldsItem(PROCEDURE), { operation: 'set-contract-service-with-procedure', level: 'MUST', requirements: ['D3-4.5-30'] });
    }
    const price = await contractCall('set-contract-price', { body: JSON.stringify(priceContract([SERVICE, PROCEDURE, { ...PROCEDURE, net: 123.45 }])) });
    if (verifySuccess(price, 'set-contract-price', { success: ['D3-4.5-34'], schema: ['D3-2.6-01'] })) {
      verify(price, contractHoldsItem({ ...PROCEDURE, net: 123.45 }), { operation: 'set-contract-price', level: 'MUST', requirements: ['D3-4.5-34'] });
    }
    const orphan = await contractCall('set-contract-service-with-procedure', { body: JSON.stringify(priceContract([PROCEDURE])) });
    verify(orphan, requestRefused, { operation: 'set-contract-service-with-procedure', level: 'MUST', requirements: ['D3-4.5-31'], decisions: ['DEC-D3-15'] });
    const delProcedure = await contractCall('delete-contract-service-with-procedure', { path: { site }, query: { indStdCode: SERVICE.code, indStdCodeScheme: SERVICE.system, procedureCode: PROCEDURE.code, procedureScheme: PROCEDURE.system } });
    if (verifySuccess(delProcedure, 'delete-contract-service-with-procedure', { success: ['D3-4.5-33'] })) verify(delProcedure, deletedIdOutcome, { operation: 'delete-contract-service-with-procedure', level: 'MUST', requirements: ['D3-4.5-33'] });
    const delService = await contractCall('delete-contract-service', { path: { site }, query: { indStdCode: SERVICE.code, indStdCodeScheme: SERVICE.system } });
    if (verifySuccess(delService, 'delete-contract-service', { success: ['D3-4.5-33'] })) verify(delService, deletedIdOutcome, { operation: 'delete-contract-service', level: 'MUST', requirements: ['D3-4.5-33'] });
  });
});

describeOperation('get-effective-prices', () => {
  test('effective prices merge the contracts; a procedure comes with its service', async () => {
    const x = await contractCall('get-effective-prices', { query: { site: runContext().siteId, ...(C().payor ? { payor: C().payor } : {}), count: '50' } });
    if (!verifySuccess(x, 'get-effective-prices', { success: ['D3-4.5-04'], schema: ['D3-2.6-01'] }, { status: 200 })) return;
    verify(x, effectivePricesProcedureHasService, { operation: 'get-effective-prices', level: 'MUST', requirements: ['D3-4.5-04'], decisions: ['DEC-D3-15'] });
    verify(x, contractAuthoritySubjectRules, { operation: 'get-effective-prices', level: 'MUST', requirements: ['D3-2.6-03'] });
  });
});
