/**
 * Practitioner and location lookups, the insurer list and insurer control parameters
 * (Document 2, 2.3, 4.2-4.5, 7): paging tags, `type` filters, the four control parameters, and
 * HTTP 400 when the search text is absent.
 */
import { on } from '../core/suite.ts';
import { FIXTURE_CONFIGURED, PRECONDITION } from '../core/decidedOutcomes.ts';
import { test } from 'vitest';
import {
  controlParametersComplete,
  controlParametersForInsurer,
  entriesMatchFilter,
  extensionsPresent,
  filteredComplete,
  filteredSubset,
  membersPresent,
  mediaTypeIs,
  notServerError,
  requestRefused,
  resourceKey,
  statusIs,
  successStatus,
} from '../checks/index.ts';
import { bodyOf, bundleResources, hasResponse, isRecord } from '../core/exchange.ts';
import { call, describeOperation, runContext } from '../core/suite.ts';
import { extensionValue } from './common/readers.ts';
import { locationMatchesText, practitionerMatchesText } from './common/lookupText.ts';
import { collectIds, verifyPaging, verifySuccess, walkPages } from './common/steps.ts';
import { describeDerivedRequests, fixturesFrom } from './common/derivedRequests.ts';

/** A bearer token no server issued (D2 5, DEC-D2-61: refused like no token). */
const UNKNOWN_TOKEN = 'not-a-known-token-0000';
const paging = { tags: ['D2-2.1-08'], match: ['D2-2.1-09'], bounds: ['D2-2.1-10'], total: ['D2-2.1-11'] };
const R = {
  practitioners: {
    shape: [
      'D2-4.2-01',
      'D2-4.2-05',
      'D2-2.1-01',
      'D2-2.1-02',
      'D2-2.1-03',
      'D2-2.1-04',
      'D2-2.3-01',
      'D2-2.3-02',
      'D2-2.3-04',
      'D2-1-02',
      'D2-1-09',
    ],
    paging: ['D2-4.2-04'],
    text: ['D2-7-03'],
    matches: ['D2-4.2-02'],
    members: {
      paths: ['meta', 'extension[].url', 'extension[].valueCodeableConcept.coding', 'active', 'name', 'gender'],
      requirements: ['D2-2.3-05'],
    },
  },
  locations: {
    shape: [
      'D2-4.3-01',
      'D2-4.3-06',
      'D2-4.3-03',
      'D2-2.1-01',
      'D2-2.1-02',
      'D2-2.1-03',
      'D2-2.1-04',
      'D2-2.3-06',
      'D2-2.3-07',
      'D2-1-02',
      'D2-1-09',
    ],
    paging: ['D2-4.3-05'],
    text: ['D2-7-04'],
    matches: ['D2-4.3-02'],
    members: { paths: ['meta', 'name', 'address.line', 'address.postalCode'], requirements: ['D2-2.3-08'] },
  },
  insurers: {
    shape: [
      'D2-4.4-01',
      'D2-2.3-09',
      'D2-2.3-10',
      'D2-2.3-11',
      'D2-2.3-12',
      'D2-2.3-13',
      'D2-2.3-14',
      'D2-2.1-01',
      'D2-1-03',
      'D2-1-09',
    ],
    edi: ['D2-4.4-02'],
    mii: ['D2-4.4-03'],
    all: ['D2-4.4-04'],
  },
  control: {
    shape: ['D2-4.5-01', 'D2-4.5-02', 'D2-2.3-17', 'D2-2.3-19', 'D2-1-03'],
    names: ['D2-2.3-20', 'D2-2.3-21', 'D2-2.3-22', 'D2-2.3-23'],
    unknown: ['D2-4.5-04'],
    missing: ['D2-4.5-05'],
  },
  auth: ['D2-5-01'],
  media: ['D2-1-10'],
};

