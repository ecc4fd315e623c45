/**
 * Contract pricing (Document 3, 2.6, 4.5, 7): value sets, payor listing (creates `slf` and `na`
 * once), payors and contact payors, services, services with procedure, prices, and effective
 * prices. Every state-changing step runs only with --allow-destructive and cleans up what it made.
 */
import type { OperationId } from '../spec/operations.ts';
import { on } from '../core/suite.ts';
import { PRECONDITION } from '../core/decidedOutcomes.ts';
import { test } from 'vitest';
import {
  bundleIsEmpty,
  contractAuthoritySubjectRules,
  contractHoldsItem,
  contractItemSystems,
  deletedIdOutcome,
  everyPayorAnswered,
  idsListed,
  keepsId,
  someEntryMatches,
  effectivePricesProcedureHasService,
  entriesMatchFilter,
  notServerError,
  pageWithinCount,
  pagesDoNotOverlap,
  pagingTagsMatchRequest,
  payorsReservedOnce,
  totalConsistent,
  requestRefused,
  successStatus,
} from '../checks/index.ts';
import { contractNamesPayor, contractsOf } from '../checks/contract.ts';
import { payorsNamedBy } from '../core/readers/payor.ts';
import type { Exchange, RespondedExchange } from '../core/exchange.ts';
import { bodyOf, bundleResources, hasResponse, isRecord, pagingTags } from '../core/exchange.ts';
import type { CallOptions } from '../core/suite.ts';
import { call, describeFlow, describeOperation, runContext, tokenFor } from '../core/suite.ts';
import { omitUnlessDestructive } from './common/destructive.ts';
import { verifySuccess, walkPages } from './common/steps.ts';
import { STATE_SEQUENCE_OPERATIONS, verifyStateSequence } from './common/stateSequences.ts';
import { describeDerivedRequests, fixturesFrom } from './common/derivedRequests.ts';

const C = () => runContext().fixtures.contracts ?? {};
const REF = 'https://ref.example';

async function contractCall(id: OperationId, options: CallOptions = {}): Promise<Exchange> {
  const token = (await tokenFor('user')) ?? runContext().token;
  return call(id, { ...options, values: { token, ...options.values } });
}

/** Without --allow-destructive: one `omit` per selected operation of the flow (suites/common/destructive.ts). */
const omitted = (operations: readonly OperationId[], what: string, extra: Record<string, string[]> = {}): boolean =>
  omitUnlessDestructive(operations, what, extra);

/** The valued-item systems of 2.6 (ISC, {ref_url}/procedure) on every Contract answer holding priced items. */
const ITEM_SYSTEMS = ['D3-2.6-09'];

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
    subType: [
      {
        coding: [{ system: `${REF}/valueset/contract-subtype/PRICING`, code: subType.code, display: subType.display }],
      },
    ],
  };
}

/**
 * A price-group Contract holding the given valued items (4.5 set-contract-* operations), with the
 * `id` 4.5 lists ("Contract with `id`"): the payor's Contract from the site's listing (DEC-D3-60).
 */
function priceContract(id: string, items: { system: string; code: string; net?: number }[]) {
  return {
    resourceType: 'Contract',
    id,
    subject: [{ reference: `Site/${runContext().siteId}` }],
    term: [
      {
        asset: [
          {
            type: [{ coding: [{ code: 'PriceGroupAssignment' }] }],
            extension: [{ url: `${REF}/contract/extension/isESTV`, valueString: 'N' }],
            context: [{ reference: { reference: `Payor/I-${C().payor ?? 'bup'}` }, display: C().payor ?? 'bup' }],
            valuedItem: items.map((i) => ({
              entityCodeableConcept: { coding: [{ system: i.system, code: i.code, display: i.code }] },
              ...(i.net !== undefined ? { net: { value: i.net } } : {}),
            })),
          },
        ],
      },
    ],
  };
}

