/**
 * Booking-side practitioner and practitioner-role get and search (Document 2, 2.3, 4.12, 4.13,
 * 7): one entry per get, unknown ids, filters, `_since` and its date format, paging.
 */
import type { OperationId } from '../spec/operations.ts';
import { on } from '../core/suite.ts';
import { FIXTURE_CONFIGURED, PRECONDITION } from '../core/decidedOutcomes.ts';
import { test } from 'vitest';
import {
  bundleHasEntries,
  entriesMatchFilter,
  filteredSubset,
  membersPresent,
  notServerError,
  pageWithinCount,
  requestRefused,
  singleEntryWithId,
  successStatus,
  unmatchedValueGivesNothing,
} from '../checks/index.ts';
import { bodyOf, bundleResources, hasResponse, isRecord } from '../core/exchange.ts';
import { judge } from '../core/property.ts';
import { call, describeOperation, runContext } from '../core/suite.ts';
import { operation } from '../spec/operations.ts';
import { type FilterDef, filterSearches } from './common/filterCandidates.ts';
import {
  bookingPractitionerFilters,
  roleFilters,
  updatedSince,
  verifyDocumentedRefusal,
} from './common/registerFilters.ts';
import { collectIds, verifyError, verifyPaging, verifySuccess, walkPages } from './common/steps.ts';
import { describeDerivedRequests, fixturesFrom } from './common/derivedRequests.ts';

const GET_P = 'get-booking-practitioner';
const SEARCH_P = 'search-booking-practitioners';
const GET_R = 'get-booking-practitioner-role';
const SEARCH_R = 'search-booking-practitioner-roles';
const paging = { tags: ['D2-2.1-08'], match: ['D2-2.1-09'], bounds: ['D2-2.1-10'], total: ['D2-2.1-11'] };
const R = {
  practitioner: {
    shape: [
      'D2-4.12-18',
      'D2-2.3-49',
      'D2-2.3-50',
      'D2-2.3-51',
      'D2-2.3-52',
      'D2-2.3-53',
      'D2-2.1-01',
      'D2-2.1-02',
      'D2-2.1-03',
      'D2-1-09',
    ],
    get: ['D2-4.12-01', 'D2-4.12-02'],
    unknown: ['D2-4.12-03'],
    search: ['D2-4.12-04'],
    since: ['D2-4.12-16'],
    paging: ['D2-4.12-17'],
    filter: {
      family: 'D2-4.12-05',
      given: 'D2-4.12-06',
      gender: 'D2-4.12-07',
      id: 'D2-4.12-08',
      site: 'D2-4.12-09',
      registeredno: 'D2-4.12-11',
    } as Record<string, string>,
    members: {
      paths: ['meta.lastUpdated', 'extension', 'identifier', 'active', 'name', 'gender'],
      requirements: ['D2-2.3-54'],
    },
  },
  role: {
    shape: ['D2-4.13-09', 'D2-2.3-55', 'D2-2.3-56', 'D2-2.3-57', 'D2-2.1-01', 'D2-2.1-02', 'D2-2.1-03', 'D2-1-09'],
    get: ['D2-4.13-01', 'D2-4.13-02'],
    unknown: ['D2-4.13-03'],
    search: ['D2-4.13-04'],
    since: ['D2-4.13-07'],
    paging: ['D2-4.13-08'],
    filter: { practitioner: 'D2-4.13-05', location: 'D2-4.13-06' } as Record<string, string>,
    members: {
      paths: [
        'id',
        'meta.lastUpdated',
        'identifier[].use',
        'identifier[].system',
        'identifier[].value',
        'active',
        'practitioner.reference',
        'practitioner.display',
        'location',
      ],
      requirements: ['D2-2.3-58'],
    },
  },
  notFound: ['D2-7-24', 'D2-7-28', 'D2-7-29'],
  dateFormat: ['D2-7-27', 'D2-7-28', 'D2-7-29'],
  errorShape: ['D2-7-30'],
  auth: ['D2-5-01'],
  /** Practitioner state (3): `active` is a Boolean. */
  active: ['D2-3-01'],
  /** Booking input errors (7, DEC-D2-30, DEC-D2-58). */
  invalidFormat: ['D2-7-21'],
  outsideList: ['D2-7-25'],
};

