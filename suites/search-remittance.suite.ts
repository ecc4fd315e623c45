/**
 * Remittance summary and detail searches (Document 1, 2.4, 2.5, 4.4, 4.5, 7): shape, every
 * filter on example and property-generated requests, `_sort`, `_since`, paging, feature gates,
 * documented errors and headers.
 */
import { on } from '../core/suite.ts';
import { FEATURE_AVAILABLE, FIXTURE_CONFIGURED } from '../core/decidedOutcomes.ts';
import { test } from 'vitest';
import {
  bundleHasEntries,
  entriesMatchFilter,
  entriesSorted,
  entriesSortedOverPages,
  entryExtensionCardinality,
  summaryExtensionUrls,
  errorStatusAndCode,
  invalidRequestAnswered,
  filterExcludesAll,
  filteredSubset,
  notServerError,
  pageWithinCount,
  pagingTagsMatchRequest,
  requestRefused,
  successStatus,
} from '../checks/index.ts';
import type { Exchange } from '../core/exchange.ts';
import { bodyOf, bundleResources, hasResponse, isRecord } from '../core/exchange.ts';
import type { Judgement } from '../core/property.ts';
import { judge } from '../core/property.ts';
import { call, describeOperation, hasFeatures, runContext } from '../core/suite.ts';
import fc from 'fast-check';
import { invalidRequests } from '../generators/requestArbitrary.ts';
import { type FilterDef, filterSearches, type Resource } from './common/filterCandidates.ts';
import { operation } from '../spec/operations.ts';
import type { Parameter } from '../spec/types.ts';
import { contained, extension, extensionValue, identifierValues, numberOf } from './common/readers.ts';
import { detailFilters, detailSortKey, summaryFilters, summarySortKey } from './common/remittanceFilters.ts';
import {
  collectIds,
  verifyError,
  verifyHeadersEnforced,
  verifyPaging,
  verifySuccess,
  walkPages,
  wholeResult,
} from './common/steps.ts';
import { describeDerivedRequests } from './common/derivedRequests.ts';

interface Surface {
  id: 'search-remittance-summary' | 'search-remittance-detail';
  filters: Record<string, FilterDef>;
  sortKey: (r: Resource) => string | undefined;
  /** Requirement id of each filter parameter. */
  reqOf: Record<string, string>;
  sortReq: string;
  /** Requirement ids of the operation's own `page`/`count` statement. */
  pagingReqs: string[];
  schemaReqs: string[];
  errors: { empty: string; format: string; content: string };
  path: () => Record<string, string> | undefined;
  /** Rules every returned record must keep (section 2 statements no schema can express). */
  entryRules: EntryRule[];
  /** Extension cardinalities of the field table (1-1 exactly once, 0-1 at most once). */
  cardinality: { resourceType: string; exactlyOne: string[]; atMostOne: string[]; requirements: string[] };
}

interface EntryRule {
  description: string;
  predicate: (r: Resource) => boolean | undefined;
  level: 'MUST' | 'SHOULD';
  requirements: string[];
  decisions: string[];
}

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const isBacs = (r: Resource): boolean | undefined => {
  const method = extensionValue(r, 'paymentMethod');
  return typeof method === 'string' ? /\bBACS\b/i.test(method) : undefined;
};

/**
 * 2.4 (DEC-D1-52): a `#` reference names the contained Organization identified as provider or insurer; undefined
 * without one.
 */
function localReferencesResolve(r: Resource): boolean | undefined {
  let judged = false;
  for (const [member, suffix] of [
    ['requestor', 'providerIdentifier'],
    ['paymentIssuer', 'insurerIdentifier'],
  ] as const) {
    const ref = isRecord(r[member]) ? (r[member] as Record<string, unknown>).reference : undefined;
    if (typeof ref !== 'string' || !ref.startsWith('#')) continue;
    judged = true;
    const target = contained(r, 'Organization').find((o) => o.id === ref.slice(1));
    if (!target || identifierValues(target, suffix).length === 0) return false;
  }
  return judged ? true : undefined;
}

