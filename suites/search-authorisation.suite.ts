/**
 * Search Authorisation (Document 1, 4.3, 3): a paged bundle of pre-authorisation Claims. The
 * Claim fields are not shown (DEC-D1-22) and what a search without filters returns is not shown
 * (a target may apply a default window), so filters are judged without the unfiltered answer
 * (DEC-D1-74): each returned Claim against the filter where its value is visible, negative probes
 * (a value no record has gives an empty bundle), and the configured authorisation found by each of
 * its codes and not under another insurer. Subset relations to the unfiltered answer are recorded.
 */
import { on } from '../core/suite.ts';
import { PRECONDITION } from '../core/decidedOutcomes.ts';
import { test } from 'vitest';
import {
  bundleHasEntries,
  entriesMatchFilter,
  filterExcludesAll,
  filteredSubset,
  pageWithinCount,
  pagingTagsMatchRequest,
  requestRefused,
  resultsDisjoint,
  sortOrdersReverse,
  successStatus,
} from '../checks/index.ts';
import { hasResponse } from '../core/exchange.ts';
import { judge } from '../core/property.ts';
import { call, describeOperation, runContext } from '../core/suite.ts';
import { operation } from '../spec/operations.ts';
import { validRequest } from '../generators/requestArbitrary.ts';
import { describeDerivedRequests, fixturesFrom } from './common/derivedRequests.ts';
import { extensionValue, lastUpdated, timeOf } from './common/readers.ts';
import { authorisationSortKey } from './common/sortKeys.ts';
import {
  collectIds,
  verifyHeadersEnforced,
  verifyPaging,
  verifySuccess,
  walkPages,
  wholeResult,
} from './common/steps.ts';

const ID = 'search-authorisation';
const schemaReqs = ['D1-4.3-15', 'D1-1-02', 'D1-2.1-01', 'D1-2.1-02', 'D1-2.1-03'];
const valuesOf = (name: string) => operation(ID).parameters.find((p) => p.name === name)?.values ?? [];
const FILTER_DECISIONS = ['DEC-D1-45', 'DEC-D1-74'];

type Rec = Record<string, unknown>;

const fold = (v: unknown): string | undefined => (typeof v === 'string' ? v.trim().toLowerCase() : undefined);

/** The record's value of a filter field where the Claim shows it: an extension named as the field (DEC-D1-74). */
const shown = (r: Rec, field: string): string | undefined => {
  const v = extensionValue(r, field);
  return typeof v === 'string' ? v : undefined;
};

