/**
 * Search Authorisation (Document 1, 4.3, 3): a paged bundle of pre-authorisation Claims. The
 * Claim fields are not shown (DEC-D1-22), so filters are judged by set relations: a filtered
 * result is a subset of the unfiltered one, and a configured authorisation is found by its codes.
 */
import { test } from 'vitest';
import { fc } from '@fast-check/vitest';
import { bundleHasEntries, entriesMatchFilter, filteredSubset, pageWithinCount, pagingTagsMatchRequest, sortOrdersReverse, successStatus } from '../checks/index.ts';
import { hasResponse } from '../core/exchange.ts';
import { judge, verifyProperty } from '../core/property.ts';
import { call, describeOperation, record, runContext, verify } from '../core/suite.ts';
import { operation } from '../spec/operations.ts';
import { extensionValue, lastUpdated, timeOf } from './common/readers.ts';
import { FIXTURE_CHECK, collectIds, verifyHeadersEnforced, verifyPaging, verifySuccess, walkPages } from './common/steps.ts';

const ID = 'search-authorisation';
const schemaReqs = ['D1-4.3-15', 'D1-1-02', 'D1-2.1-01', 'D1-2.1-02', 'D1-2.1-03'];
const valuesOf = (name: string) => operation(ID).parameters.find((p) => p.name === name)?.values ?? [];

