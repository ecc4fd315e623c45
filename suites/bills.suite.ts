/**
 * Bills (Document 1, 2.8, 4.11, 4.12): search by insurer with optional filters (a `searchset`),
 * and one bill by id and archive flag.
 */
import { test } from 'vitest';
import {
  billExtensionUrls,
  bundleHasEntries,
  bundleTypeIs,
  entriesMatchFilter,
  extensionsPresent,
  membersPresent,
  requestRefused,
} from '../checks/index.ts';
import { bodyOf, bundleResources, isRecord } from '../core/exchange.ts';
import { call, describeOperation, record, runContext, verify } from '../core/suite.ts';
import { contained, extensionValue } from './common/readers.ts';
import { FIXTURE_CHECK, verifySuccess } from './common/steps.ts';

const SEARCH = 'search-bills';
/** 2.8: the extensions both bill forms carry (presence SHOULD, DEC-D1-54). */
const billExtensions = extensionsPresent(
  [
    'IsArchived',
    'ClaimStatus',
    'EventReference',
    'InvoiceReference',
    'DoubleInsurance',
    'ThirdParty',
    'PackageDeal',
    'Currency',
  ],
  { resourceType: 'Claim' },
);
const GET = 'get-bill';
const bills = () => runContext().fixtures.bills ?? {};
/** The schema judges the MUST part of DEC-D1-54 (Claim, id, the stated form of what is present); presence is SHOULD. */
const listSchemaReqs = ['D1-4.11-05', 'D1-2.8-01', 'D1-2.8-03'];
/** 2.8: the members both bill forms list (presence SHOULD, DEC-D1-54), as paths of a search bundle and of one bill. */
const BILL_MEMBERS = [
  'contained',
  'patient.reference',
  'created',
  'priority.coding',
  'insurance[].coverage.reference',
  'total.value',
  'total.code',
];
const billMembers = (inBundle: boolean) =>
  membersPresent(BILL_MEMBERS.map((m) => (inBundle ? `entry[].resource.${m}` : m)));

const subscriberIds = (r: Record<string, unknown>) =>
  contained(r, 'Coverage')
    .map((c) => c.subscriberId)
    .filter((v): v is string => typeof v === 'string');
const invoiceNumbers = (r: Record<string, unknown>) =>
  contained(r, 'Invoice')
    .flatMap((i) => (Array.isArray(i.identifier) ? i.identifier : [i.identifier]))
    .filter(isRecord)
    .map((id) => id.value)
    .filter((v): v is string => typeof v === 'string');
/** The archive flag a bill shows (extension IsArchived, a Boolean or a text in any letter case), `false` when it shows none (DEC-D1-55). */
const archivedFlag = (r: Record<string, unknown>): 'true' | 'false' => {
  const v = extensionValue(r, 'IsArchived');
  return v === true || (typeof v === 'string' && /^(true|y|yes)$/i.test(v.trim())) ? 'true' : 'false';
};
const anyOf = (values: string[], v: string) => (values.length === 0 ? undefined : values.includes(v));

describeOperation(SEARCH, () => {
  test('a search by insurer returns a searchset of bills', async () => {
    const { insurerid } = bills();
    if (!insurerid)
      return record(FIXTURE_CHECK, 'skip', 'No fixture bills.insurerid', {
        operation: SEARCH,
        level: 'MUST',
        requirements: ['D1-4.11-05'],
      });
    const x = await call(SEARCH, { query: { insurerid } });
    if (
      !verifySuccess(
        x,
        SEARCH,
        { success: ['D1-4.11-05'], schema: listSchemaReqs },
        { status: 200, decisions: ['DEC-D1-54'] },
      )
    )
      return;
    verify(x, bundleTypeIs('searchset'), {
      operation: SEARCH,
      level: 'MUST',
      requirements: ['D1-4.11-05'],
      decisions: ['DEC-D1-66'],
    });
    verify(x, billExtensions, {
      operation: SEARCH,
      level: 'SHOULD',
      requirements: ['D1-2.8-04'],
      decisions: ['DEC-D1-54'],
    });
    verify(x, billExtensionUrls, {
      operation: SEARCH,
      level: 'MUST',
      requirements: ['D1-2.8-03'],
      decisions: ['DEC-D1-54'],
    });
    verify(x, billMembers(true), {
      operation: SEARCH,
      level: 'SHOULD',
      requirements: ['D1-2.8-02', 'D1-2.8-05'],
      decisions: ['DEC-D1-54'],
    });
    verify(x, bundleHasEntries(1), {
      operation: SEARCH,
      level: 'MUST',
      requirements: ['D1-4.11-05'],
      evidence: { insurerid, note: 'the config names an insurer with bills' },
    });
  });

  test('membershipNumber and invoiceNumber filter the bills', async () => {
    const { insurerid, membershipNumber, invoiceNumber } = bills();
    if (!insurerid)
      return record(FIXTURE_CHECK, 'skip', 'No fixture bills.insurerid', {
        operation: SEARCH,
        level: 'MUST',
        requirements: ['D1-4.11-03'],
      });
    for (const [name, value, read] of [
      ['membershipNumber', membershipNumber, subscriberIds],
      ['invoiceNumber', invoiceNumber, invoiceNumbers],
    ] as const) {
      if (!value) continue;
      const x = await call(SEARCH, { query: { insurerid, [name]: value } });
      if (!verifySuccess(x, SEARCH, { success: ['D1-4.11-03'], schema: listSchemaReqs }, { status: 200 })) continue;
      verify(
        x,
        entriesMatchFilter(`${name}=${value}`, (r) => anyOf(read(r), value)),
        { operation: SEARCH, level: 'MUST', requirements: ['D1-4.11-03'], decisions: ['DEC-D1-30'] },
      );
      verify(x, bundleHasEntries(1), {
        operation: SEARCH,
        level: 'MUST',
        requirements: ['D1-4.11-03'],
        evidence: { [name]: value },
      });
    }
  });

  test('insurerid is required; nothing matching gives an empty bundle', async () => {
    const x = await call(SEARCH, { query: {} });
    verify(x, requestRefused, {
      operation: SEARCH,
      level: 'MUST',
      requirements: ['D1-4.11-02'],
      decisions: ['DEC-D1-13'],
    });
    const { insurerid } = bills();
    if (!insurerid) return;
    const none = await call(SEARCH, { query: { insurerid, invoiceNumber: 'NO-SUCH-INVOICE-000' } });
    verifySuccess(none, SEARCH, { success: ['D1-4.11-06', 'D1-7-22'], schema: listSchemaReqs }, { status: 200 });
  });

  test('a request without a token is refused', async () => {
    const x = await call(SEARCH, { query: { insurerid: bills().insurerid ?? 'bup' }, omitHeaders: ['Authorization'] });
    verify(x, requestRefused, {
      operation: SEARCH,
      level: 'MUST',
      requirements: ['D1-5-04'],
      decisions: ['DEC-D1-21'],
    });
  });
});