/** Contract schema requirements: the typed members of 2.6 on every Contract answer. */
const CONTRACT_SCHEMA = [
  'D3-2.6-01',
  'D3-2.6-04',
  'D3-2.6-05',
  'D3-2.6-06',
  'D3-2.6-07',
  'D3-2.6-08',
  'D3-2.6-09',
  'D3-2.6-11',
];
/** The authority and subject rules of 2.6 (DEC-D3-36). */
const AUTHORITY_SUBJECT = ['D3-2.6-03', 'D3-2.6-11', 'D3-2.6-12'];

/**
 * Every page of a site's payor listing. Its paging parameters are not documented for this
 * operation, so the walk sends only `page` (the name of Documents 1 and 2) and stops on an empty
 * page, a page that adds nothing new (a target ignoring `page`), or when the `maxCount` tag or
 * `total` is reached: the reserved payors and the suite's payors may be on any page (DEC-D3-12).
 */
async function payorPages(site: string): Promise<{ pages: RespondedExchange[]; broken?: Exchange }> {
  const pages: RespondedExchange[] = [];
  const seen = new Set<string>();
  for (let page = 1; page <= 20; page++) {
    const x = await contractCall('list-site-payors', {
      path: { siteId: site },
      ...(page > 1 ? { query: { page: String(page) } } : {}),
    });
    if (!hasResponse(x) || x.response.status < 200 || x.response.status > 299) return { pages, broken: x };
    pages.push(x);
    const body = bodyOf(x);
    const keys = bundleResources(body).map((r) => String(r.id));
    const fresh = keys.filter((k) => !seen.has(k));
    for (const k of keys) seen.add(k);
    const declared = Number(pagingTags(body).get('maxCount') ?? (isRecord(body) ? body.total : undefined));
    if (keys.length === 0 || fresh.length === 0 || !Number.isFinite(declared) || seen.size >= declared) break;
  }
  return { pages };
}

/** The id of the Contract of the configured payor in the site's payor listing (DEC-D3-60), or undefined. */
async function payorContractId(site: string): Promise<string | undefined> {
  const payor = C().payor ?? 'bup';
  const { pages } = await payorPages(site);
  const held = pages
    .flatMap((p) => contractsOf(bodyOf(p)))
    .find((c) => typeof c.id === 'string' && c.id !== '' && contractNamesPayor(c, payor, { contacts: false }));
  return held?.id as string | undefined;
}

/** The payors a site's payor listing names over all its pages (DEC-D3-37, DEC-D3-58), or the failed exchange. */
async function listedContractIds(site: string): Promise<{ x: Exchange; ids?: string[] }> {
  const walk = await payorPages(site);
  const last = walk.broken ?? walk.pages[walk.pages.length - 1];
  if (walk.broken || !last) return { x: last };
  return {
    x: last,
    ids: walk.pages.flatMap((p) => contractsOf(bodyOf(p)).flatMap((c) => payorsNamedBy(c).map((n) => n.id))),
  };
}

/**
 * Deletes the Contracts of the suite's own payor (`CONF-` codes, DEC-D3-13) that an earlier run
 * left at the site, so that the create below is the payor's only Contract: a target may create a
 * new Contract for each upsert without id (DEC-D3-71), and the listing after the delete would
 * then still name the payor through the one left behind. Answers are not judged.
 */
async function removeLeftoverPayor(remove: OperationId, authority: string, type: string): Promise<void> {
  const site = runContext().siteId;
  if (!runContext().addresses['list-site-payors']) return;
  const payorId = authority.split('/')[1];
  const { pages } = await payorPages(site);
  const leftovers = pages
    .flatMap((p) => contractsOf(bodyOf(p)))
    .filter((c) => typeof c.id === 'string' && c.id !== '' && payorsNamedBy(c).some((n) => n.id === payorId));
  for (const c of leftovers)
    await contractCall(remove, {
      path: { site },
      query: { payorId: authority, payorType: type, providerGroup: String(c.id) },
    });
}