/** `YYYY-MM-DDTHH:MM_YYYY-MM-DDTHH:MM` or one value (that minute), inclusive, compared as written (DEC-D1-23). */
function inRange(value: string | undefined, range: string): boolean | undefined {
  if (value === undefined || !/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const [start, end = start] = range.split('_');
  const v = value.length >= 16 ? value.slice(0, 16) : value.slice(0, 10);
  return start.slice(0, v.length) <= v && v <= end.slice(0, v.length);
}

/** Where each filter's value is visible in a returned Claim; undefined: not visible, not judged. */
const VISIBLE: Readonly<Record<string, (r: Rec, v: string) => boolean | undefined>> = {
  insurerIdentifier: (r, v) =>
    shown(r, 'insurerIdentifier') === undefined ? undefined : fold(shown(r, 'insurerIdentifier')) === fold(v),
  caseCode: (r, v) => (shown(r, 'caseCode') === undefined ? undefined : fold(shown(r, 'caseCode')) === fold(v)),
  authCode: (r, v) => (shown(r, 'authCode') === undefined ? undefined : fold(shown(r, 'authCode')) === fold(v)),
  membershipNumber: (r, v) =>
    shown(r, 'membershipNumber') === undefined ? undefined : fold(shown(r, 'membershipNumber')) === fold(v),
  status: (r, v) => (shown(r, 'status') === undefined ? undefined : fold(shown(r, 'status')) === fold(v)),
  preAuthStatus: (r, v) =>
    fold(v) === 'all' || shown(r, 'preAuthStatus') === undefined
      ? undefined
      : fold(shown(r, 'preAuthStatus')) === fold(v),
  actionStatus: (r, v) =>
    shown(r, 'actionStatus') === undefined ? undefined : fold(shown(r, 'actionStatus')) === fold(v),
  issueDate: (r, v) => inRange(shown(r, 'issueDate'), v),
  requestedDate: (r, v) => inRange(shown(r, 'requestedDate'), v),
  lastUpdatedOn: (r, v) => inRange(shown(r, 'lastUpdatedOn') ?? lastUpdated(r), v),
};

/** Every returned Claim honours each filter of the form, where visible. */
const matchesForm = (form: Record<string, string | undefined>) => {
  const used = Object.entries(form).filter(
    (kv): kv is [string, string] => kv[1] !== undefined && VISIBLE[kv[0]] !== undefined,
  );
  return entriesMatchFilter(
    used.map(([k, v]) => `${k}=${v}`).join(' & ') || 'no filter',
    (r) => {
      const verdicts = used.map(([k, v]) => VISIBLE[k](r, v));
      if (verdicts.some((x) => x === false)) return false;
      return verdicts.some((x) => x === true) ? true : undefined;
    },
    { resourceType: 'Claim' },
  );
};

const unknownValue = (field: string) => `NO-SUCH-${field.toUpperCase()}-${runContext().seed}`;

describeOperation(ID, () => {
  test('a search without fields returns a bundle of pre-authorisation Claims', async () => {
    const x = await call(ID, { form: { count: '10' } });
    if (
      !verifySuccess(x, ID, { success: ['D1-4.3-02'], schema: schemaReqs }, { status: 200, decisions: ['DEC-D1-22'] })
    )
      return;
    on(ID)
      .must('D1-4.3-15', 'D1-1-02')
      .check(
        x,
        entriesMatchFilter('use = preauthorization', (r) => r.use === 'preauthorization', { resourceType: 'Claim' }),
      );
  });

  test('paging: tags as text echo the request, bounded pages do not overlap, the total is consistent', async () => {
    const walk = await walkPages(ID, {}, 5, 8);
    verifyPaging(ID, walk, 5, {
      tags: ['D1-2.1-04', 'D1-2.1-06'],
      match: ['D1-2.1-07', 'D1-4.3-14'],
      bounds: ['D1-2.1-08', 'D1-4.3-14'],
      total: ['D1-2.1-09'],
    });
  });

  const needs = { fixtures: ['authorisation.authCode'], cites: ['D1-4.3-04'] } as const;
  on(ID).test(
    'the authorisation is found by each code, not under another insurer or with a crossed code',
    needs,
    async () => {
      const fx = runContext().fixtures.authorisation ?? {};
      const all = await collectIds(ID, {});
      for (const [field, value, req] of [
        ['authCode', fx.authCode, 'D1-4.3-04'],
        ['caseCode', fx.caseCode, 'D1-4.3-04'],
        ['membershipNumber', fx.membershipNumber, 'D1-4.3-05'],
      ] as const) {
        if (!value) continue;
        const form = { [field]: value, count: '50' };
        const x = await call(ID, { form });
        if (!verifySuccess(x, ID, { success: [req] }, { status: 200 })) continue;
        on(ID)
          .must(req)
          .under(...FILTER_DECISIONS)
          .check(x, bundleHasEntries(1), { [field]: value });
        on(ID)
          .must(req)
          .under(...FILTER_DECISIONS)
          .check(x, matchesForm(form));
        if (all && hasResponse(x))
          on(ID)
            .info(req)
            .under(...FILTER_DECISIONS)
            .with({ exchange: x })
            .check({ filtered: x, all }, filteredSubset);
      }
      const insurer = fx.insurerIdentifier;
      if (insurer) {
        const own = await call(ID, { form: { authCode: fx.authCode, insurerIdentifier: insurer, count: '50' } });
        if (verifySuccess(own, ID, { success: ['D1-4.3-03'] }, { status: 200 })) {
          on(ID)
            .must('D1-4.3-03', 'D1-4.3-04')
            .under(...FILTER_DECISIONS)
            .check(own, bundleHasEntries(1), { authCode: fx.authCode, insurerIdentifier: insurer });
        }
        const other = valuesOf('insurerIdentifier').find((i) => i !== insurer);
        if (other) {
          const probe = `authCode=${fx.authCode} & insurerIdentifier=${other}`;
          const x = await call(ID, { form: { authCode: fx.authCode, insurerIdentifier: other, count: '50' } });
          if (verifySuccess(x, ID, { success: ['D1-4.3-03'] }, { status: 200 }))
            on(ID)
              .must('D1-4.3-03', 'D1-4.3-15')
              .under(...FILTER_DECISIONS)
              .check(x, filterExcludesAll(probe));
        }
      }
      if (fx.caseCode) {
        const probe = `authCode=${fx.authCode} & caseCode=${unknownValue('caseCode')}`;
        const x = await call(ID, { form: { authCode: fx.authCode, caseCode: unknownValue('caseCode'), count: '50' } });
        if (verifySuccess(x, ID, { success: ['D1-4.3-04'] }, { status: 200 }))
          on(ID)
            .must('D1-4.3-04', 'D1-4.3-15')
            .under(...FILTER_DECISIONS)
            .check(x, filterExcludesAll(probe));
      }
    },
  );

  test('negative probes: a value no record has gives an empty bundle', async () => {
    const probes: [string, string, string[]][] = [
      ['authCode', unknownValue('authCode'), ['D1-4.3-04']],
      ['caseCode', unknownValue('caseCode'), ['D1-4.3-04']],
      ['membershipNumber', unknownValue('membershipNumber'), ['D1-4.3-05']],
      ['issueDate', '1901-01-01T00:00_1901-01-31T23:59', ['D1-4.3-10']],
      ['requestedDate', '1901-01-01T00:00_1901-01-31T23:59', ['D1-4.3-10']],
      ['lastUpdatedOn', '1901-01-01T00:00_1901-01-31T23:59', ['D1-4.3-10']],
      ['_since', '2999-01-01T00:00:00Z', ['D1-4.3-13']],
    ];
    for (const [field, value, req] of probes) {
      const x = await call(ID, { form: { [field]: value, count: '50' } });
      if (!verifySuccess(x, ID, { success: req }, { status: 200 })) continue;
      on(ID)
        .must(...req, 'D1-4.3-15')
        .under(...FILTER_DECISIONS, 'DEC-D1-23')
        .check(x, filterExcludesAll(`${field}=${value}`));
    }
  });

  test('each documented filter value: every returned Claim matches it where the value is visible', async () => {
    const all = await collectIds(ID, {});
    const probes: [string, string, string[]][] = [
      ...valuesOf('insurerIdentifier').map((v): [string, string, string[]] => ['insurerIdentifier', v, ['D1-4.3-03']]),
      ...valuesOf('preAuthStatus').map((v): [string, string, string[]] => [
        'preAuthStatus',
        v,
        ['D1-4.3-08', 'D1-3-09'],
      ]),
      ...valuesOf('actionStatus').map((v): [string, string, string[]] => ['actionStatus', v, ['D1-4.3-09', 'D1-3-10']]),
      ['issueDate', '2025-01-01T00:00_2025-12-31T23:59', ['D1-4.3-10']],
      ['requestedDate', '2025-06-01T00:00_2026-05-31T23:59', ['D1-4.3-10']],
      ['lastUpdatedOn', '2026-01-01T00:00_2026-12-31T23:59', ['D1-4.3-10']],
    ];
    for (const [field, value, req] of probes) {
      const form = { [field]: value, count: '50' };
      const x = await call(ID, { form });
      if (!verifySuccess(x, ID, { success: req }, { status: 200 })) continue;
      on(ID)
        .must(...req)
        .under(...FILTER_DECISIONS, 'DEC-D1-23')
        .check(x, matchesForm(form));
      if (all && hasResponse(x))
        on(ID)
          .info(...req)
          .under(...FILTER_DECISIONS)
          .with({ exchange: x })
          .check({ filtered: x, all }, filteredSubset);
    }
  });

  test('preAuthStatus All includes every record of each single status', async () => {
    const everything = await collectIds(ID, { form: { preAuthStatus: 'All' } });
    if (!everything)
      return on(ID)
        .must('D1-4.3-08')
        .decided(PRECONDITION, 'skip', 'The preAuthStatus=All result could not be collected over its pages');
    for (const status of valuesOf('preAuthStatus').filter((v) => v !== 'All')) {
      const x = await call(ID, { form: { preAuthStatus: status, count: '50' } });
      if (!verifySuccess(x, ID, { success: ['D1-4.3-08'] }, { status: 200 }) || !hasResponse(x)) continue;
      on(ID)
        .must('D1-4.3-08')
        .under('DEC-D1-67')
        .with({ exchange: x })
        .check({ filtered: x, all: everything }, filteredSubset, { preAuthStatus: status });
    }
  });

  test('status read and unread: recorded when refused; results match where visible and are disjoint', async () => {
    const sets: Set<string>[] = [];
    for (const value of ['read', 'unread']) {
      const form = { status: value, count: '50' };
      const x = await call(ID, { form });
      const ok = on(ID).info('D1-3-11').under('DEC-D1-39').check(x, successStatus(200), { status: value });
      if (ok.status !== 'pass') continue;
      on(ID)
        .must('D1-4.3-06')
        .under('DEC-D1-39', ...FILTER_DECISIONS)
        .check(x, matchesForm(form));
      const ids = await collectIds(ID, { form: { status: value } });
      if (ids) sets.push(ids);
    }
    if (sets.length < 2)
      return on(ID)
        .should('D1-4.3-07')
        .decided(
          PRECONDITION,
          'skip',
          'The read or unread search was refused (recorded, DEC-D1-39) or could not be collected over its pages',
        );
    on(ID)
      .should('D1-4.3-07')
      .under('DEC-D1-39')
      .check({ labels: ['status=read', 'status=unread'], sets: [sets[0], sets[1]] }, resultsDisjoint);
  });

  test('_since keeps records updated at or after it, where visible', async () => {
    const since = '2026-01-01T00:00:00Z';
    const x = await call(ID, { form: { _since: since, count: '50' } });
    if (!verifySuccess(x, ID, { success: ['D1-4.3-13'] }, { status: 200 })) return;
    on(ID)
      .must('D1-4.3-13')
      .under('DEC-D1-27')
      .check(
        x,
        entriesMatchFilter(`lastUpdated >= ${since}`, (r) => {
          const t = timeOf(lastUpdated(r));
          return t === undefined ? undefined : t >= Date.parse(since);
        }),
      );
  });

  test('_sort issueDate and -issueDate give reverse orders of the same records', async () => {
    // Every page of each order: a server may serve fewer records per page than asked (DEC-R-06).
    const asc = await wholeResult(ID, { form: { _sort: 'issueDate' } }, ['D1-4.3-11']);
    const desc = await wholeResult(ID, { form: { _sort: '-issueDate' } }, ['D1-4.3-11']);
    if (!asc || !desc) return;
    on(ID)
      .should('D1-4.3-12')
      .under('DEC-D1-22', 'DEC-R-06')
      .with({ exchange: desc[desc.length - 1] })
      .check(
        {
          ascending: asc,
          descending: desc,
          tieKey: authorisationSortKey,
        },
        sortOrdersReverse,
      );
  });

  test('property: generated filter combinations and paging are honoured', async () => {
    const configured = runContext().fixtures.authorisation;
    await on(ID)
      .must('D1-4.3-03', 'D1-4.3-08', 'D1-4.3-09', 'D1-2.1-07', 'D1-2.1-08')
      .under(...FILTER_DECISIONS)
      .property({
        // Searches: no case changes what another is answered (sent ahead, judged in order).
        independent: true,
        // The filters this property judges, of their documented forms, the configured values mixed in.
        arbitrary: validRequest(operation(ID), {
          optional: [...Object.keys(VISIBLE), 'page', 'count'],
          fixtures: fixturesFrom(configured),
        }).map((r) => r.form),
        exercise: async (form) => {
          const page = Number(form.page ?? '1');
          const count = Number(form.count ?? '20');
          const f = Object.fromEntries(Object.entries(form).filter(([k]) => k !== 'page' && k !== 'count'));
          const x = await call(ID, { form: { ...form, page: String(page), count: String(count) } });
          // The values of `status` are not listed in 4.3: a target that refuses them is recorded, not
          // failed (DEC-D1-39); whatever it serves is judged as every other answer.
          const refusedStatus =
            form.status !== undefined && hasResponse(x) && x.response.status >= 400 && x.response.status < 500;
          const judgements = [
            refusedStatus
              ? judge(x, successStatus(200), { level: 'INFO', requirements: ['D1-3-11'] })
              : judge(x, successStatus(200)),
          ];
          if (!hasResponse(x) || x.response.status !== 200) return judgements;
          judgements.push(
            judge(x, pageWithinCount(count)),
            judge(x, pagingTagsMatchRequest({ page, count })),
            judge(x, matchesForm(f)),
          );
          return judgements;
        },
      });
  });

  test('required headers are enforced', async () => {
    await verifyHeadersEnforced(ID, { form: { count: '1' } }, (h) =>
      h === 'SU-SiteId'
        ? ['D1-5-02', 'D1-1-08', 'D1-4.3-01']
        : h === 'Authorization'
          ? ['D1-5-01', 'D1-4.3-01']
          : ['D1-4-02', 'D1-4.3-01'],
    );
    // The form Content-Type is listed, but a request without it is never said to be refused (DEC-D1-73).
    const x = await call(ID, { form: { count: '1' }, omitHeaders: ['Content-Type'] });
    on(ID).info('D1-4-02').under('DEC-D1-73').check(x, requestRefused, { omittedHeader: 'Content-Type' });
  });
});

describeDerivedRequests({ [ID]: { fixtures: fixturesFrom(runContext().fixtures.authorisation) } });
