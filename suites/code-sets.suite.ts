/**
 * Master code sets (Document 2, 2.2, 4.1, 8): every set name with and without scheme, the
 * specialty narrowing by profession, page sizes 1 to 1,000, `expansion.total`/`offset` across
 * pages, incremental sync.
 */
import { on } from '../core/suite.ts';
import { test } from 'vitest';
import {
  codeKey,
  codeSetPageSizeBounded,
  codesSubset,
  mediaTypeIs,
  notServerError,
  pagingTagsMatchRequest,
  pagingTagsPresent,
  requestRefused,
  successStatus,
  valueSetItemsMatch,
  valueSetPageWithinCount,
  valueSetPagingConsistent,
} from '../checks/index.ts';
import { bodyOf, hasResponse, isRecord } from '../core/exchange.ts';
import { call, describeOperation } from '../core/suite.ts';
import { CODE_SET_NAMES } from '../spec/operationsD2.ts';
import { extension, timeOf } from './common/readers.ts';
import { describeDerivedRequests } from './common/derivedRequests.ts';
import { valueSetItems, verifySuccess, walkPages } from './common/steps.ts';

const ID = 'get-code-set';
const R = {
  shape: ['D2-4.1-15', 'D2-2.2-01', 'D2-2.2-02', 'D2-2.2-04', 'D2-2.2-05', 'D2-2.2-06', 'D2-1-09', 'D2-1-01'],
  names: ['D2-4.1-01', 'D2-4.1-02', 'D2-2.2-15', 'D2-2.2-16', 'D2-2.2-17', 'D2-1-01'],
  optionalPaging: ['D2-4.1-06'],
  one: ['D2-4.1-07'],
  thousand: ['D2-4.1-08', 'D2-8-01'],
  zero: ['D2-4.1-09', 'D2-8-01'],
  over: ['D2-4.1-10', 'D2-8-01'],
  unknownSet: ['D2-4.1-14'],
  narrowing: ['D2-4.1-03', 'D2-4.1-04'],
  paging: { tags: ['D2-2.1-08'], match: ['D2-2.1-09'], bounds: ['D2-2.1-10'], offset: ['D2-2.2-03'] },
  sync: ['D2-4.1-12'],
  auth: ['D2-5-01'],
  media: ['D2-1-10'],
  /** 4: a GET with query parameters, path parameters after the discovered address (DEC-D2-02). */
  getWithQuery: ['D2-4-03'],
  /** 7: no operation-specific errors; nothing matching is an empty result set. */
  emptyNotError: ['D2-7-01'],
};
const SCHEMES: [string, string, string][] = [
  ['service-category', 'ISC', 'D2-2.2-09'],
  ['service-type', 'ISC', 'D2-2.2-10'],
  ['procedure-code', 'CCSD', 'D2-2.2-11'],
  ['condition-code', 'ICD10', 'D2-2.2-13'],
  ['condition-code', 'ICD9', 'D2-2.2-14'],
];

/** All codes of a set (pages of 1,000), or undefined when the walk could not finish. */
async function allCodes(path: Record<string, string>): Promise<Set<string> | undefined> {
  const walk = await walkPages(ID, { path }, 1000, 10, valueSetItems);
  if (walk.broken || !walk.complete) return undefined;
  return new Set(
    walk.pages.flatMap((x) =>
      valueSetItems(bodyOf(x))
        .map(codeKey)
        .filter((k): k is string => k !== undefined),
    ),
  );
}