function verifyListed(
  id: OperationId,
  listing: { x: Exchange; ids?: string[] },
  payorId: string,
  expected: boolean,
  requirements: string[],
): void {
  if (!listing.ids) return void verifySuccess(listing.x, 'list-site-payors', { success: requirements });
  on(id)
    .must(...requirements)
    .under('DEC-D3-37', 'DEC-D3-58')
    .with({ exchange: listing.x })
    .check({ ids: listing.ids }, idsListed("the payors named by the site's payor listing", [payorId], expected));
}

const SERVICE = { system: 'ISC', code: 'CONF-SVC-1' };
const PROCEDURE = { system: `${REF}/procedure`, code: 'CONF-PROC-1' };

describeFlow('contract value sets', ['list-contract-types', 'list-contract-subtypes'], () => {
  test('contract types and sub types are value sets', async () => {
    for (const id of ['list-contract-types', 'list-contract-subtypes'] as const) {
      const x = await contractCall(id);
      const row = id === 'list-contract-types' ? 'D3-4.5-09' : 'D3-4.5-10';
      verifySuccess(x, id, { success: [row, 'D3-4.5-40'], schema: [row] });
    }
  });
});

describeOperation('list-site-payors', () => {
  test("a site's payors, with slf and na once each over all pages", async () => {
    const walk = await payorPages(runContext().siteId);
    if (walk.broken)
      return void verifySuccess(walk.broken, 'list-site-payors', { success: ['D3-4.5-12', 'D3-4.5-40'] });
    let ok = true;
    for (const page of walk.pages)
      ok =
        verifySuccess(page, 'list-site-payors', { success: ['D3-4.5-12', 'D3-4.5-40'], schema: CONTRACT_SCHEMA }) && ok;
    const x = walk.pages[0];
    if (!ok || !x) return;
    on('list-site-payors')
      .must('D3-4.5-12', 'D3-2.6-02', 'D3-2.6-13')
      .under('DEC-D3-12', 'DEC-D3-37')
      .with({ exchange: walk.pages[walk.pages.length - 1] })
      .check({ pages: walk.pages }, payorsReservedOnce, { pages: walk.pages.length });
    const site = runContext().siteId;
    on('list-site-payors')
      .should('D3-4.5-15')
      .under('DEC-D3-58')
      .check(
        x,
        entriesMatchFilter(
          `subject Site/${site}`,
          (r) =>
            Array.isArray(r.subject) &&
            r.subject.some(
              (sub) =>
                isRecord(sub) &&
                typeof sub.reference === 'string' &&
                new RegExp(`(^|/)Site/${site}$`).test(sub.reference),
            ),
        ),
      );
    on('list-site-payors')
      .must(...AUTHORITY_SUBJECT)
      .under('DEC-D3-36')
      .check(x, contractAuthoritySubjectRules);
  });

  const needs = { fixtures: ['contracts.freshSiteId'], cites: ['D3-4.5-13'] } as const;
  on('list-site-payors').test(
    'listing a fresh site creates slf and na, and lists them once',
    needs,
    async ([fresh]) => {
      if (
        omitted(
          ['list-site-payors'],
          'would list the payors of the fresh site contracts.freshSiteId, which creates slf and na there',
          { 'list-site-payors': ['D3-4.5-13', 'D3-4.5-14'] },
        )
      )
        return;
      for (const round of [1, 2]) {
        const walk = await payorPages(fresh);
        if (walk.broken) {
          verifySuccess(walk.broken, 'list-site-payors', { success: ['D3-4.5-13', 'D3-4.5-40'] });
          continue;
        }
        if (walk.pages.length === 0) continue;
        on('list-site-payors')
          .must(...(round === 2 ? ['D3-4.5-13', 'D3-4.5-14'] : ['D3-4.5-13']))
          .under('DEC-D3-12')
          .with({ exchange: walk.pages[walk.pages.length - 1] })
          .check({ pages: walk.pages }, payorsReservedOnce, { listing: round, pages: walk.pages.length });
      }
    },
  );
});