function lookupSuite(
  id: 'lookup-practitioners' | 'lookup-locations',
  reqs: typeof R.practitioners,
  query: () => Record<string, string> | undefined,
): void {
  describeOperation(id, () => {
    test('a lookup returns a paged bundle of the documented resources', async () => {
      const q = query();
      if (!q)
        return on(id)
          .must(...reqs.shape)
          .decided(FIXTURE_CONFIGURED, 'skip', `No lookup text for ${id} in the config (fixtures.lookups)`);
      const x = await call(id, { query: { ...q, count: '10' } });
      if (
        verifySuccess(
          x,
          id,
          { success: [...reqs.shape, 'D2-4-03'], schema: reqs.shape },
          { status: 200, decisions: ['DEC-D2-07'] },
        )
      ) {
        on(id)
          .should(...R.media)
          .under('DEC-D2-26')
          .check(x, mediaTypeIs('application/fhir+json'));
        on(id)
          .should(...reqs.members.requirements)
          .under('DEC-D2-42')
          .check(x, membersPresent(reqs.members.paths.map((m) => `entry[].resource.${m}`)));
      }
      if (hasResponse(x)) {
        // No match rule is stated (DEC-D2-07): each word of the text, case and accents folded.
        const [what, matches] =
          id === 'lookup-practitioners'
            ? ['name', practitionerMatchesText]
            : ['name or address (postcode)', locationMatchesText];
        on(id)
          .must(...reqs.matches)
          .under('DEC-D2-07', 'DEC-R-11')
          .check(
            x,
            entriesMatchFilter(`${what} holds ${q.text}`, (r) => matches(r, q.text)),
          );
      }
      const walk = await walkPages(id, { query: q }, 2, 6);
      verifyPaging(id, walk, 2, {
        tags: [...paging.tags, ...reqs.paging],
        match: [...paging.match, ...reqs.paging],
        bounds: [...paging.bounds, ...reqs.paging],
        // DEC-D2-27's paging rules include a consistent total: a record no page holds breaks the paging row too.
        total: [...paging.total, ...reqs.paging],
      });
    });

    test('without the search text the answer is HTTP 400', async () => {
      const x = await call(id, { query: { count: '5' } });
      on(id)
        .must(...reqs.text)
        .under('DEC-D2-07', 'DEC-D2-31')
        .check(x, statusIs(400));
    });

    test('a request without a token is refused', async () => {
      const x = await call(id, { query: { ...query(), count: '1' }, omitHeaders: ['Authorization'] });
      on(id)
        .must(...R.auth)
        .check(x, requestRefused);
    });
  });
}

lookupSuite('lookup-practitioners', R.practitioners, () => {
  const t = runContext().fixtures.lookups?.practitionerText;
  return t ? { text: t } : undefined;
});
lookupSuite('lookup-locations', R.locations, () => {
  const l = runContext().fixtures.lookups;
  return l?.locationText ? { text: l.locationText, ...(l.locationType ? { type: l.locationType } : {}) } : undefined;
});

describeOperation('list-insurers', () => {
  const id = 'list-insurers';

  test('the insurer list and its type filters', async () => {
    const x = await call(id);
    if (!verifySuccess(x, id, { success: R.insurers.shape, schema: R.insurers.shape }, { status: 200 })) return;
    on(id)
      .should('D2-2.3-16')
      .under('DEC-D2-42')
      .check(x, extensionsPresent(['live', 'insurerType', 'edi', 'category', 'lastUpdated']));
    on(id)
      .should('D2-2.3-16')
      .under('DEC-D2-42')
      .check(x, membersPresent(['entry[].resource.type']));
    const all = await collectIds(id, { query: { type: 'all' } });
    const allResources = bundleResources(bodyOf(await call(id, { query: { type: 'all' } })));
    for (const [type, reqs, description, predicate] of [
      [
        'edi',
        R.insurers.edi,
        'edi = Yes',
        (r: Record<string, unknown>) => {
          const v = extensionValue(r, 'edi');
          return typeof v === 'string' ? v === 'Yes' : undefined;
        },
      ],
      [
        'mii',
        R.insurers.mii,
        'insurerType = MII',
        (r: Record<string, unknown>) => {
          const v = extensionValue(r, 'insurerType');
          return typeof v === 'string' ? v === 'MII' : undefined;
        },
      ],
    ] as const) {
      const f = await call(id, { query: { type } });
      if (!verifySuccess(f, id, { success: reqs, schema: R.insurers.shape }, { status: 200 })) continue;
      on(id)
        .must(...reqs)
        .under('DEC-D2-08')
        .check(f, entriesMatchFilter(description, predicate));
      if (all && hasResponse(f))
        on(id)
          .must(...reqs, ...R.insurers.all)
          .under('DEC-D2-08')
          .with({ exchange: f })
          .check({ filtered: f, all }, filteredSubset);
      if (hasResponse(f) && allResources.length > 0) {
        const expected = new Set(
          allResources
            .filter((r) => predicate(r) === true)
            .map(resourceKey)
            .filter((k): k is string => k !== undefined),
        );
        on(id)
          .should('D2-4.4-06')
          .under('DEC-D2-48')
          .with({ exchange: f })
          .check({ filtered: f, expected }, filteredComplete, { type });
      }
    }
    const everything = await call(id, { query: { type: 'all' } });
    verifySuccess(everything, id, { success: R.insurers.all, schema: R.insurers.shape }, { status: 200 });
  });

  test('a request without a token, or with an unknown one, is refused', async () => {
    const x = await call(id, { omitHeaders: ['Authorization'] });
    on(id)
      .must(...R.auth)
      .check(x, requestRefused);
    on(id)
      .must(...R.auth)
      .under('DEC-D2-61')
      .check(await call(id, { headers: { Authorization: `Bearer ${UNKNOWN_TOKEN}` } }), requestRefused, {
        token: 'unknown',
      });
  });
});