describeOperation(GET, () => {
  test('a bill is returned by its id and archive flag', async () => {
    const { billId, isArchived } = bills();
    if (!billId)
      return record(FIXTURE_CHECK, 'skip', 'No fixture bills.billId', {
        operation: GET,
        level: 'MUST',
        requirements: ['D1-4.12-02'],
      });
    const flag = isArchived ?? 'false';
    const x = await call(GET, { path: { claimId: billId, isArchived: flag } });
    if (
      !verifySuccess(
        x,
        GET,
        { success: [flag === 'true' ? 'D1-4.12-03' : 'D1-4.12-02'], schema: ['D1-4.12-05', 'D1-2.8-01', 'D1-2.8-03'] },
        { status: 200, decisions: ['DEC-D1-54'] },
      )
    )
      return;
    verify(
      x,
      entriesMatchFilter(`id = ${billId}`, (r) => r.id === billId),
      { operation: GET, level: 'MUST', requirements: ['D1-4.12-05'], decisions: ['DEC-D1-31'] },
    );
    verify(x, billExtensions, {
      operation: GET,
      level: 'SHOULD',
      requirements: ['D1-2.8-04'],
      decisions: ['DEC-D1-54'],
    });
    verify(x, billExtensionUrls, {
      operation: GET,
      level: 'MUST',
      requirements: ['D1-2.8-03'],
      decisions: ['DEC-D1-54'],
    });
    verify(x, billMembers(false), {
      operation: GET,
      level: 'SHOULD',
      requirements: ['D1-2.8-02', 'D1-2.8-05'],
      decisions: ['DEC-D1-54'],
    });
  });

  test('every bill a search returns is served by its own id', async () => {
    const { insurerid } = bills();
    if (!insurerid)
      return record(FIXTURE_CHECK, 'skip', 'No fixture bills.insurerid', {
        operation: GET,
        level: 'MUST',
        requirements: ['D1-4.12-05'],
      });
    const found = bundleResources(bodyOf(await call(SEARCH, { query: { insurerid } })));
    const ids = found
      .map((r) => ({ id: r.id, archived: archivedFlag(r) }))
      .filter((b): b is { id: string; archived: 'true' | 'false' } => typeof b.id === 'string');
    if (ids.length === 0)
      return record(FIXTURE_CHECK, 'skip', `No bill of insurer ${insurerid} to fetch`, {
        operation: GET,
        level: 'MUST',
        requirements: ['D1-4.12-05'],
      });
    for (const { id, archived } of ids.slice(-3)) {
      const x = await call(GET, { path: { claimId: id, isArchived: archived } });
      if (!verifySuccess(x, GET, { success: [archived === 'true' ? 'D1-4.12-03' : 'D1-4.12-02'] }, { status: 200 }))
        continue;
      verify(
        x,
        entriesMatchFilter(`id = ${id}`, (r) => r.id === id),
        { operation: GET, level: 'MUST', requirements: ['D1-4.12-05'], decisions: ['DEC-D1-31', 'DEC-D1-55'] },
      );
    }
  });

  test('an unknown id and an isArchived other than true or false are refused', async () => {
    const unknown = await call(GET, { path: { claimId: 'NO-SUCH-BILL-000', isArchived: 'false' } });
    verify(unknown, requestRefused, {
      operation: GET,
      level: 'MUST',
      requirements: ['D1-4.12-06'],
      decisions: ['DEC-D1-13'],
    });
    const bad = await call(GET, { path: { claimId: bills().billId ?? 'BILL-0001', isArchived: 'maybe' } });
    verify(bad, requestRefused, {
      operation: GET,
      level: 'MUST',
      requirements: ['D1-4.12-04'],
      decisions: ['DEC-D1-31'],
    });
  });

  test('a request without a token is refused', async () => {
    const x = await call(GET, {
      path: { claimId: bills().billId ?? 'BILL-0001', isArchived: bills().isArchived ?? 'false' },
      omitHeaders: ['Authorization'],
    });
    verify(x, requestRefused, { operation: GET, level: 'MUST', requirements: ['D1-5-04'], decisions: ['DEC-D1-21'] });
  });
});