// Each flow cites its own operations' rows: create, update and delete (4.5), listed and gone.
for (const [upsert, remove, authority, type, subType, listedReq, rows] of [
  [
    'upsert-payor',
    'delete-payor',
    'Organization/CONF-PAYOR',
    'I',
    { code: 'I', display: 'FEE_SCHEDULE' },
    'D3-4.5-18',
    { create: 'D3-4.5-16', update: 'D3-4.5-17', remove: 'D3-4.5-21' },
  ],
  [
    'upsert-contact-payor',
    'delete-contact-payor',
    'Person/CONF-CONTACT',
    'C',
    { code: 'C', display: 'FEE_SCHEDULE' },
    'D3-4.5-24',
    { create: 'D3-4.5-23', update: 'D3-4.5-23', remove: 'D3-4.5-25' },
  ],
] as const) {
  describeFlow(`${upsert} and ${remove}`, [upsert, remove], () => {
    test(`${upsert}: a Contract without subject or without authority is not a server error`, async () => {
      if (
        omitted(
          [upsert, remove],
          `would create payor Contracts without subject or authority for ${authority} and delete what was created`,
        )
      )
        return;
      const { subject: _s, ...noSubject } = payorContract(authority, subType);
      const { authority: _a, ...noAuthority } = payorContract(authority, subType);
      void _s;
      void _a;
      for (const body of [noSubject, noAuthority]) {
        const x = await contractCall(upsert, { body: JSON.stringify(body) });
        on(upsert).must('D3-4.5-19').under('DEC-D3-58').check(x, notServerError);
        const made = idOf(x);
        if (made && hasResponse(x) && x.response.status < 300)
          await contractCall(remove, {
            path: { site: runContext().siteId },
            query: { payorId: authority, payorType: type, providerGroup: made },
          });
      }
    });

    test(`${upsert}: create, update, delete with MSG_DELETED_ID`, async () => {
      if (omitted([upsert, remove], `would create, update and delete the payor ${authority} at the run's site`)) return;
      await removeLeftoverPayor(remove, authority, type);
      const created = await contractCall(upsert, { body: JSON.stringify(payorContract(authority, subType)) });
      const id = idOf(created);
      try {
        if (
          !verifySuccess(created, upsert, {
            success: [rows.create, 'D3-4.5-40', 'D3-1-05'],
            schema: CONTRACT_SCHEMA,
          }) ||
          !id
        )
          return;
        if (runContext().addresses['list-site-payors'])
          verifyListed(upsert, await listedContractIds(runContext().siteId), authority.split('/')[1], true, [
            listedReq,
          ]);
        on(upsert)
          .must(...AUTHORITY_SUBJECT)
          .under('DEC-D3-36')
          .check(created, contractAuthoritySubjectRules);
        const updated = await contractCall(upsert, { body: JSON.stringify(payorContract(authority, subType, id)) });
        if (verifySuccess(updated, upsert, { success: [rows.update, 'D3-4.5-40'], schema: CONTRACT_SCHEMA })) {
          on(upsert).must(rows.update).under('DEC-D3-58').check(updated, keepsId(id));
        }
      } finally {
        if (id) {
          const del = await contractCall(remove, {
            path: { site: runContext().siteId },
            query: { payorId: authority, payorType: type, providerGroup: id },
          });
          if (verifySuccess(del, remove, { success: [rows.remove, 'D3-4.5-37', 'D3-4.5-40'], schema: ['D3-4.5-37'] })) {
            on(remove).must(rows.remove, 'D3-4.5-37').under('DEC-D3-14', 'DEC-D3-59').check(del, deletedIdOutcome);
            if (runContext().addresses['list-site-payors'])
              verifyListed(remove, await listedContractIds(runContext().siteId), authority.split('/')[1], false, [
                listedReq,
              ]);
          }
          const again = await contractCall(remove, {
            path: { site: runContext().siteId },
            query: { payorId: authority, payorType: type, providerGroup: 'NO-SUCH-CONTRACT-000' },
          });
          on(remove).must('D3-4.5-38').under('DEC-D3-59').check(again, notServerError);
        }
      }
    });
  });
}

