/**
 * Bills (Document 1, 2.8, 4.11, 4.12): search by insurer with optional filters (a `searchset`),
 * and one bill by id and archive flag.
 */
import { on } from '../core/suite.ts';
import { FIXTURE_CONFIGURED } from '../core/decidedOutcomes.ts';
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
import { call, describeOperation, runContext } from '../core/suite.ts';
import { contained, extensionValue } from './common/readers.ts';
import { verifySuccess } from './common/steps.ts';
import { describeDerivedRequests, fixturesFrom } from './common/derivedRequests.ts';

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
/**
 * The archive flag a bill shows (extension IsArchived, a Boolean or a text in any letter case), `false` when it
 * shows none (DEC-D1-55).
 */
const archivedFlag = (r: Record<string, unknown>): 'true' | 'false' => {
  const v = extensionValue(r, 'IsArchived');
  return v === true || (typeof v === 'string' && /^(true|y|yes)$/i.test(v.trim())) ? 'true' : 'false';
};
const anyOf = (values: string[], v: string) => (values.length === 0 ? undefined : values.includes(v));

describeOperation(SEARCH, () => {
  const needs = (...cites: string[]) => ({ fixtures: ['bills.insurerid'] as const, cites });
  on(SEARCH).test('a search by insurer returns a searchset of bills', needs('D1-4.11-05'), async ([insurerid]) => {
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
    on(SEARCH).must('D1-4.11-05').under('DEC-D1-66').check(x, bundleTypeIs('searchset'));
    on(SEARCH).should('D1-2.8-04').under('DEC-D1-54').check(x, billExtensions);
    on(SEARCH).must('D1-2.8-03').under('DEC-D1-54').check(x, billExtensionUrls);
    on(SEARCH).should('D1-2.8-02', 'D1-2.8-05').under('DEC-D1-54').check(x, billMembers(true));
    on(SEARCH)
      .must('D1-4.11-05')
      .check(x, bundleHasEntries(1), { insurerid, note: 'the config names an insurer with bills' });
  });

  on(SEARCH).test('membershipNumber and invoiceNumber filter the bills', needs('D1-4.11-03'), async ([insurerid]) => {
    const { membershipNumber, invoiceNumber } = bills();
    for (const [name, value, read] of [
      ['membershipNumber', membershipNumber, subscriberIds],
      ['invoiceNumber', invoiceNumber, invoiceNumbers],
    ] as const) {
      if (!value) continue;
      const x = await call(SEARCH, { query: { insurerid, [name]: value } });
      if (!verifySuccess(x, SEARCH, { success: ['D1-4.11-03'], schema: listSchemaReqs }, { status: 200 })) continue;
      on(SEARCH)
        .must('D1-4.11-03')
        .under('DEC-D1-30')
        .check(
          x,
          entriesMatchFilter(`${name}=${value}`, (r) => anyOf(read(r), value)),
        );
      on(SEARCH)
        .must('D1-4.11-03')
        .check(x, bundleHasEntries(1), { [name]: value });
    }
  });

  test('insurerid is required; nothing matching gives an empty bundle', async () => {
    const x = await call(SEARCH, { query: {} });
    on(SEARCH).must('D1-4.11-02').under('DEC-D1-13').check(x, requestRefused);
    const { insurerid } = bills();
    if (!insurerid) return;
    const none = await call(SEARCH, { query: { insurerid, invoiceNumber: 'NO-SUCH-INVOICE-000' } });
    verifySuccess(none, SEARCH, { success: ['D1-4.11-06', 'D1-7-22'], schema: listSchemaReqs }, { status: 200 });
  });

  test('a request without a token is refused', async () => {
    const x = await call(SEARCH, { query: { insurerid: bills().insurerid ?? 'bup' }, omitHeaders: ['Authorization'] });
    on(SEARCH).must('D1-5-04').under('DEC-D1-21').check(x, requestRefused);
  });
});

describeOperation(GET, () => {
  const needs = { fixtures: ['bills.billId'], cites: ['D1-4.12-02'] } as const;
  on(GET).test('a bill is returned by its id and archive flag', needs, async ([billId]) => {
    const { isArchived } = bills();
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
    // The Claim answered is the one asked for: 4.12-05, and the row of the archive flag sent.
    on(GET)
      .must('D1-4.12-05', flag === 'true' ? 'D1-4.12-03' : 'D1-4.12-02')
      .under('DEC-D1-31')
      .check(
        x,
        entriesMatchFilter(`id = ${billId}`, (r) => r.id === billId),
      );
    on(GET).should('D1-2.8-04').under('DEC-D1-54').check(x, billExtensions);
    on(GET).must('D1-2.8-03').under('DEC-D1-54').check(x, billExtensionUrls);
    on(GET).should('D1-2.8-02', 'D1-2.8-05').under('DEC-D1-54').check(x, billMembers(false));
  });

  const byInsurer = { fixtures: ['bills.insurerid'], cites: ['D1-4.12-05'] } as const;
  on(GET).test('every bill a search returns is served by its own id', byInsurer, async ([insurerid]) => {
    const found = bundleResources(bodyOf(await call(SEARCH, { query: { insurerid } })));
    const ids = found
      .map((r) => ({ id: r.id, archived: archivedFlag(r) }))
      .filter((b): b is { id: string; archived: 'true' | 'false' } => typeof b.id === 'string');
    if (ids.length === 0)
      return on(GET).must('D1-4.12-05').decided(FIXTURE_CONFIGURED, 'skip', `No bill of insurer ${insurerid} to fetch`);
    for (const { id, archived } of ids.slice(-3)) {
      const x = await call(GET, { path: { claimId: id, isArchived: archived } });
      if (!verifySuccess(x, GET, { success: [archived === 'true' ? 'D1-4.12-03' : 'D1-4.12-02'] }, { status: 200 }))
        continue;
      on(GET)
        .must('D1-4.12-05', archived === 'true' ? 'D1-4.12-03' : 'D1-4.12-02')
        .under('DEC-D1-31', 'DEC-D1-55')
        .check(
          x,
          entriesMatchFilter(`id = ${id}`, (r) => r.id === id),
        );
    }
  });

  test('an unknown id and an isArchived other than true or false are refused', async () => {
    const unknown = await call(GET, { path: { claimId: 'NO-SUCH-BILL-000', isArchived: 'false' } });
    on(GET).must('D1-4.12-06').under('DEC-D1-13').check(unknown, requestRefused);
    const bad = await call(GET, { path: { claimId: bills().billId ?? 'BILL-0001', isArchived: 'maybe' } });
    on(GET).must('D1-4.12-04').under('DEC-D1-31').check(bad, requestRefused);
  });

  test('a request without a token is refused', async () => {
    const x = await call(GET, {
      path: { claimId: bills().billId ?? 'BILL-0001', isArchived: bills().isArchived ?? 'false' },
      omitHeaders: ['Authorization'],
    });
    on(GET).must('D1-5-04').under('DEC-D1-21').check(x, requestRefused);
  });
});

describeDerivedRequests({
  [SEARCH]: { fixtures: fixturesFrom(runContext().fixtures.bills) },
  [GET]: {
    fixtures: fixturesFrom({
      claimId: runContext().fixtures.bills?.billId,
      isArchived: runContext().fixtures.bills?.isArchived,
    }),
  },
});