describeOperation(ID, () => {
  test('a search without fields returns a bundle of pre-authorisation Claims', async () => {
    const x = await call(ID, { form: { count: '10' } });
    if (!verifySuccess(x, ID, { success: ['D1-4.3-02'], schema: schemaReqs }, { status: 200, decisions: ['DEC-D1-22'] })) return;
    verify(x, entriesMatchFilter('use = preauthorization', (r) => r.use === 'preauthorization', { resourceType: 'Claim' }), { operation: ID, level: 'MUST', requirements: ['D1-4.3-15', 'D1-1-02'] });
  });

  test('paging: tags as text that echo the request, bounded pages that do not overlap, a consistent total', async () => {
    const walk = await walkPages(ID, {}, 5, 8);
    verifyPaging(ID, walk, 5, { tags: ['D1-2.1-04', 'D1-2.1-06'], match: ['D1-2.1-07', 'D1-4.3-14'], bounds: ['D1-2.1-08', 'D1-4.3-14'], total: ['D1-2.1-09'] });
  });

  test('the configured authorisation is found by authCode, caseCode and membershipNumber', async () => {
    const fx = runContext().fixtures.authorisation;
    if (!fx?.authCode) return record(FIXTURE_CHECK, 'skip', 'No fixture authorisation.authCode in the config', { operation: ID, level: 'MUST', requirements: ['D1-4.3-04'] });
    const all = await collectIds(ID, {});
    for (const [field, value, req] of [['authCode', fx.authCode, 'D1-4.3-04'], ['caseCode', fx.caseCode, 'D1-4.3-04'], ['membershipNumber', fx.membershipNumber, 'D1-4.3-05']] as const) {
      if (!value) continue;
      const x = await call(ID, { form: { [field]: value, count: '50' } });
      if (!verifySuccess(x, ID, { success: [req] }, { status: 200 })) continue;
      verify(x, bundleHasEntries(1), { operation: ID, level: 'MUST', requirements: [req], evidence: { [field]: value } });
      if (all && hasResponse(x)) verify({ filtered: x, all }, filteredSubset, { operation: ID, level: 'MUST', requirements: [req], exchange: x, decisions: ['DEC-D1-45'] });
    }
  });

  test('each documented filter value gives a subset of the unfiltered result', async () => {
    const all = await collectIds(ID, {});
    if (!all) return record({ id: 'precondition', summary: 'The unfiltered result could be collected' }, 'error', 'The unfiltered result could not be collected over its pages', { operation: ID, level: 'MUST', requirements: ['D1-4.3-03'] });
    const probes: [string, string, string[]][] = [
      ...valuesOf('insurerIdentifier').map((v): [string, string, string[]] => ['insurerIdentifier', v, ['D1-4.3-03']]),
      ...valuesOf('preAuthStatus').map((v): [string, string, string[]] => ['preAuthStatus', v, ['D1-4.3-08', 'D1-3-09']]),
      ...valuesOf('actionStatus').map((v): [string, string, string[]] => ['actionStatus', v, ['D1-4.3-09', 'D1-3-10']]),
      ...valuesOf('status').map((v): [string, string, string[]] => ['status', v, ['D1-4.3-06']]),
      ['issueDate', '2025-01-01T00:00_2026-12-31T23:59', ['D1-4.3-10']],
      ['requestedDate', '2025-01-01T00:00_2026-12-31T23:59', ['D1-4.3-10']],
      ['lastUpdatedOn', '2025-01-01T00:00_2026-12-31T23:59', ['D1-4.3-10']],
    ];
    for (const [field, value, req] of probes) {
      const x = await call(ID, { form: { [field]: value, count: '50' } });
      if (!verifySuccess(x, ID, { success: req }, { status: 200 })) continue;
      if (!hasResponse(x)) continue;
      verify({ filtered: x, all }, filteredSubset, { operation: ID, level: 'MUST', requirements: req, exchange: x, decisions: ['DEC-D1-23', 'DEC-D1-39', 'DEC-D1-45'] });
    }
  });

  test('the status read and unread results do not share a record', async () => {
    const read = await collectIds(ID, { form: { status: 'read' } });
    const unread = await collectIds(ID, { form: { status: 'unread' } });
    if (!read || !unread) return record({ id: 'precondition', summary: 'The filtered results could be collected' }, 'skip', 'The read or unread result could not be collected over its pages', { operation: ID, level: 'SHOULD', requirements: ['D1-4.3-07'] });
    const shared = [...read].filter((k) => unread.has(k));
    record({ id: 'results-disjoint', summary: 'The read and unread results share no record' }, shared.length === 0 ? 'pass' : 'fail',
      shared.length === 0 ? `${read.size} read and ${unread.size} unread, none shared` : `Expected no record in both the read and unread results, received ${shared.length} (${shared.slice(0, 3).join(', ')})`,
      { operation: ID, level: 'SHOULD', requirements: ['D1-4.3-07'], decisions: ['DEC-D1-39'] });
  });

  test('_since keeps records updated at or after it, where visible', async () => {
    const since = '2026-01-01T00:00:00Z';
    const x = await call(ID, { form: { _since: since, count: '50' } });
    if (!verifySuccess(x, ID, { success: ['D1-4.3-13'] }, { status: 200 })) return;
    verify(x, entriesMatchFilter(`lastUpdated >= ${since}`, (r) => {
      const t = timeOf(lastUpdated(r));
      return t === undefined ? undefined : t >= Date.parse(since);
    }), { operation: ID, level: 'MUST', requirements: ['D1-4.3-13'], decisions: ['DEC-D1-27'] });
  });

  test('_sort issueDate and -issueDate give reverse orders of the same records', async () => {
    const asc = await call(ID, { form: { _sort: 'issueDate', count: '50' } });
    const desc = await call(ID, { form: { _sort: '-issueDate', count: '50' } });
    const okAsc = verifySuccess(asc, ID, { success: ['D1-4.3-11'] }, { status: 200 });
    const okDesc = verifySuccess(desc, ID, { success: ['D1-4.3-11'] }, { status: 200 });
    if (!okAsc || !okDesc || !hasResponse(asc) || !hasResponse(desc)) return;
    verify({ ascending: asc, descending: desc, tieKey: (r: Record<string, unknown>) => (typeof r.created === 'string' ? r.created : undefined) }, sortOrdersReverse, { operation: ID, level: 'SHOULD', requirements: ['D1-4.3-12'], exchange: desc, decisions: ['DEC-D1-22'] });
  });

  test('property: generated filter combinations and paging are honoured', async () => {
    const all = await collectIds(ID, {});
    const filter = fc.record({
      insurerIdentifier: fc.option(fc.constantFrom(...valuesOf('insurerIdentifier')), { nil: undefined }),
      preAuthStatus: fc.option(fc.constantFrom(...valuesOf('preAuthStatus')), { nil: undefined }),
      actionStatus: fc.option(fc.constantFrom(...valuesOf('actionStatus')), { nil: undefined }),
      status: fc.option(fc.constantFrom(...valuesOf('status')), { nil: undefined }),
    });
    await verifyProperty({
      operation: ID,
      level: 'MUST',
      requirements: ['D1-4.3-03', 'D1-4.3-08', 'D1-4.3-09', 'D1-2.1-07', 'D1-2.1-08'],
      decisions: ['DEC-D1-45'],
      arbitrary: fc.record({ filter, page: fc.integer({ min: 1, max: 3 }), count: fc.integer({ min: 1, max: 20 }) }),
      exercise: async ({ filter: f, page, count }) => {
        const x = await call(ID, { form: { ...f, page: String(page), count: String(count) } });
        const judgements = [judge(x, successStatus(200))];
        if (!hasResponse(x) || x.response.status !== 200) return judgements;
        judgements.push(judge(x, pageWithinCount(count)), judge(x, pagingTagsMatchRequest({ page, count })));
        if (all) judgements.push(judge({ filtered: x, all }, filteredSubset, { exchange: x }));
        // The sandbox and many targets show the insurer as an extension; judged only where visible.
        if (f.insurerIdentifier) judgements.push(judge(x, entriesMatchFilter(`insurerIdentifier=${f.insurerIdentifier}`, (r) => {
          const v = extensionValue(r, 'insurerIdentifier');
          return typeof v === 'string' ? v === f.insurerIdentifier : undefined;
        }), { level: 'INFO' }));
        return judgements;
      },
    });
  });

  test('required headers are enforced', async () => {
    await verifyHeadersEnforced(ID, { form: { count: '1' } }, (h) => (h === 'SU-SiteId' ? ['D1-5-02', 'D1-1-08'] : h === 'Authorization' ? ['D1-5-01'] : ['D1-4-02', 'D1-4.3-01']));
  });
});