/**
 * DEC-D3-56 (SHOULD): the service the flow set for the payor is in the site's effective prices for that payor,
 * and gone once deleted.
 */
async function verifyServiceInEffectivePrices(expected: boolean): Promise<void> {
  if (!runContext().addresses['get-effective-prices']) return;
  const x = await contractCall('get-effective-prices', {
    query: { site: runContext().siteId, payor: C().payor ?? 'bup', count: '1000' },
  });
  const bind = on('get-effective-prices')
    .should('D3-4.5-29')
    .under('DEC-D3-56')
    .with({ evidence: { service: SERVICE.code, after: expected ? 'set' : 'delete' } });
  if (!verifySuccess(x, 'get-effective-prices', {})) return;
  const holds = (r: Record<string, unknown>) => serviceCodes(r).includes(SERVICE.code);
  if (expected)
    bind.check(
      x,
      someEntryMatches(`a Contract pricing the service ${SERVICE.code} just set`, holds, { resourceType: 'Contract' }),
    );
  else
    bind.check(
      x,
      entriesMatchFilter(`no longer pricing the deleted service ${SERVICE.code}`, (r) => !holds(r), {
        resourceType: 'Contract',
      }),
    );
}

describeFlow(
  'contract services and prices',
  [
    'set-contract-service',
    'delete-contract-service',
    'set-contract-service-with-procedure',
    'delete-contract-service-with-procedure',
    'set-contract-price',
  ],
  () => {
    test('services, services with procedure and prices are stored and deleted', async () => {
      if (
        omitted(
          [
            'set-contract-service',
            'delete-contract-service',
            'set-contract-service-with-procedure',
            'delete-contract-service-with-procedure',
            'set-contract-price',
          ],
          `would set the service ${SERVICE.code}, its procedure ${PROCEDURE.code} and a price ` +
            `for the payor ${C().payor ?? 'bup'} at the run's site, then delete them`,
        )
      )
        return;
      const site = runContext().siteId;
      const holder = await payorContractId(site);
      if (holder === undefined)
        return on('set-contract-service')
          .must('D3-4.5-26')
          .decided(
            PRECONDITION,
            'skip',
            `The payor listing of site ${site} names no Contract of payor ${C().payor ?? 'bup'}: ` +
              'the Contract `id` 4.5 lists cannot be sent (DEC-D3-60)',
          );
      const service = await contractCall('set-contract-service', {
        body: JSON.stringify(priceContract(holder, [SERVICE])),
      });
      if (
        verifySuccess(service, 'set-contract-service', { success: ['D3-4.5-26', 'D3-4.5-40'], schema: CONTRACT_SCHEMA })
      ) {
        on('set-contract-service').must('D3-4.5-26').check(service, contractHoldsItem(SERVICE));
        on('set-contract-service')
          .must(...ITEM_SYSTEMS)
          .under('DEC-D3-30')
          .check(service, contractItemSystems);
        await verifyServiceInEffectivePrices(true);
      }
      const withProcedure = await contractCall('set-contract-service-with-procedure', {
        body: JSON.stringify(priceContract(holder, [SERVICE, PROCEDURE])),
      });
      if (
        verifySuccess(withProcedure, 'set-contract-service-with-procedure', {
          success: ['D3-4.5-30', 'D3-4.5-40'],
          schema: CONTRACT_SCHEMA,
        })
      ) {
        on('set-contract-service-with-procedure').must('D3-4.5-30').check(withProcedure, contractHoldsItem(PROCEDURE));
        on('set-contract-service-with-procedure')
          .must(...ITEM_SYSTEMS)
          .under('DEC-D3-30')
          .check(withProcedure, contractItemSystems);
      }
      const price = await contractCall('set-contract-price', {
        body: JSON.stringify(priceContract(holder, [SERVICE, PROCEDURE, { ...PROCEDURE, net: 123.45 }])),
      });
      if (
        verifySuccess(price, 'set-contract-price', { success: ['D3-4.5-34', 'D3-4.5-40'], schema: CONTRACT_SCHEMA })
      ) {
        on('set-contract-price')
          .must('D3-4.5-34')
          .check(price, contractHoldsItem({ ...PROCEDURE, net: 123.45 }));
        on('set-contract-price')
          .must(...ITEM_SYSTEMS)
          .under('DEC-D3-30')
          .check(price, contractItemSystems);
      }
      const orphan = await contractCall('set-contract-service-with-procedure', {
        body: JSON.stringify(priceContract(holder, [PROCEDURE])),
      });
      on('set-contract-service-with-procedure').must('D3-4.5-31').under('DEC-D3-15').check(orphan, requestRefused);
      const delProcedure = await contractCall('delete-contract-service-with-procedure', {
        path: { site },
        query: {
          indStdCode: SERVICE.code,
          indStdCodeScheme: SERVICE.system,
          procedureCode: PROCEDURE.code,
          procedureScheme: PROCEDURE.system,
        },
      });
      if (
        verifySuccess(delProcedure, 'delete-contract-service-with-procedure', {
          success: ['D3-4.5-33', 'D3-4.5-40'],
          schema: ['D3-4.5-33'],
        })
      )
        on('delete-contract-service-with-procedure').must('D3-4.5-33').check(delProcedure, deletedIdOutcome);
      for (const [op, query] of [
        ['delete-contract-service', { indStdCode: 'NO-SUCH-SVC-000', indStdCodeScheme: SERVICE.system }],
        [
          'delete-contract-service-with-procedure',
          {
            indStdCode: 'NO-SUCH-SVC-000',
            indStdCodeScheme: SERVICE.system,
            procedureCode: 'NO-SUCH-PROC-000',
            procedureScheme: PROCEDURE.system,
          },
        ],
      ] as const) {
        on(op)
          .must('D3-4.5-38')
          .under('DEC-D3-59')
          .check(await contractCall(op, { path: { site }, query }), notServerError);
      }
      const delService = await contractCall('delete-contract-service', {
        path: { site },
        query: { indStdCode: SERVICE.code, indStdCodeScheme: SERVICE.system },
      });
      if (
        verifySuccess(delService, 'delete-contract-service', {
          success: ['D3-4.5-28', 'D3-4.5-40'],
          schema: ['D3-4.5-28'],
        })
      )
        on('delete-contract-service').must('D3-4.5-28').check(delService, deletedIdOutcome);
      if (hasResponse(delService) && delService.response.status < 300) await verifyServiceInEffectivePrices(false);
    });
  },
);