/** Booking Practitioner and PractitionerRole: the named members (DEC-D2-42) and a Boolean `active` (3). */
function verifyMembers(x: Awaited<ReturnType<typeof call>>, id: OperationId, reqs: typeof R.practitioner): void {
  on(id)
    .should(...reqs.members.requirements)
    .under('DEC-D2-42')
    .check(x, membersPresent(reqs.members.paths.map((m) => `entry[].resource.${m}`)));
  on(id)
    .must(...R.active)
    .check(
      x,
      entriesMatchFilter('active is true or false', (r) =>
        r.active === undefined ? undefined : typeof r.active === 'boolean',
      ),
    );
  if (reqs === R.role) {
    // booking_identifier is required by the schema; external_identifier should be present (DEC-D2-60).
    on(id)
      .should(...reqs.members.requirements)
      .under('DEC-D2-60')
      .check(
        x,
        entriesMatchFilter('an external_identifier identifier is present', (r) =>
          (Array.isArray(r.identifier) ? r.identifier : []).some(
            (i) =>
              isRecord(i) &&
              (i.id === 'external_identifier' ||
                (typeof i.system === 'string' && i.system.endsWith('/external_identifier'))),
          ),
        ),
      );
  }
}
const SINCE = '2026-01-01T00:00:00Z';

function getSuite(
  id: OperationId,
  reqs: typeof R.practitioner,
  fixtureId: () => string | undefined,
  pathName: string,
): void {
  describeOperation(id, () => {
    test('a get returns a bundle with exactly the requested record', async () => {
      const wanted = fixtureId();
      if (!wanted)
        return on(id)
          .must(...reqs.get)
          .decided(FIXTURE_CONFIGURED, 'skip', `No booking fixture id for ${id}`);
      const x = await call(id, { path: { [pathName]: wanted } });
      if (!verifySuccess(x, id, { success: reqs.get, schema: reqs.shape }, { status: 200 })) return;
      on(id)
        .must(...reqs.get)
        .under('DEC-D2-23')
        .check(x, singleEntryWithId(wanted));
      verifyMembers(x, id, reqs);
    });

    test('an unknown id is MSG_ENTITY_NOT_FOUND_IN_DATABASE with HTTP 404', async () => {
      const x = await call(id, { path: { [pathName]: 'NO-SUCH-RECORD-000' } });
      verifyError(x, id, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE', [...R.notFound, ...reqs.unknown], {
        shapeLevel: 'SHOULD',
        shapeRequirements: R.errorShape,
        decisions: ['DEC-D2-23', 'DEC-D2-24'],
      });
    });

    test('a request without a token is refused', async () => {
      on(id)
        .must(...R.auth)
        .check(
          await call(id, { path: { [pathName]: fixtureId() ?? 'x' }, omitHeaders: ['Authorization'] }),
          requestRefused,
        );
    });
  });
}

getSuite(GET_P, R.practitioner, () => runContext().fixtures.booking?.practitionerId, 'practitionerId');
getSuite(GET_R, R.role, () => runContext().fixtures.booking?.practitionerRoleId, 'practitionerRoleId');