/** 2.5 (DEC-D1-53): shortAmount = invoiceTotal - previousPaidAmount (0 when absent) - paidAmount, within 0.005. */
function shortAmountAddsUp(r: Resource): boolean | undefined {
  const total = numberOf(extensionValue(r, 'invoiceTotal'));
  const paid = numberOf(extensionValue(r, 'paidAmount'));
  const short = numberOf(extensionValue(r, 'shortAmount'));
  if (total === undefined || paid === undefined || short === undefined) return undefined;
  const previous = numberOf(extensionValue(r, 'previousPaidAmount')) ?? 0;
  return Math.abs(total - previous - paid - short) < 0.005;
}

/**
 * 2.5: every shortfall reason (`item[].adjudication[]`) has its liabilityType, category, reason text and amount;
 * undefined without any.
 */
function shortfallReasonsComplete(r: Resource): boolean | undefined {
  const reasons = arr(r.item).flatMap((i) => (isRecord(i) ? arr(i.adjudication) : []));
  if (reasons.length === 0) return undefined;
  return reasons.every((a) => {
    if (!isRecord(a)) return false;
    const liability = extension(a, 'liabilityType');
    const codings = isRecord(a.category) ? arr(a.category.coding).filter(isRecord) : [];
    return (
      liability !== undefined &&
      typeof liability.valueString === 'string' &&
      codings.some(
        (c) =>
          typeof c.system === 'string' &&
          c.system.endsWith('/adjudication') &&
          typeof c.code === 'string' &&
          c.code !== '',
      ) &&
      isRecord(a.reason) &&
      typeof a.reason.text === 'string' &&
      isRecord(a.amount) &&
      numberOf(a.amount.value) !== undefined
    );
  });
}

const summary: Surface = {
  id: 'search-remittance-summary',
  filters: summaryFilters,
  sortKey: summarySortKey,
  reqOf: {
    insurerIdentifier: 'D1-4.4-03',
    provider: 'D1-4.4-04',
    invoiceNumber: 'D1-4.4-05',
    patientName: 'D1-4.4-06',
    membershipNumber: 'D1-4.4-07',
    dateCreated: 'D1-4.4-08',
    datePaid: 'D1-4.4-09',
    paymentAmount: 'D1-4.4-10',
    amountInvoiced: 'D1-4.4-11',
    insurerPaymentReference: 'D1-4.4-12',
    hasShortFall: 'D1-4.4-14',
    excludeExported: 'D1-4.4-15',
    _since: 'D1-4.4-18',
  },
  sortReq: 'D1-4.4-16',
  pagingReqs: ['D1-4.4-19'],
  schemaReqs: [
    'D1-4.4-20',
    'D1-2.4-01',
    'D1-2.4-02',
    'D1-2.4-03',
    'D1-2.4-05',
    'D1-2.4-06',
    'D1-2.4-07',
    'D1-2.4-08',
    'D1-2.4-10',
    'D1-2.4-11',
    'D1-2.4-12',
    'D1-2.4-13',
    'D1-2.4-14',
    'D1-2.1-01',
    'D1-2.1-02',
    'D1-2.1-03',
  ],
  errors: { empty: 'D1-7-10', format: 'D1-7-11', content: 'D1-7-09' },
  path: () => ({}),
  cardinality: {
    resourceType: 'PaymentReconciliation',
    exactlyOne: ['processedDate', 'totalInvoiced', 'totalInvoices', 'isExported'],
    atMostOne: [
      'paymentMethod',
      'sortCode',
      'accountNumber',
      'amountDue',
      'broughtForwarded',
      'carriedForwarded',
      'totalShortfall',
    ],
    requirements: ['D1-2.4-08', 'D1-2.4-10', 'D1-2.4-11', 'D1-2.4-12', 'D1-2.4-13', 'D1-2.4-14'],
  },
  entryRules: [
    {
      description: 'a # requestor or paymentIssuer names the contained provider or insurer',
      predicate: localReferencesResolve,
      level: 'SHOULD',
      requirements: ['D1-2.4-04'],
      decisions: ['DEC-D1-52'],
    },
    {
      description: 'sortCode and accountNumber present when the method is BACS',
      level: 'SHOULD',
      requirements: ['D1-2.4-09'],
      decisions: ['DEC-D1-50'],
      predicate: (r) =>
        isBacs(r) ? extension(r, 'sortCode') !== undefined && extension(r, 'accountNumber') !== undefined : undefined,
    },
  ],
};