/** Service codes (system ISC) of a Contract's valued items. */
function serviceCodes(r: Record<string, unknown>): string[] {
  const codes: string[] = [];
  for (const term of Array.isArray(r.term) ? r.term : [])
    for (const asset of isRecord(term) && Array.isArray(term.asset) ? term.asset : []) {
      for (const item of isRecord(asset) && Array.isArray(asset.valuedItem) ? asset.valuedItem : []) {
        const concept = isRecord(item) ? item.entityCodeableConcept : undefined;
        for (const c of isRecord(concept) && Array.isArray(concept.coding) ? concept.coding : [])
          if (isRecord(c) && c.system === 'ISC' && typeof c.code === 'string') codes.push(c.code);
      }
    }
  return codes;
}

describeOperation('get-effective-prices', () => {
  test('several payors, a service, paging and _since accepted; an unpriced service gives an empty Bundle', async () => {
    const site = runContext().siteId;
    const payor = C().payor ?? 'bup';
    const several = await contractCall('get-effective-prices', { query: { site, payor: `${payor},slf` } });
    if (
      verifySuccess(
        several,
        'get-effective-prices',
        { success: ['D3-4.5-02', 'D3-4.5-40'], schema: ['D3-4.5-02', ...CONTRACT_SCHEMA] },
        { decisions: ['DEC-D3-56'] },
      )
    ) {
      // Every payor of the comma list is answered for: those that, asked alone, are named by a Contract of the answer.
      const answered: string[] = [];
      for (const p of [payor, 'slf']) {
        const alone = await contractCall('get-effective-prices', { query: { site, payor: p } });
        if (
          hasResponse(alone) &&
          alone.response.status < 300 &&
          contractsOf(bodyOf(alone)).some((c) => contractNamesPayor(c, p))
        )
          answered.push(p);
      }
      if (answered.length === 0) {
        on('get-effective-prices')
          .must('D3-4.5-02')
          .with({ exchange: several })
          .decided(
            PRECONDITION,
            'skip',
            `Neither ${payor} nor slf, asked alone, is answered with a Contract naming it`,
          );
      } else {
        on('get-effective-prices')
          .must('D3-4.5-02')
          .under('DEC-D3-56', 'DEC-D3-37')
          .check(several, everyPayorAnswered(answered));
      }
    }
    const sample = bundleResources(bodyOf(several)).flatMap(serviceCodes)[0] ?? C().serviceCode;
    if (sample) {
      const x = await contractCall('get-effective-prices', { query: { site, payor, 'service-code': sample } });
      if (verifySuccess(x, 'get-effective-prices', { success: ['D3-4.5-40'] })) {
        on('get-effective-prices')
          .should('D3-4.5-05')
          .under('DEC-D3-56')
          .check(
            x,
            entriesMatchFilter(
              `service-code=${sample}`,
              (r) => {
                const codes = serviceCodes(r);
                return codes.length === 0 ? undefined : codes.includes(sample);
              },
              { resourceType: 'Contract' },
            ),
          );
      }
    }
    // The paging and incremental-sync parameter names are not given (DEC-D3-56): whether the target takes them is
    // recorded;
    // when it answers with paging tags, they must agree with the request (MUST).
    const paged = await contractCall('get-effective-prices', {
      query: { site, payor, page: '1', count: '1', _since: '2000-01-01T00:00:00Z' },
    });
    if (
      on('get-effective-prices')
        .info('D3-4.5-08')
        .under('DEC-D3-56')
        .check(paged, successStatus(), { sent: 'page, count, _since' }).status === 'pass'
    ) {
      const body = bodyOf(paged);
      if (pagingTags(body).size > 0) {
        const tagged = () => on('get-effective-prices').must('D3-4.5-07').under('DEC-D1-12', 'DEC-D3-56');
        tagged().check(paged, pagingTagsMatchRequest({ page: 1, count: 1 }));
        // The target pages with these names: every page of the query, one record a page, follows DEC-D1-12
        // (tags echo the request, a page within its count, no overlap, a total consistent with the walk).
        const token = (await tokenFor('user')) ?? runContext().token;
        const base = { query: { site, payor, _since: '2000-01-01T00:00:00Z' }, values: { token } };
        const walk = await walkPages('get-effective-prices', base, 1, 20);
        walk.pages.forEach((x, i) => {
          tagged().check(x, pagingTagsMatchRequest({ page: i + 1, count: 1 }));
          tagged().check(x, pageWithinCount(1));
        });
        const last = walk.pages[walk.pages.length - 1];
        if (last && !walk.broken) {
          tagged().with({ exchange: last }).check({ pages: walk.pages }, pagesDoNotOverlap);
          tagged().with({ exchange: last }).check({ pages: walk.pages, complete: walk.complete }, totalConsistent);
        }
      }
    }
    const none = await contractCall('get-effective-prices', {
      query: { site, payor, 'service-code': 'NO-SUCH-SERVICE-000' },
    });
    if (verifySuccess(none, 'get-effective-prices', { success: ['D3-7-44'] }, { decisions: ['DEC-D3-56'] })) {
      on('get-effective-prices').must('D3-7-44').under('DEC-D3-56').check(none, bundleIsEmpty);
    }
  });

  test('effective prices merge the contracts; a procedure comes with its service', async () => {
    const x = await contractCall('get-effective-prices', {
      query: { site: runContext().siteId, ...(C().payor ? { payor: C().payor } : {}), count: '50' },
    });
    if (!verifySuccess(x, 'get-effective-prices', { success: ['D3-4.5-04', 'D3-4.5-40'], schema: CONTRACT_SCHEMA }))
      return;
    on('get-effective-prices')
      .must('D3-4.5-04', 'D3-1-05')
      .under('DEC-D3-15')
      .check(x, effectivePricesProcedureHasService);
    const site = runContext().siteId;
    on('get-effective-prices')
      .must('D3-4.5-03')
      .under('DEC-D3-56')
      .check(
        x,
        entriesMatchFilter(
          `Site/ subjects name ${site}`,
          (r) => {
            const sites = (Array.isArray(r.subject) ? r.subject : [])
              .map((sub) =>
                isRecord(sub) && typeof sub.reference === 'string'
                  ? /(?:^|\/)Site\/([^/]+)$/.exec(sub.reference)?.[1]
                  : undefined,
              )
              .filter((v) => v !== undefined);
            return sites.length === 0 ? undefined : sites.every((v) => v === site);
          },
          { resourceType: 'Contract' },
        ),
      );
    on('get-effective-prices')
      .must(...AUTHORITY_SUBJECT)
      .under('DEC-D3-36')
      .check(x, contractAuthoritySubjectRules);
    on('get-effective-prices')
      .must(...ITEM_SYSTEMS)
      .under('DEC-D3-30')
      .check(x, contractItemSystems);
  });
});

