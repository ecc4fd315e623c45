/**
 * Hospital claims list and search (Document 1, 2.7, 4.9, 4.10, 7): Encounter and Claim entries,
 * the `dateCompleted` filter, the four required search parameters, empty bundles.
 */
import { on } from '../core/suite.ts';
import { FIXTURE_CONFIGURED } from '../core/decidedOutcomes.ts';
import { test } from 'vitest';
import {
  bundleHasEntries,
  encounterLinksClaim,
  entriesMatchFilter,
  notServerError,
  requestRefused,
} from '../checks/index.ts';
import { bodyOf, bundleResources, isRecord } from '../core/exchange.ts';
import { call, describeOperation, runContext } from '../core/suite.ts';
import { containsText } from './common/readers.ts';
import { verifySuccess } from './common/steps.ts';
import { describeDerivedRequests, fixturesFrom } from './common/derivedRequests.ts';

const LIST = 'list-hospital-claims';
const SEARCH = 'search-hospital-claims';
const schemaReqs = ['D1-2.7-01', 'D1-2.7-02', 'D1-2.7-03', 'D1-2.7-05', 'D1-2.7-06'];

const servicedOn = (day: string) => (r: Record<string, unknown>) => {
  const items = Array.isArray(r.item) ? r.item.filter(isRecord) : [];
  const dates = items.map((i) => i.servicedDate).filter((d): d is string => typeof d === 'string');
  return dates.length === 0 ? undefined : dates.some((d) => d.slice(0, 10) === day);
};

describeOperation(LIST, () => {
  test('the list without a date is a bundle of Encounter and Claim entries', async () => {
    const x = await call(LIST);
    if (
      !verifySuccess(
        x,
        LIST,
        { success: ['D1-4.9-02', 'D1-4.9-04'], schema: schemaReqs },
        { status: 200, decisions: ['DEC-D1-65'] },
      )
    )
      return;
    // The fullUrl form (MUST) is in the schema; the links it names are SHOULD (DEC-D1-65).
    on(LIST).should('D1-2.7-04').under('DEC-D1-65').check(x, encounterLinksClaim);
  });

  test('dateCompleted keeps the claims rendered that day', async () => {
    const day =
      runContext().fixtures.hospitalClaims?.dateCompleted ??
      bundleResources(bodyOf(await call(LIST)))
        .flatMap((r) => (Array.isArray(r.item) ? r.item : []))
        .map((i) => (isRecord(i) ? i.servicedDate : undefined))
        .find((d): d is string => typeof d === 'string')
        ?.slice(0, 10);
    if (!day)
      return on(LIST)
        .must('D1-4.9-03')
        .decided(
          FIXTURE_CONFIGURED,
          'skip',
          'No fixture hospitalClaims.dateCompleted and no claim shows a servicedDate',
        );
    const x = await call(LIST, { query: { dateCompleted: day } });
    if (!verifySuccess(x, LIST, { success: ['D1-4.9-03'], schema: schemaReqs }, { status: 200 })) return;
    on(LIST)
      .must('D1-4.9-03')
      .under('DEC-D1-29')
      .check(x, entriesMatchFilter(`servicedDate = ${day}`, servicedOn(day), { resourceType: 'Claim' }));
    on(LIST).must('D1-4.9-03').check(x, bundleHasEntries(1), { dateCompleted: day });
    on(LIST).should('D1-2.7-04').under('DEC-D1-65').check(x, encounterLinksClaim);
  });

  test('a day without claims gives an empty bundle, not an error', async () => {
    const x = await call(LIST, { query: { dateCompleted: '1901-01-01' } });
    verifySuccess(x, LIST, { success: ['D1-4.9-04', 'D1-7-22'], schema: schemaReqs }, { status: 200 });
  });

  test('a request without a token is refused', async () => {
    const x = await call(LIST, { omitHeaders: ['Authorization'] });
    on(LIST).must('D1-5-04').under('DEC-D1-21').check(x, requestRefused);
  });
});

describeOperation(SEARCH, () => {
  const fx = () => runContext().fixtures.hospitalClaims?.search;
  const missing = () =>
    on(SEARCH).must('D1-4.10-04').decided(FIXTURE_CONFIGURED, 'skip', 'No fixture hospitalClaims.search in the config');

  test('a search with the four parameters returns the matching claims', async () => {
    const s = fx();
    if (!s) return missing();
    const x = await call(SEARCH, { query: s });
    if (!verifySuccess(x, SEARCH, { success: ['D1-4.10-04'], schema: [...schemaReqs, 'D1-4.10-06'] }, { status: 200 }))
      return;
    on(SEARCH).must('D1-4.10-04').check(x, bundleHasEntries(1), { search: s });
    on(SEARCH)
      .must('D1-4.10-04')
      .under('DEC-D1-29')
      .check(
        x,
        entriesMatchFilter(`servicedDate = ${s.dateCompleted}`, servicedOn(s.dateCompleted), { resourceType: 'Claim' }),
      );
    on(SEARCH)
      .must('D1-4.10-04')
      .under('DEC-D1-29')
      .check(
        x,
        entriesMatchFilter(
          `patient.display contains ${s.patientLastName}`,
          (r) => containsText(isRecord(r.patient) ? r.patient.display : undefined, s.patientLastName),
          { resourceType: 'Claim' },
        ),
      );
    on(SEARCH).should('D1-2.7-04').under('DEC-D1-65').check(x, encounterLinksClaim);
  });

  test('each of the four parameters is required', async () => {
    const s = fx();
    if (!s) return missing();
    for (const name of Object.keys(s)) {
      const x = await call(SEARCH, { query: { ...s, [name]: undefined } });
      on(SEARCH).must('D1-4.10-02').under('DEC-D1-13').check(x, requestRefused, { missing: name });
    }
  });

  test('nothing matching gives an empty bundle; a malformed date is not a server error', async () => {
    const s = fx();
    if (!s) return missing();
    const none = await call(SEARCH, { query: { ...s, patientLastName: 'Nobodyxyzzy' } });
    verifySuccess(none, SEARCH, { success: ['D1-4.10-06', 'D1-7-22'], schema: schemaReqs }, { status: 200 });
    // The answer to a malformed date is not shown (DEC-D1-62): a lenient reading and a refusal both pass; it is
    // recorded.
    const bad = await call(SEARCH, { query: { ...s, dateCompleted: '14/03/2026' } });
    on(SEARCH).info('D1-4.10-03').under('DEC-D1-62').check(bad, notServerError);
    on(SEARCH).info('D1-4.10-03', 'D1-7-23').under('DEC-D1-62').check(bad, requestRefused);
  });
});

describeDerivedRequests({
  [LIST]: { fixtures: fixturesFrom(runContext().fixtures.hospitalClaims) },
  [SEARCH]: { fixtures: fixturesFrom(runContext().fixtures.hospitalClaims?.search) },
});