const detail: Surface = {
  id: 'search-remittance-detail',
  filters: detailFilters,
  sortKey: detailSortKey,
  reqOf: {
    invoiceNumber: 'D1-4.5-03',
    patientName: 'D1-4.5-04',
    membershipNumber: 'D1-4.5-05',
    invoiceDate: 'D1-4.5-06',
    hospitalNumber: 'D1-4.5-07',
    insurerBillNumber: 'D1-4.5-08',
    invoiceTotal: 'D1-4.5-09',
    hasShortFall: 'D1-4.5-10',
    _since: 'D1-4.5-13',
  },
  sortReq: 'D1-4.5-11',
  // 4.5: "Always available: ... `_since`, `page`, `count`": the detail search pages as the summary search does.
  pagingReqs: ['D1-4.5-13'],
  schemaReqs: [
    'D1-4.5-14',
    'D1-2.5-01',
    'D1-2.5-02',
    'D1-2.5-03',
    'D1-2.5-04',
    'D1-2.5-05',
    'D1-2.5-08',
    'D1-2.5-09',
    'D1-2.5-10',
    'D1-2.1-01',
    'D1-2.1-02',
    'D1-2.1-03',
  ],
  errors: { empty: 'D1-7-14', format: 'D1-7-15', content: 'D1-7-13' },
  cardinality: {
    resourceType: 'ClaimResponse',
    exactlyOne: ['invoiceNumber', 'invoiceDate', 'invoiceTotal', 'paidAmount', 'dateCompleted', 'createdOn'],
    atMostOne: ['previousPaidAmount', 'shortAmount', 'collectionService'],
    requirements: ['D1-2.5-04', 'D1-2.5-05', 'D1-2.5-08', 'D1-2.5-09'],
  },
  entryRules: [
    {
      description: 'shortAmount = invoiceTotal - previousPaidAmount - paidAmount',
      predicate: shortAmountAddsUp,
      level: 'SHOULD',
      requirements: ['D1-2.5-06'],
      decisions: ['DEC-D1-53'],
    },
    {
      description:
        'each shortfall reason has liabilityType, an adjudication category code, reason.text and amount.value',
      predicate: shortfallReasonsComplete,
      level: 'MUST',
      requirements: ['D1-2.5-07'],
      decisions: [],
    },
  ],
  path: () => {
    const s = runContext().fixtures.remittance?.summaryId;
    return s ? { remittance_summary_id: s } : undefined;
  },
};

/** Every code of the operation's error table (section 7 ties none to a trigger, DEC-D1-24). */
const documentedCodes = (s: Surface): string[] => operation(s.id).errors.map((e) => e.code);

function param(s: Surface, name: string): Parameter {
  const p = operation(s.id).parameters.find((pp) => pp.name === name);
  if (!p) throw new Error(`Suite bug: ${s.id} has no parameter ${name}`);
  return p;
}

/** Filters the run may use: documented for the operation and with the features configured. */
function usableFilters(s: Surface): FilterDef[] {
  return Object.values(s.filters).filter((f) => hasFeatures(param(s, f.param).features ?? []));
}

/** A sample of records (first page of 50) to draw filter values from. */
async function sample(s: Surface, path: Record<string, string>): Promise<{ x: Exchange; records: Resource[] }> {
  const x = await call(s.id, { path, form: { page: '1', count: '50' } });
  return { x, records: hasResponse(x) && x.response.status === 200 ? bundleResources(bodyOf(x)) : [] };
}

function filterJudgements(s: Surface, x: Exchange, filters: Record<string, string>): Judgement[] {
  return Object.entries(filters).map(([name, value]) =>
    judge(
      x,
      entriesMatchFilter(`${name}=${value}`, (r) => s.filters[name].matches(r, value)),
      { requirements: [s.reqOf[name]] },
    ),
  );
}

/** Values of the detail-only summary filters that no record holds (negative probes, DEC-D1-69). */
const UNKNOWN: Readonly<Record<string, string>> = {
  invoiceNumber: 'NO-SUCH-INVOICE-0000',
  patientName: 'Zzyzxquorble',
  membershipNumber: 'NO-SUCH-MEMBER-0000',
};