describeDerivedRequests({
  'get-effective-prices': {
    send: contractCall,
    fixtures: fixturesFrom({
      site: C().freshSiteId,
      location: C().location,
      payor: C().payor,
      'service-code': C().serviceCode,
    }),
  },
  'list-site-payors': { send: contractCall, fixtures: { siteId: runContext().siteId } },
  // The payor ids are of the documented form only as fixtures (`Organization/<payor>`, `Person/<contact>`).
  // Without `contracts.payor` no payor id is held: none is made up (it would be judged as held, DEC-R-04).
  'delete-payor': {
    send: contractCall,
    fixtures: fixturesFrom({ site: runContext().siteId, payorId: C().payor && `Organization/${C().payor}` }),
    fixtureWeight: 1,
  },
  // No fixture names a contact payor the target holds: none is made up either (DEC-R-04).
  'delete-contact-payor': {
    send: contractCall,
    fixtures: fixturesFrom({ site: runContext().siteId }),
    fixtureWeight: 1,
  },
  'delete-contract-service': { send: contractCall },
  'delete-contract-service-with-procedure': { send: contractCall },
  // Negative cases of the Contract bodies, mutated from schema-valid ones (DEC-D3-67).
  'upsert-payor': { send: contractCall },
  'upsert-contact-payor': { send: contractCall },
  'set-contract-service': { send: contractCall },
  'set-contract-service-with-procedure': { send: contractCall },
  'set-contract-price': { send: contractCall },
});

describeFlow('payor maintenance as generated sequences', STATE_SEQUENCE_OPERATIONS['payor-maintenance'], () => {
  test('list, upsert and delete payors and services in generated orders keep the documented state', () =>
    verifyStateSequence('payor-maintenance'));
});