describeOperation(ID, () => {
  test('every set name is served as a ValueSet, with and without a scheme', async () => {
    for (const name of CODE_SET_NAMES) {
      const x = await call(ID, { path: { set_name: name }, query: { count: '50' } });
      if (
        verifySuccess(
          x,
          ID,
          { success: [...R.names, ...R.getWithQuery], schema: R.shape },
          { status: 200, decisions: ['DEC-D2-02'] },
        )
      ) {
        on(ID)
          .should(...R.media)
          .under('DEC-D2-26')
          .check(x, mediaTypeIs('application/fhir+json'));
      }
    }
    for (const [name, scheme, req] of SCHEMES) {
      const x = await call(ID, { path: { set_name: name, scheme }, query: { count: '50' } });
      if (
        !verifySuccess(
          x,
          ID,
          { success: [req], schema: R.shape },
          { status: 200, decisions: ['DEC-D2-02', 'DEC-D2-40'] },
        )
      )
        continue;
      on(ID)
        .info('D2-2.2-08')
        .under('DEC-D2-39')
        .check(
          x,
          valueSetItemsMatch(`system names the scheme ${scheme}`, (item) =>
            typeof item.system === 'string' ? item.system.toUpperCase().includes(scheme) : undefined,
          ),
        );
    }
  });

  test('pages of a code set: offset and total agree, no overlap, tags echo the request', async () => {
    const count = 7;
    const walk = await walkPages(
      ID,
      { path: { set_name: 'condition-code', scheme: 'ICD10' } },
      count,
      20,
      valueSetItems,
    );
    if (walk.broken) return void verifySuccess(walk.broken, ID, { success: R.paging.match }, { status: 200 });
    walk.pages.forEach((x, i) => {
      on(ID)
        .must(...R.paging.tags)
        .check(x, pagingTagsPresent(['page', 'count', 'maxCount']));
      on(ID)
        .must(...R.paging.match)
        .check(x, pagingTagsMatchRequest({ page: i + 1, count }));
      on(ID)
        .must(...R.paging.bounds)
        .check(x, valueSetPageWithinCount(count));
    });
    const last = walk.pages[walk.pages.length - 1];
    if (last)
      on(ID)
        .must(...R.paging.offset, ...R.paging.bounds)
        .under('DEC-D2-04')
        .with({ exchange: last })
        .check({ pages: walk.pages, count, complete: walk.complete }, valueSetPagingConsistent);
  });

  test('page size 1 to 1,000: both served, 0 and 1,001 refused or clamped, none optional', async () => {
    const plain = await call(ID, { path: { set_name: 'condition-code' } });
    verifySuccess(plain, ID, { success: R.optionalPaging, schema: R.shape }, { status: 200 });
    let setSize: number | undefined;
    for (const [count, reqs] of [
      [1, R.one],
      [1000, R.thousand],
    ] as const) {
      const ok = await call(ID, { path: { set_name: 'condition-code' }, query: { count: String(count) } });
      if (verifySuccess(ok, ID, { success: reqs, schema: R.shape }, { status: 200, decisions: ['DEC-D2-03'] })) {
        on(ID)
          .must(...reqs)
          .check(ok, valueSetPageWithinCount(count));
        if (count === 1000) setSize = valueSetItems(bodyOf(ok)).length;
      }
    }
    // Section 7 gives code sets no operation-specific error: a refusal and a page clamped into
    // 1 to 1,000 both conform (DEC-D2-03); which one is recorded.
    for (const [count, reqs] of [
      ['0', R.zero],
      ['1001', R.over],
    ] as const) {
      const x = await call(ID, { path: { set_name: 'condition-code' }, query: { count } });
      on(ID)
        .must(...reqs)
        .under('DEC-D2-03')
        .check(x, codeSetPageSizeBounded(count, setSize), { count });
      on(ID)
        .info(...reqs)
        .under('DEC-D2-03')
        .check(x, requestRefused, { count, note: 'refused or clamped: which one is recorded' });
    }
  });

  test('an unknown set name is not a server error', async () => {
    const x = await call(ID, { path: { set_name: 'no-such-set' } });
    on(ID)
      .must(...R.unknownSet)
      .under('DEC-D2-41')
      .check(x, notServerError);
  });

  on(ID).test(
    'specialties narrowed by profession belong to it',
    { fixtures: ['codeSets.profession'], cites: [...R.narrowing] },
    async ([profession]) => {
      const all = await allCodes({ set_name: 'practitioner-specialty' });
      const x = await call(ID, {
        path: { set_name: 'practitioner-specialty', scheme: profession },
        query: { count: '1000' },
      });
      if (!verifySuccess(x, ID, { success: R.narrowing, schema: R.shape }, { status: 200, decisions: ['DEC-D2-06'] }))
        return;
      if (all && hasResponse(x))
        on(ID)
          .must(...R.narrowing)
          .under('DEC-D2-06')
          .with({ exchange: x })
          .check({ narrowed: x, all }, codesSubset);
      on(ID)
        .must(...R.narrowing)
        .under('DEC-D2-06')
        .check(
          x,
          valueSetItemsMatch(`profession = ${profession}`, (item) => {
            const e = extension(item, 'practitioner-role');
            return e && typeof e.valueString === 'string' ? e.valueString === profession : undefined;
          }),
        );
    },
  );

  test('incremental sync: _since keeps codes updated at or after it', async () => {
    const since = '2025-06-01T00:00:00Z';
    const x = await call(ID, { path: { set_name: 'condition-code' }, query: { _since: since, count: '1000' } });
    // The document does not name the sync parameter (DEC-D2-05): everything here is recorded.
    if (
      on(ID)
        .info(...R.sync)
        .under('DEC-D2-05')
        .check(x, successStatus(200)).status !== 'pass'
    )
      return;
    on(ID)
      .info(...R.sync)
      .under('DEC-D2-05')
      .check(
        x,
        valueSetItemsMatch(`lastUpdated >= ${since}`, (item) => {
          const entry = Array.isArray(item.extension)
            ? item.extension.find(
                (e) => isRecord(e) && (e.id === 'lastUpdated' || String(e.url ?? '').endsWith('lastUpdated')),
              )
            : undefined;
          const t = isRecord(entry) ? timeOf(entry.valueDateTime) : undefined;
          return t === undefined ? undefined : t >= Date.parse(since);
        }),
        { note: 'the document does not name the incremental-sync parameter; _since is an assumption' },
      );
  });

  test('when nothing matches the answer is an empty set, not an error', async () => {
    const since = '2999-01-01T00:00:00Z';
    const x = await call(ID, { path: { set_name: 'condition-code' }, query: { _since: since, count: '50' } });
    if (
      on(ID)
        .info(...R.emptyNotError)
        .under('DEC-D2-05')
        .check(x, successStatus(200)).status !== 'pass'
    )
      return;
    on(ID)
      .info(...R.emptyNotError)
      .under('DEC-D2-05')
      .check(x, valueSetPageWithinCount(0), {
        _since: since,
        note: 'no code can be updated after this date, where _since is the sync parameter (not named by the document)',
      });
  });

  test('a request without a token is refused', async () => {
    const x = await call(ID, { path: { set_name: 'service-category' }, omitHeaders: ['Authorization'] });
    on(ID)
      .must(...R.auth)
      .check(x, requestRefused);
  });
});

describeDerivedRequests({ [ID]: { fixtures: { set_name: CODE_SET_NAMES } } });