function suiteFor(s: Surface): void {
  describeOperation(s.id, () => {
    const path = () => s.path();
    const missingPath = () =>
      on(s.id).must('D1-4.5-02').decided(FIXTURE_CONFIGURED, 'skip', 'No fixture remittance.summaryId in the config');

    test('an unfiltered search returns a bundle of the documented resources', async () => {
      const p = path();
      if (!p) return missingPath();
      const x = await call(s.id, { path: p, form: { page: '1', count: '10' } });
      verifySuccess(
        x,
        s.id,
        { success: [s.schemaReqs[0], 'D1-1-03'], schema: s.schemaReqs },
        { status: 200, decisions: ['DEC-D1-07', 'DEC-D1-12'] },
      );
      // Summaries are PaymentReconciliation and details ClaimResponse resources (1, 4.4, 4.5): judged on its own,
      // so that a bundle of the other resource is named as such whatever else the schema finds.
      if (hasResponse(x) && x.response.status >= 200 && x.response.status < 300) {
        const type = s.cardinality.resourceType;
        on(s.id)
          .must(s.schemaReqs[0], 'D1-1-03')
          .check(
            x,
            entriesMatchFilter(`resourceType ${type}`, (r) => r.resourceType === type),
          );
      }
    });

    test('every record keeps the section 2 rules no schema expresses', async () => {
      const p = path();
      if (!p) return missingPath();
      const x = await call(s.id, { path: p, form: { page: '1', count: '50' } });
      if (!verifySuccess(x, s.id, { success: [s.schemaReqs[0]] }, { status: 200 })) return;
      for (const rule of s.entryRules) {
        on(s.id)
          .at(rule.level, ...rule.requirements)
          .under(...rule.decisions)
          .check(x, entriesMatchFilter(rule.description, rule.predicate));
      }
      const { requirements, ...rule } = s.cardinality;
      on(s.id)
        .must(...requirements)
        .check(x, entryExtensionCardinality(rule));
      // Only 2.4 states an extension URL form ({clearing_ext_url}/<name>); 2.5 states none.
      if (s.cardinality.resourceType === 'PaymentReconciliation')
        on(s.id).must('D1-2.4-07').check(x, summaryExtensionUrls);
    });

    test('paging: tags as text echo the request, bounded pages do not overlap, the total is consistent', async () => {
      const p = path();
      if (!p) return missingPath();
      // Up to 20 pages (DEC-R-06's walk limit): a walk that ends lets the total judge a page that skips a
      // record (DEC-D1-12: the total equals "the distinct entries collected over all pages").
      const walk = await walkPages(s.id, { path: p }, 4, 20);
      verifyPaging(s.id, walk, 4, {
        tags: ['D1-2.1-04', 'D1-2.1-06'],
        match: ['D1-2.1-07', ...s.pagingReqs],
        bounds: ['D1-2.1-08', ...s.pagingReqs],
        total: ['D1-2.1-09', 'D1-2.1-02'],
      });
    });

    test('each visible filter keeps only matching records', async () => {
      const p = path();
      if (!p) return missingPath();
      const { x: sampleX, records } = await sample(s, p);
      if (!verifySuccess(sampleX, s.id, { success: [s.schemaReqs[0]] }, { status: 200 })) {
        // A Boolean filter takes `true` whatever the records hold: it is still asked, so that an answer
        // other than the success is named by the filter's row too.
        for (const f of usableFilters(s).filter((ff) => param(s, ff.param).format === 'boolean')) {
          const x = await call(s.id, { path: p, form: { [f.param]: 'true', count: '50' } });
          verifySuccess(x, s.id, { success: [s.reqOf[f.param]] }, { status: 200 });
        }
        return;
      }
      for (const f of Object.values(s.filters)) {
        const features = param(s, f.param).features ?? [];
        if (!hasFeatures(features)) {
          on(s.id)
            .must(s.reqOf[f.param])
            .under('DEC-D1-15')
            .decided(
              FEATURE_AVAILABLE,
              'skip',
              `The filter ${f.param} needs ${features.join(' and ')}, which the config does not list`,
            );
          continue;
        }
        // A value taken from a returned record, preferably one another sampled record does not match:
        // `ge` of the smallest amount, say, keeps every record and would not show that the filter restricts.
        const candidates = records.flatMap((r) => f.valuesFrom(r));
        const value = candidates.find((v) => records.some((r) => f.matches(r, v) === false)) ?? candidates[0];
        if (value === undefined) {
          // `_since` is judged only where records show their last update (DEC-D1-27): its absence is recorded, not
          // a missing fixture.
          const since = f.param === '_since';
          const j = since ? on(s.id).info(s.reqOf[f.param]).under('DEC-D1-27') : on(s.id).must(s.reqOf[f.param]);
          j.decided(FIXTURE_CONFIGURED, 'skip', `No returned record shows a value for ${f.param}`);
          continue;
        }
        const x = await call(s.id, { path: p, form: { [f.param]: value, count: '50' } });
        if (!verifySuccess(x, s.id, { success: [s.reqOf[f.param]] }, { status: 200 })) continue;
        on(s.id)
          .must(s.reqOf[f.param])
          .under('DEC-D1-25', 'DEC-D1-26', 'DEC-D1-27', 'DEC-D1-70', 'DEC-D1-71', 'DEC-D1-72')
          .check(
            x,
            entriesMatchFilter(`${f.param}=${value}`, (r) => f.matches(r, value)),
          );
        on(s.id)
          .must(s.reqOf[f.param])
          .check(x, bundleHasEntries(1), { note: 'the value was taken from a returned record, which must match it' });
      }
    });

    test('_sort createdOn and -createdOn order the records', async () => {
      const p = path();
      if (!p) return missingPath();
      for (const [sort, direction] of [
        ['createdOn', 'asc'],
        ['-createdOn', 'desc'],
      ] as const) {
        const x = await call(s.id, { path: p, form: { _sort: sort, count: '50' } });
        if (!verifySuccess(x, s.id, { success: [s.sortReq] }, { status: 200 })) continue;
        on(s.id)
          .must(s.sortReq)
          .under('DEC-D1-04')
          .check(x, entriesSorted('createdOn', s.sortKey, direction));
        // The sort is over the whole result, not per page (DEC-R-06): every page read as one sequence.
        const pages = await wholeResult(s.id, { path: p, form: { _sort: sort } }, [s.sortReq]);
        if (pages)
          on(s.id)
            .must(s.sortReq)
            .under('DEC-D1-04', 'DEC-R-06')
            .with({ exchange: pages[pages.length - 1] })
            .check({ pages }, entriesSortedOverPages('createdOn', s.sortKey, direction));
      }
    });

    test('property: generated filter combinations, sort and paging are honoured', async () => {
      const p = path();
      if (!p) return missingPath();
      const { records } = await sample(s, p);
      await on(s.id)
        .must(s.sortReq, 'D1-2.1-07', 'D1-2.1-08')
        .under('DEC-D1-12', 'DEC-D1-70', 'DEC-D1-71', 'DEC-D1-72')
        .property({
          // Searches: no case changes what another is answered (sent ahead, judged in order).
          independent: true,
          // The filters this property judges, of their documented forms, values of returned records mixed in.
          arbitrary: filterSearches(operation(s.id), usableFilters(s), records, {
            features: runContext().features,
            sort: true,
          }),
          exercise: async (q) => {
            const x = await call(s.id, {
              path: p,
              form: {
                ...q.filters,
                ...(q.sort ? { _sort: q.sort } : {}),
                page: String(q.page),
                count: String(q.count),
              },
            });
            const judgements = [judge(x, successStatus(200))];
            if (!hasResponse(x) || x.response.status !== 200) return judgements;
            judgements.push(...filterJudgements(s, x, q.filters));
            judgements.push(
              judge(x, pageWithinCount(q.count)),
              judge(x, pagingTagsMatchRequest({ page: q.page, count: q.count })),
            );
            if (q.sort)
              judgements.push(
                judge(x, entriesSorted('createdOn', s.sortKey, q.sort.startsWith('-') ? 'desc' : 'asc'), {
                  requirements: [s.sortReq],
                }),
              );
            return judgements;
          },
        });
    });

    test('filters whose values are not shown on the record give subsets of the unfiltered result', async () => {
      if (s.id !== 'search-remittance-summary') return;
      const names = ['invoiceNumber', 'patientName', 'membershipNumber'].filter((n) =>
        hasFeatures(param(s, n).features ?? []),
      );
      if (names.length === 0) {
        on(s.id)
          .must('D1-4.4-05')
          .under('DEC-D1-15')
          .decided(
            FEATURE_AVAILABLE,
            'skip',
            'invoiceNumber, patientName and membershipNumber need Advanced_Search_1_0',
          );
        return;
      }
      const all = await collectIds(s.id, {});
      const summaryId = runContext().fixtures.remittance?.summaryId;
      const details =
        summaryId && runContext().addresses['search-remittance-detail']
          ? bundleResources(
              bodyOf(
                await call('search-remittance-detail', {
                  path: { remittance_summary_id: summaryId },
                  form: { count: '1' },
                }),
              ),
            )
          : [];
      const d = details[0];
      const values: Record<string, string | undefined> = d
        ? {
            invoiceNumber: detailFilters.invoiceNumber.valuesFrom(d)[0],
            patientName: detailFilters.patientName.valuesFrom(d)[0],
            membershipNumber: detailFilters.membershipNumber.valuesFrom(d)[0],
          }
        : {};
      for (const n of names) {
        const value = values[n];
        if (!value) {
          on(s.id)
            .must(s.reqOf[n])
            .decided(FIXTURE_CONFIGURED, 'skip', `No value for ${n} (needs remittance.summaryId with a detail)`);
          continue;
        }
        const x = await call(s.id, { form: { [n]: value, count: '50' } });
        if (!verifySuccess(x, s.id, { success: [s.reqOf[n]] }, { status: 200 })) continue;
        if (!hasResponse(x)) continue;
        // A server may answer an unfiltered search with a default window: the subset relation is recorded only.
        if (all)
          on(s.id)
            .info(s.reqOf[n])
            .under('DEC-D1-69')
            .with({ exchange: x })
            .check({ filtered: x, all }, filteredSubset);
        on(s.id)
          .info(s.reqOf[n])
          .under('DEC-D1-69')
          .check(
            x,
            entriesMatchFilter(`id=${summaryId}`, (r) => (r.id === summaryId ? true : undefined)),
          );
        on(s.id)
          .must(s.reqOf[n])
          .check(x, bundleHasEntries(1), { note: `${n} was taken from a detail of summary ${summaryId}` });
        const none = await call(s.id, { form: { [n]: UNKNOWN[n], count: '50' } });
        if (!verifySuccess(none, s.id, { success: [s.reqOf[n]] }, { status: 200 })) continue;
        on(s.id)
          .must(s.reqOf[n])
          .under('DEC-D1-69')
          .check(none, filterExcludesAll(`${n}=${UNKNOWN[n]}`));
      }
    });

    test('invalid values are refused with the documented status and code', async () => {
      const p = path();
      if (!p) return missingPath();
      const usable = operation(s.id).parameters.filter((pp) => pp.in === 'form' && hasFeatures(pp.features ?? []));
      const reqFor = { empty: s.errors.empty, format: s.errors.format, content: s.errors.content } as const;
      /** The row of each invalid kind: a value out of range is a value of the wrong form here (D1 4.4, 4.5). */
      const KIND_ROW = { empty: 'empty', format: 'format', range: 'format', enum: 'content' } as const;
      for (const probe of [
        {
          parameter: usable.find((pp) => pp.format === 'date-range')?.name,
          value: 'not-a-range',
          code: 'MSG_INVALID_FORMAT',
          kind: 'format',
        },
        {
          parameter: usable.find((pp) => pp.format === 'comparator-decimal')?.name,
          value: 'gt100',
          code: 'MSG_INVALID_FORMAT',
          kind: 'format',
        },
        { parameter: 'count', value: '', code: 'MSG_PARAM_EMPTY', kind: 'empty' },
        {
          parameter: usable.find((pp) => pp.format === 'string')?.name,
          value: '',
          code: 'MSG_PARAM_EMPTY',
          kind: 'empty',
        },
        {
          parameter: usable.find((pp) => pp.format === 'enum' && pp.name !== '_sort')?.name,
          value: 'zzz',
          code: 'MSG_PARAM_INVALID',
          kind: 'content',
        },
      ] as const) {
        if (!probe.parameter) continue;
        const x = await call(s.id, { path: p, form: { [probe.parameter]: probe.value } });
        // Section 7 ties no code to a trigger: any code of the table at its status passes (DEC-D1-24).
        verifyError(x, s.id, documentedCodes(s), [reqFor[probe.kind], 'D1-7-16', 'D1-7-17'], {
          shapeLevel: 'SHOULD',
          shapeRequirements: ['D1-7-18'],
          decisions: ['DEC-D1-14', 'DEC-D1-24'],
        });
        on(s.id)
          .info(reqFor[probe.kind])
          .under('DEC-D1-24')
          .check(x, errorStatusAndCode(operation(s.id).errors.filter((e) => e.code === probe.code)), {
            parameter: probe.parameter,
            value: probe.value,
          });
      }
      await on(s.id)
        .must(s.errors.empty, s.errors.format, s.errors.content, 'D1-7-16')
        .under('DEC-D1-24')
        .property({
          // Searches: no case changes what another is answered (sent ahead, judged in order).
          independent: true,
          // Every invalid family of the derivation (generators/requestArbitrary.ts), the summary id kept valid.
          arbitrary: fc.oneof(
            ...invalidRequests(operation(s.id), { features: runContext().features })
              .filter((f) => f.parameter !== 'remittance_summary_id' && f.kind in KIND_ROW && hasFeatures(f.features))
              .map((f) => f.arbitrary),
          ),
          exercise: async (v) => {
            const x = await call(s.id, { path: p, form: v.request.form });
            const row = reqFor[KIND_ROW[v.kind as keyof typeof KIND_ROW]];
            return [judge(x, invalidRequestAnswered(v.allowed), { requirements: [row, 'D1-7-16'] })];
          },
        });
    });

    test('required headers are enforced', async () => {
      const p = path();
      if (!p) return missingPath();
      await verifyHeadersEnforced(s.id, { path: p, form: { count: '1' } }, (h) =>
        h === 'SU-SiteId' ? ['D1-5-02', 'D1-1-08'] : h === 'Authorization' ? ['D1-5-01'] : ['D1-4-02'],
      );
    });
  });
}