function searchSuite(id: OperationId, reqs: typeof R.practitioner, filters: () => Record<string, FilterDef>): void {
  describeOperation(id, () => {
    test('a search returns a paged bundle', async () => {
      const x = await call(id, { query: { count: '10' } });
      if (verifySuccess(x, id, { success: reqs.search, schema: reqs.shape }, { status: 200 }))
        verifyMembers(x, id, reqs);
      // Up to 20 pages (DEC-R-06's walk limit), so that the walk ends and the total sees a skipped record.
      const walk = await walkPages(id, {}, 4, 20);
      verifyPaging(id, walk, 4, {
        tags: paging.tags,
        match: [...paging.match, ...reqs.paging],
        bounds: [...paging.bounds, ...reqs.paging],
        // DEC-D2-27's paging rules include a consistent total: a record no page holds breaks the paging row too.
        total: [...paging.total, ...reqs.paging],
      });
    });

    test('_since keeps records updated at or after it; a malformed _since gets a documented code', async () => {
      const x = await call(id, { query: { _since: SINCE, count: '50' } });
      if (verifySuccess(x, id, { success: reqs.since }, { status: 200 })) {
        on(id)
          .must(...reqs.since)
          .under('DEC-D2-22')
          .check(x, entriesMatchFilter(`lastUpdated >= ${SINCE}`, updatedSince(SINCE)));
      }
      const bad = await call(id, { query: { _since: 'yesterday' } });
      // 7 lists MSG_DATE_FORMAT but ties no code to a malformed _since: any documented code at its status (DEC-D2-22).
      verifyDocumentedRefusal(bad, id, 'MSG_DATE_FORMAT', [...R.dateFormat, ...reqs.since], {
        shapeRequirements: R.errorShape,
        decisions: ['DEC-D2-22'],
      });
    });

    test('property: generated filter combinations and paging are honoured', async () => {
      const sample = bundleResources(bodyOf(await call(id, { query: { count: '50' } })));
      const defs = filters();
      await on(id)
        .must(...Object.values(reqs.filter))
        .under('DEC-D2-21', 'DEC-D2-59', 'DEC-D2-60')
        .property({
          // Searches: no case changes what another is answered (sent ahead, judged in order).
          independent: true,
          // One or two filters of their documented forms, values of returned records mixed in.
          arbitrary: filterSearches(operation(id), Object.values(defs), sample, { maxFilters: 3 }),
          exercise: async (q) => {
            const x = await call(id, { query: { ...q.filters, page: String(q.page), count: String(q.count) } });
            return [
              judge(x, successStatus(200)),
              judge(x, pageWithinCount(q.count), { requirements: reqs.paging }),
              ...Object.entries(q.filters).map(([p, v]) =>
                judge(
                  x,
                  entriesMatchFilter(`${p}=${v}`, (r) => defs[p].matches(r, v)),
                  { requirements: [reqs.filter[p]] },
                ),
              ),
            ];
          },
        });
    });

    test('each visible filter finds the record its value came from', async () => {
      const sample = bundleResources(bodyOf(await call(id, { query: { count: '50' } })));
      for (const f of Object.values(filters())) {
        const value = sample.flatMap((r) => f.valuesFrom(r))[0];
        if (value === undefined) continue;
        const x = await call(id, { query: { [f.param]: value, count: '50' } });
        const req = [reqs.filter[f.param]];
        if (!verifySuccess(x, id, { success: req }, { status: 200 })) continue;
        on(id)
          .must(...req)
          .under('DEC-D2-59', 'DEC-D2-60')
          .check(
            x,
            entriesMatchFilter(`${f.param}=${value}`, (r) => f.matches(r, value)),
          );
        on(id)
          .must(...req)
          .check(x, bundleHasEntries(1));
      }
    });

    test('malformed and empty values and non-integer paging are refused with a documented code', async () => {
      // An empty value: the booking table names no emptiness (no MSG_PARAM_EMPTY) and no sentence makes
      // it the same as absent (DEC-R-03): refused with a documented code where refused, served at SHOULD.
      const empty = await call(id, { query: { [Object.keys(filters())[0]]: '' } });
      if (hasResponse(empty) && empty.response.status >= 200 && empty.response.status < 300)
        on(id)
          .should(...R.invalidFormat)
          .under('DEC-D2-30', 'DEC-R-03')
          .check(empty, requestRefused);
      else
        verifyDocumentedRefusal(empty, id, 'MSG_INVALID_FORMAT', R.invalidFormat, {
          shapeRequirements: R.errorShape,
          decisions: ['DEC-D2-30'],
        });
      const probes: Record<string, string>[] = [{ page: 'abc' }, { count: 'ten' }];
      if (id === SEARCH_P) probes.push({ near: 'north:west' });
      for (const q of probes) {
        verifyDocumentedRefusal(await call(id, { query: q }), id, 'MSG_INVALID_FORMAT', R.invalidFormat, {
          shapeRequirements: R.errorShape,
          decisions: ['DEC-D2-30'],
        });
      }
    });

    test('a request without a token is refused', async () => {
      on(id)
        .must(...R.auth)
        .check(await call(id, { omitHeaders: ['Authorization'] }), requestRefused);
    });
  });
}

searchSuite(SEARCH_P, R.practitioner, () => bookingPractitionerFilters);
searchSuite(SEARCH_R, R.role, () => {
  const defs = roleFilters(new Map());
  return { practitioner: defs.practitioner, location: defs.location };
});