describeOperation('get-insurer-control-parameters', () => {
  const id = 'get-insurer-control-parameters';

  on(id).test(
    'an insurer has its four control parameters with allowed values',
    { fixtures: ['lookups.insurerId'], cites: [...R.control.names] },
    async ([insurerId]) => {
      const x = await call(id, { query: { insurerId } });
      verifySuccess(
        x,
        id,
        { success: R.control.shape, schema: R.control.shape },
        { status: 200, decisions: ['DEC-D2-09'] },
      );
      // Judged even when the schema failed: the specific rule names what is missing or wrong.
      if (!hasResponse(x) || x.response.status !== 200) return;
      on(id)
        .must(...R.control.names)
        .under('DEC-D2-10')
        .check(x, controlParametersComplete);
      on(id).must('D2-2.3-19').check(x, controlParametersForInsurer(insurerId), { insurerId });
      // The insurer list (4.4) names the code of this insurer id: identifier[] with `id` and `value`.
      const insurers = await call('list-insurers', { query: { type: 'all' } });
      const listed = bundleResources(bodyOf(insurers))
        .flatMap((r) => (Array.isArray(r.identifier) ? r.identifier : []))
        .find(
          (i): i is Record<string, unknown> =>
            isRecord(i) &&
            String(i.id) === insurerId &&
            typeof i.system === 'string' &&
            i.system.endsWith('/insurer-id'),
        );
      if (!listed || typeof listed.value !== 'string') {
        on(id)
          .must('D2-2.3-18')
          .decided(PRECONDITION, 'skip', `The insurer list holds no insurer-id identifier with id ${insurerId}`);
      } else {
        const code = listed.value;
        on(id)
          .must('D2-2.3-18')
          .check(
            x,
            entriesMatchFilter(`identifier[].value = ${code} (the code listed for insurer ${insurerId})`, (r) => {
              const values = (Array.isArray(r.identifier) ? r.identifier : []).filter(isRecord).map((i) => i.value);
              return values.length === 0 ? false : values.includes(code);
            }),
            { insurerId, listedCode: code },
          );
      }
    },
  );

  test('an unknown or missing insurer id is not a server error', async () => {
    const x = await call(id, { query: { insurerId: 'NO-SUCH-INSURER-000' } });
    on(id)
      .must(...R.control.unknown)
      .under('DEC-D2-09')
      .check(x, notServerError);
    on(id)
      .info(...R.control.unknown)
      .under('DEC-D2-09')
      .check(x, successStatus());
    on(id)
      .must(...R.control.missing)
      .under('DEC-D2-41')
      .check(await call(id, { query: {} }), notServerError);
  });

  test('a request without a token is refused', async () => {
    const x = await call(id, {
      query: { insurerId: runContext().fixtures.lookups?.insurerId ?? 'INS001' },
      omitHeaders: ['Authorization'],
    });
    on(id)
      .must(...R.auth)
      .check(x, requestRefused);
  });
});

describeDerivedRequests({
  'lookup-practitioners': { fixtures: fixturesFrom({ text: runContext().fixtures.lookups?.practitionerText }) },
  'lookup-locations': {
    fixtures: fixturesFrom({
      text: runContext().fixtures.lookups?.locationText,
      type: runContext().fixtures.lookups?.locationType,
    }),
  },
  'list-insurers': {},
  'get-insurer-control-parameters': { fixtures: fixturesFrom({ insurerId: runContext().fixtures.lookups?.insurerId }) },
});