suiteFor(summary);
suiteFor(detail);

describeOperation('search-remittance-detail', () => {
  test('an unknown summary id is refused', async () => {
    const x = await call('search-remittance-detail', {
      path: { remittance_summary_id: 'no-such-summary-00000' },
      form: {},
    });
    // Refusing the unknown id and answering "nothing matches" both conform (DEC-D1-28): a success must then be empty.
    const succeeded = hasResponse(x) && x.response.status >= 200 && x.response.status < 300;
    on('search-remittance-detail')
      .must('D1-4.5-02')
      .under('DEC-D1-28')
      .check(x, succeeded ? filterExcludesAll('remittance_summary_id=no-such-summary-00000') : requestRefused);
  });
});

describeOperation('search-remittance-summary', () => {
  test('a date range whose start is after its end is recorded', async () => {
    const id = 'search-remittance-summary';
    if (!hasFeatures(param(summary, 'dateCreated').features ?? [])) {
      on(id)
        .info('D1-4.4-08')
        .under('DEC-D1-15', 'DEC-D1-71')
        .decided(
          FEATURE_AVAILABLE,
          'skip',
          'dateCreated needs Advanced_Search_1_0 and Advanced_Filtering_And_Sorting_1_0',
        );
      return;
    }
    // An empty result and a refusal both conform (DEC-D1-71); which one is recorded, a server error is not expected.
    const x = await call(id, { form: { dateCreated: '2026-12-31_2026-01-01', count: '10' } });
    on(id).info('D1-4.4-08').under('DEC-D1-71').check(x, successStatus(200));
    on(id).info('D1-4.4-08').under('DEC-D1-71').check(x, notServerError);
  });

  test('the example names paymentReference and providerName are recorded', async () => {
    const id = 'search-remittance-summary';
    const { records } = await sample(summary, {});
    const ref = records.flatMap((r) => summaryFilters.insurerPaymentReference.valuesFrom(r))[0];
    if (ref && hasFeatures(param(summary, 'insurerPaymentReference').features ?? [])) {
      const x = await call(id, { form: { paymentReference: ref, count: '50' } });
      on(id)
        .info('D1-4.4-13')
        .under('DEC-D1-01')
        .check(
          x,
          entriesMatchFilter(`paymentReference=${ref}`, (r) => summaryFilters.insurerPaymentReference.matches(r, ref)),
        );
    }
    const sorted = await call(id, { form: { _sort: 'providerName', count: '10' } });
    on(id).info('D1-4.4-17').under('DEC-D1-04').check(sorted, successStatus(200));
  });
});

describeDerivedRequests({
  'search-remittance-summary': {},
  'search-remittance-detail': async () => ({
    fixtures: { remittance_summary_id: runContext().fixtures.remittance?.summaryId ?? [] },
  }),
});