describeOperation(SEARCH_P, () => {
  const id = SEARCH_P;

  test('filters without a visible counterpart give a subset of the unfiltered result', async () => {
    const all = await collectIds(id, {});
    if (!all)
      return on(id)
        .must('D2-4.12-10', 'D2-4.12-12', 'D2-4.12-13', 'D2-4.12-14', 'D2-4.12-15')
        .decided(PRECONDITION, 'skip', 'The unfiltered booking practitioner search could not be walked to its end');
    const ctx = runContext();
    // Values: the configured profession code, a location a booking role names, the configured
    // postcode and register centre; channel ids are not shown anywhere (DEC-D2-59), so a probe
    // value is sent: a subset must hold for any value.
    const roles = bundleResources(bodyOf(await call(SEARCH_R, { query: { count: '50' } })));
    const location = roles
      .flatMap((r) => (Array.isArray(r.location) ? r.location : []))
      .map((l) => (isRecord(l) && typeof l.reference === 'string' ? l.reference.split('/').pop() : undefined))
      .find((v) => v);
    const c = ctx.fixtures.register?.near;
    const probes: [string, string, string | undefined][] = [
      ['D2-4.12-10', 'profession', ctx.fixtures.codeSets?.profession],
      ['D2-4.12-12', 'channel', 'CH-WEB'],
      ['D2-4.12-13', 'location', location],
      ['D2-4.12-14', 'postcode', ctx.fixtures.address?.postcode],
      ...(c
        ? ([
            ['D2-4.12-15', 'near', `${c.lat}:${c.lon}:${c.distanceKm}:km`],
            ['D2-4.12-15', 'near', `${c.lat}:${c.lon}:${(c.distanceKm / 1.609344).toFixed(6)}:mi`],
            ['D2-4.12-15', 'near', `${c.lat}:${c.lon}:${c.distanceKm * 1000}:m`],
          ] as [string, string, string][])
        : []),
    ];
    for (const [req, param, value] of probes) {
      if (value === undefined) {
        on(id).must(req).decided(FIXTURE_CONFIGURED, 'skip', `No value for ${param} (config or a returned role)`);
        continue;
      }
      const x = await call(id, { query: { [param]: value, count: '50' } });
      if (!verifySuccess(x, id, { success: [req] }, { status: 200, decisions: ['DEC-D2-59'] }) || !hasResponse(x))
        continue;
      on(id)
        .must(req)
        .under('DEC-D2-59')
        .with({ exchange: x })
        .check({ filtered: x, all }, filteredSubset, { [param]: value });
    }
  });

  test('a near unit outside mi, km, m is refused', async () => {
    const c = runContext().fixtures.register?.near ?? { lat: 51.5074, lon: -0.1278, distanceKm: 10 };
    verifyDocumentedRefusal(
      await call(id, { query: { near: `${c.lat}:${c.lon}:${c.distanceKm}:ft` } }),
      id,
      ['MSG_PARAM_INVALID', 'MSG_INVALID_FORMAT'],
      R.outsideList,
      { decisions: ['DEC-D2-58'] },
    );
  });

  test('profession, channel, location, postcode and near with a value no one holds give nothing', async () => {
    // A target that ignores one of these filters answers practitioners anyway (DEC-D2-59): the
    // values name nothing (an unknown code, location, a placeholder postcode, a point in the
    // Gulf of Guinea with a 1 km radius); a 4xx refusal of the value also passes.
    const probes: [string, string, string][] = [
      ['D2-4.12-10', 'profession', 'NO-SUCH-PROFESSION'],
      ['D2-4.12-12', 'channel', 'NO-SUCH-CHANNEL'],
      ['D2-4.12-13', 'location', 'NO-SUCH-LOCATION-000'],
      ['D2-4.12-14', 'postcode', 'ZZ99 9ZZ'],
      ['D2-4.12-15', 'near', '0:0:1:km'],
    ];
    for (const [req, param, value] of probes) {
      const x = await call(id, { query: { [param]: value, count: '50' } });
      if (on(id).must(req).check(x, notServerError).status !== 'pass' || !hasResponse(x)) continue;
      on(id)
        .must(req)
        .under('DEC-D2-59')
        .check(x, unmatchedValueGivesNothing(`${param}=${value}`), { [param]: value });
    }
  });
});

describeDerivedRequests({
  'get-booking-practitioner': {
    fixtures: fixturesFrom({ practitionerId: runContext().fixtures.booking?.practitionerId }),
  },
  'search-booking-practitioners': {},
  'get-booking-practitioner-role': {
    fixtures: fixturesFrom({ practitionerRoleId: runContext().fixtures.booking?.practitionerRoleId }),
  },
  'search-booking-practitioner-roles': {},
});
