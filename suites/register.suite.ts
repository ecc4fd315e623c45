/**
 * The private-practice register (Document 2, 2.3, 4.9-4.11, 7): practitioner search with every
 * filter, the profile photo, and the role search with `near` in all its forms, sorts, `_include`,
 * `distinct-by` and filters on property-generated queries.
 */
import { on } from '../core/suite.ts';
import { FIXTURE_CONFIGURED, PRECONDITION } from '../core/decidedOutcomes.ts';
import { test } from 'vitest';
import {
  bundleHasEntries,
  coversAll,
  distinctBy,
  distinctByFirst,
  documentedCodeHasItsStatus,
  entriesMatchFilter,
  entriesSorted,
  answerRecorded,
  extensionsPresent,
  filteredSubset,
  includedResourcesPresent,
  matchesSchema,
  membersPresent,
  noIncludedResources,
  notServerError,
  pageWithinCount,
  photoDataMatchesSize,
  requestRefused,
  successStatus,
  withinRadius,
} from '../checks/index.ts';
import { bodyOf, bundleResources, hasResponse, isRecord } from '../core/exchange.ts';
import type { Exchange, RespondedExchange } from '../core/exchange.ts';
import { pagingTags } from '../core/exchange.ts';
import type { Judgement } from '../core/property.ts';
import { judge } from '../core/property.ts';
import { call, describeOperation, runContext } from '../core/suite.ts';
import { KM_PER_UNIT as KM_PER, type NearUnit, parameterValue } from '../generators/parameterValue.ts';
import { operation } from '../spec/operations.ts';
import {
  includedIndex,
  registerPractitionerFilters,
  roleFilters,
  roleLocationRefs,
  rolePractitionerRef,
  verifyDocumentedRefusal,
} from './common/registerFilters.ts';
import { collectIds, verifyError, verifyPaging, verifySuccess, walkPages } from './common/steps.ts';
import { describeDerivedRequests, fixturesFrom } from './common/derivedRequests.ts';
import { filterSearches } from './common/filterCandidates.ts';
import { roleDistanceSortKey, roleNameSortKey } from './common/sortKeys.ts';

const PRACTITIONERS = 'search-register-practitioners';
const PHOTO = 'get-practitioner-photo';
const ROLES = 'search-register-practitioner-roles';
const R = {
  practitioners: {
    shape: [
      'D2-4.9-01',
      'D2-4.9-17',
      'D2-2.3-31',
      'D2-2.3-32',
      'D2-2.3-33',
      'D2-2.3-34',
      'D2-2.3-35',
      'D2-2.3-36',
      'D2-2.3-37',
      'D2-2.3-38',
      'D2-2.3-39',
      'D2-2.3-40',
      'D2-2.3-41',
      'D2-2.1-01',
      'D2-1-05',
      'D2-1-09',
    ],
    paging: {
      tags: ['D2-2.1-08'],
      match: ['D2-2.1-09', 'D2-4.9-02'],
      bounds: ['D2-2.1-10', 'D2-4.9-02'],
      total: ['D2-2.1-11', 'D2-4.9-02'],
    },
    filter: {
      gender: 'D2-4.9-03',
      profession: 'D2-4.9-04',
      specialty: 'D2-4.9-05',
      subspecialty: 'D2-4.9-06',
      'insurer-recognition-status': 'D2-4.9-07',
      'insurer-provider-number': 'D2-4.9-08',
      insurer: 'D2-4.9-09',
      'address-postalcode': 'D2-4.9-10',
      family: 'D2-4.9-11',
      given: 'D2-4.9-12',
      'is-onlinebooking-available': 'D2-4.9-13',
      'regulator-reference': 'D2-4.9-15',
    } as Record<string, string>,
  },
  photo: {
    shape: ['D2-4.10-01', 'D2-4.10-02', 'D2-2.3-59', 'D2-2.3-60'],
    data: ['D2-4.10-03', 'D2-4.10-04'],
    unknown: ['D2-4.10-05'],
  },
  roles: {
    shape: [
      'D2-4.11-01',
      'D2-4.11-36',
      'D2-2.3-43',
      'D2-2.3-44',
      'D2-2.3-45',
      'D2-2.3-46',
      'D2-2.3-47',
      'D2-2.1-06',
      'D2-1-05',
      'D2-1-09',
    ],
    near: {
      km: ['D2-4.11-06'],
      m: ['D2-4.11-08'],
      mi: ['D2-4.11-07'],
      default: ['D2-4.11-09'],
      nearDistance: ['D2-4.11-10'],
      precedence: ['D2-4.11-11'],
    },
    sortDistance: { asc: ['D2-4.11-22'], desc: ['D2-4.11-23'], withoutNear: ['D2-4.11-24'], recorded: ['D2-4.11-25'] },
    sortName: { asc: ['D2-4.11-26'], desc: ['D2-4.11-27'] },
    include: ['D2-4.11-29'],
    noInclude: ['D2-4.11-31'],
    distinct: { practitioner: ['D2-4.11-33'], location: ['D2-4.11-34'] },
    distinctFirst: ['D2-4.11-35'],
    filter: {
      practitioner: 'D2-4.11-03',
      location: 'D2-4.11-04',
      'ages-treated': 'D2-4.11-05',
      'address-postalcode': 'D2-4.11-12',
      specialty: 'D2-4.11-13',
      subspecialty: 'D2-4.11-14',
      profession: 'D2-4.11-15',
      'is-onlinebooking-available': 'D2-4.11-16',
      insurer: 'D2-4.11-17',
      gender: 'D2-4.11-19',
      family: 'D2-4.11-20',
      given: 'D2-4.11-21',
    } as Record<string, string>,
  },
  errors: { format: ['D2-7-12', 'D2-7-28', 'D2-7-29'], empty: ['D2-7-13', 'D2-7-28', 'D2-7-29'], shape: ['D2-7-30'] },
  auth: ['D2-5-01'],
};
const KM_PER_MILE = 1.609344;
/** The `near` parameter of the role search, whose derived values the radius property sends. */
const nearParameter = (() => {
  const p = operation('search-register-practitioner-roles').parameters.find((pp) => pp.name === 'near');
  if (!p) throw new Error('Suite bug: the role search has no near parameter');
  return p;
})();

/** Codings of every (nested) extension whose URL ends with `/<name>`, in either form (DEC-D2-43). */
function nestedCodings(resource: Record<string, unknown>, name: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const walk = (node: Record<string, unknown>): void => {
    for (const e of Array.isArray(node.extension) ? node.extension : []) {
      if (!isRecord(e)) continue;
      if (typeof e.url === 'string' && (e.url === name || e.url.endsWith(`/${name}`))) {
        if (isRecord(e.valueCoding)) out.push(e.valueCoding);
        const cc = e.valueCodeableConcept;
        if (isRecord(cc)) {
          if (Array.isArray(cc.coding)) out.push(...cc.coding.filter(isRecord));
          else if (cc.code !== undefined) out.push(cc);
        }
      }
      walk(e);
    }
  };
  walk(resource);
  return out;
}

/**
 * 3: a `recognitionstatus` coding with code `Y` and a display reads `Recognised` (DEC-D2-46); undefined when
 * there is none.
 */
/** A personal title as a name in the form "Title GivenName" (4.11) begins. */
const TITLE = /^(dr|mr|mrs|ms|miss|mx|prof|professor|sir|dame|lady|lord|rev|revd)\.?\s+\S/i;

/**
 * 4.11 sorts by name in the format "Title GivenName" (DEC-D2-18): the roles' `practitioner.display`
 * shows that key only when every display of the answer begins with a title; a display in another
 * form (DEC-D2-56, "GivenName Family") does not show it.
 */
function roleDisplaysShowTitle(x: Exchange): boolean {
  const displays = bundleResources(bodyOf(x))
    .filter((r) => r.resourceType === 'PractitionerRole')
    .map((r) => (isRecord(r.practitioner) ? r.practitioner.display : undefined));
  return displays.length > 0 && displays.every((d) => typeof d === 'string' && TITLE.test(d.trim()));
}

function recognisedShownAsRecognised(r: Record<string, unknown>): boolean | undefined {
  const ys = nestedCodings(r, 'recognitionstatus').filter((c) => c.code === 'Y' && c.display !== undefined);
  return ys.length === 0
    ? undefined
    : ys.every((c) => typeof c.display === 'string' && c.display.toLowerCase() === 'recognised');
}

const near = () => runContext().fixtures.register?.near;
const missingNear = (requirements: string[]) =>
  on(ROLES)
    .must(...requirements)
    .decided(FIXTURE_CONFIGURED, 'skip', 'No fixture register.near (a centre with roles around it)');

/** The forms of `near` for one radius (DEC-D2-16). */
function nearForms(c: {
  lat: number;
  lon: number;
  distanceKm: number;
}): { label: string; query: Record<string, string>; reqs: string[] }[] {
  const at = `${c.lat}:${c.lon}`;
  const d = c.distanceKm;
  return [
    { label: 'km', query: { near: `${at}:${d}:km` }, reqs: R.roles.near.km },
    { label: 'm', query: { near: `${at}:${d * 1000}:m` }, reqs: R.roles.near.m },
    { label: 'mi', query: { near: `${at}:${(d / KM_PER_MILE).toFixed(6)}:mi` }, reqs: R.roles.near.mi },
    { label: 'default unit (km)', query: { near: `${at}:${d}` }, reqs: R.roles.near.default },
    { label: 'near-distance', query: { near: at, 'near-distance': String(d) }, reqs: R.roles.near.nearDistance },
    {
      label: 'near takes precedence over near-distance',
      query: { near: `${at}:${d}:km`, 'near-distance': String(d * 5) },
      reqs: R.roles.near.precedence,
    },
  ];
}

/**
 * Every page of a role search (DEC-D2-36): page 1 as asked; when its paging tags (or `total`) show
 * further records, the next pages are requested with `page` (at most 20). Undefined when a page
 * is not a 200 answer (judged where it is asked for).
 */
async function allRolePages(query: Record<string, string>): Promise<RespondedExchange[] | undefined> {
  const pages: RespondedExchange[] = [];
  let seen = 0;
  for (let page = 1; page <= 20; page++) {
    const x = await call(ROLES, { query: page === 1 ? query : { ...query, page: String(page) } });
    if (!hasResponse(x) || x.response.status !== 200) return page === 1 ? undefined : pages;
    pages.push(x);
    const body = bodyOf(x);
    const roles = bundleResources(body).filter((r) => r.resourceType === 'PractitionerRole').length;
    seen += roles;
    const tags = pagingTags(body);
    const declared = Number(tags.get('maxCount') ?? (isRecord(body) ? body.total : undefined));
    if (roles === 0 || !Number.isFinite(declared) || seen >= declared) break;
  }
  return pages;
}

const rolesOf = (pages: readonly RespondedExchange[]) =>
  pages.flatMap((x) => bundleResources(bodyOf(x)).filter((r) => r.resourceType === 'PractitionerRole'));

function roleJudgements(x: Exchange, filters: Record<string, string>): Judgement[] {
  const defs = roleFilters(includedIndex(bodyOf(x)));
  return Object.entries(filters).map(([p, v]) =>
    judge(
      x,
      entriesMatchFilter(`${p}=${v}`, (r) => defs[p].matches(r, v), { resourceType: 'PractitionerRole' }),
      { requirements: [R.roles.filter[p]] },
    ),
  );
}

describeOperation(PRACTITIONERS, () => {
  const id = PRACTITIONERS;

  test('a search returns a paged searchset of register practitioners', async () => {
    const x = await call(id, { query: { count: '10' } });
    if (verifySuccess(x, id, { success: R.practitioners.shape, schema: R.practitioners.shape }, { status: 200 })) {
      const bind = on(id).should('D2-2.3-42').under('DEC-D2-42');
      bind.check(
        x,
        membersPresent(
          [
            'id',
            'name[].family',
            'name[].given',
            'telecom[].id',
            'telecom[].value',
            'address',
            'gender',
            'birthDate',
            'qualification',
          ].map((m) => `entry[].resource.${m}`),
        ),
      );
      bind.check(
        x,
        extensionsPresent(['indemnityStatus', 'onlineBookingStatus', 'profession', 'registrationnumbers', 'insurers']),
      );
      const all50 = await call(id, { query: { count: '50' } });
      on(id)
        .must('D2-3-02')
        .under('DEC-D2-43', 'DEC-D2-46')
        .check(
          all50,
          entriesMatchFilter('a recognitionstatus coding Y displays Recognised', recognisedShownAsRecognised),
        );
    }
    const walk = await walkPages(id, {}, 7, 8);
    verifyPaging(id, walk, 7, R.practitioners.paging);
  });

  test('each filter keeps only matching practitioners', async () => {
    const sample = bundleResources(bodyOf(await call(id, { query: { count: '50' } })));
    for (const f of Object.values(registerPractitionerFilters)) {
      const value = sample.flatMap((r) => f.valuesFrom(r))[0];
      if (value === undefined) {
        on(id)
          .must(R.practitioners.filter[f.param])
          .decided(FIXTURE_CONFIGURED, 'skip', `No returned practitioner shows a value for ${f.param}`);
        continue;
      }
      const x = await call(id, { query: { [f.param]: value, count: '50' } });
      const req = [R.practitioners.filter[f.param]];
      if (!verifySuccess(x, id, { success: req }, { status: 200 })) continue;
      on(id)
        .must(...req)
        .under('DEC-D2-21', 'DEC-D2-53')
        .check(
          x,
          entriesMatchFilter(`${f.param}=${value}`, (r) => f.matches(r, value)),
        );
      on(id)
        .must(...req)
        .check(x, bundleHasEntries(1), { note: 'the value was taken from a returned practitioner' });
    }
  });

  test('property: generated filter combinations and paging are honoured', async () => {
    const sample = bundleResources(bodyOf(await call(id, { query: { count: '50' } })));
    await on(id)
      .must(...Object.values(R.practitioners.filter))
      .under('DEC-D2-21')
      .property({
        // Searches: no case changes what another is answered (sent ahead, judged in order).
        independent: true,
        // One or two filters of their documented forms, values of returned practitioners mixed in.
        arbitrary: filterSearches(operation(id), Object.values(registerPractitionerFilters), sample, { maxFilters: 3 }),
        exercise: async (q) => {
          const x = await call(id, { query: { ...q.filters, page: String(q.page), count: String(q.count) } });
          const js = [judge(x, successStatus(200)), judge(x, pageWithinCount(q.count))];
          for (const [p, v] of Object.entries(q.filters))
            js.push(
              judge(
                x,
                entriesMatchFilter(`${p}=${v}`, (r) => registerPractitionerFilters[p].matches(r, v)),
                { requirements: [R.practitioners.filter[p]] },
              ),
            );
          return js;
        },
      });
  });

  test('is-onlinebooking-available=false gives a subset of the unfiltered result', async () => {
    const all = await collectIds(id, {});
    if (!all)
      return on(id)
        .must('D2-4.9-14')
        .decided(PRECONDITION, 'skip', 'The unfiltered register search could not be walked to its end');
    const x = await call(id, { query: { 'is-onlinebooking-available': 'false', count: '50' } });
    if (!verifySuccess(x, id, { success: ['D2-4.9-14'] }, { status: 200, decisions: ['DEC-D2-52'] }) || !hasResponse(x))
      return;
    on(id).must('D2-4.9-14').under('DEC-D2-52').with({ exchange: x }).check({ filtered: x, all }, filteredSubset);
  });

  test('empty and malformed values are refused with the documented codes', async () => {
    verifyError(await call(id, { query: { gender: '' } }), id, 'MSG_PARAM_EMPTY', R.errors.empty, {
      shapeLevel: 'SHOULD',
      shapeRequirements: R.errors.shape,
      decisions: ['DEC-D2-24', 'DEC-D2-30'],
    });
    verifyDocumentedRefusal(
      await call(id, { query: { 'is-onlinebooking-available': 'maybe' } }),
      id,
      'MSG_INVALID_FORMAT',
      R.errors.format,
      { shapeRequirements: R.errors.shape, decisions: ['DEC-D2-30'] },
    );
    verifyDocumentedRefusal(await call(id, { query: { page: 'abc' } }), id, 'MSG_INVALID_FORMAT', R.errors.format, {
      decisions: ['DEC-D2-30'],
    });
  });

  test('a request without a token is refused', async () => {
    on(id)
      .must(...R.auth)
      .check(await call(id, { omitHeaders: ['Authorization'] }), requestRefused);
  });
});

/**
 * 4.10 takes "the id of a practitioner found by 4.9": the photo step looks for its practitioner
 * there first (a few pages), so that the target shows it holds the id and a refusal of it is judged
 * as the server's, not skipped as a fixture the target lacks.
 */
async function findInRegister(practitionerId: string): Promise<void> {
  if (runContext().addresses[PRACTITIONERS] === undefined) return;
  for (let page = 1; page <= 5; page++) {
    const found = bundleResources(bodyOf(await call(PRACTITIONERS, { query: { page: String(page), count: '50' } })));
    if (found.length === 0 || found.some((r) => r.id === practitionerId)) return;
  }
}

describeOperation(PHOTO, () => {
  on(PHOTO).test(
    'the photo of a practitioner found by 4.9 decodes to its stated size and type',
    { fixtures: ['register.photoPractitionerId'], cites: [...R.photo.data] },
    async ([practitionerId]) => {
      await findInRegister(practitionerId);
      const x = await call(PHOTO, { path: { practitionerId } });
      if (!verifySuccess(x, PHOTO, { success: R.photo.shape, schema: R.photo.shape }, { status: 200 })) return;
      on(PHOTO)
        .must(...R.photo.data)
        .under('DEC-D2-25')
        .check(x, photoDataMatchesSize);
    },
  );

  test('an unknown practitioner is refused; so is a request without a token', async () => {
    const unknown = await call(PHOTO, { path: { practitionerId: 'NO-SUCH-PRACTITIONER-000' } });
    on(PHOTO)
      .must(...R.photo.unknown)
      .under('DEC-D2-29')
      .check(unknown, requestRefused);
    // Whichever code the target chose, a code of the register table comes with its status (DEC-D2-63).
    on(PHOTO)
      .must('D2-7-28')
      .under('DEC-D2-63')
      .check(unknown, documentedCodeHasItsStatus(operation(PHOTO).errors.filter((e) => e.code !== '')));
    on(PHOTO)
      .must(...R.auth)
      .check(
        await call(PHOTO, {
          path: { practitionerId: runContext().fixtures.register?.photoPractitionerId ?? 'PR-0001' },
          omitHeaders: ['Authorization'],
        }),
        requestRefused,
      );
  });
});

describeOperation(ROLES, () => {
  const id = ROLES;

  test('a role search returns a searchset of practitioner roles', async () => {
    const x = await call(id);
    if (!verifySuccess(x, id, { success: R.roles.shape, schema: R.roles.shape }, { status: 200 })) return;
    const bind = on(id).should('D2-2.3-48').under('DEC-D2-42');
    bind.check(
      x,
      membersPresent(
        [
          'id',
          'practitioner.reference',
          'practitioner.display',
          'specialty[].coding',
          'location[].reference',
          'location[].display',
        ].map((m) => `entry[].resource.${m}`),
      ),
    );
    bind.check(x, extensionsPresent(['agestreated']));
    on(id)
      .should(...R.roles.noInclude)
      .under('DEC-D2-19')
      .check(x, noIncludedResources);
  });

  test('near in every form keeps roles inside the radius', async () => {
    const c = near();
    if (!c) return missingNear(R.roles.near.km);
    for (const form of nearForms(c)) {
      const x = await call(id, { query: { ...form.query, _include: 'practitioner:location' } });
      if (
        !verifySuccess(x, id, { success: form.reqs, schema: R.roles.shape }, { status: 200, decisions: ['DEC-D2-16'] })
      )
        continue;
      on(id)
        .must(...form.reqs)
        .under('DEC-D2-16')
        .check(x, withinRadius({ lat: c.lat, lon: c.lon, radiusKm: c.distanceKm }), { form: form.label });
      on(id)
        .must(...form.reqs)
        .check(x, bundleHasEntries(1), { form: form.label, note: 'the configured centre has roles within the radius' });
    }
  });

  test('property: generated radii and units keep every role inside the radius', async () => {
    const c = near();
    if (!c) return missingNear(R.roles.near.km);
    await on(id)
      .must(...R.roles.near.km, ...R.roles.near.mi, ...R.roles.near.m, ...R.roles.near.default)
      .under('DEC-D2-16')
      .property({
        // Searches: no case changes what another is answered (sent ahead, judged in order).
        independent: true,
        // Radius and unit of the derived `near` value, around the configured centre (the default unit: its own test).
        arbitrary: parameterValue(nearParameter).map((v) => {
          const [, , distance, unit] = v.split(':');
          return { distance, unit: unit as NearUnit };
        }),
        exercise: async ({ distance, unit }) => {
          const km = Number(distance) * KM_PER[unit];
          const x = await call(id, {
            query: { near: `${c.lat}:${c.lon}:${distance}:${unit}`, _include: 'practitioner:location' },
          });
          return [judge(x, successStatus(200)), judge(x, withinRadius({ lat: c.lat, lon: c.lon, radiusKm: km }))];
        },
      });
  });

  test('_sort by distance and by name, in both directions', async () => {
    const c = near();
    for (const direction of ['asc', 'desc'] as const) {
      const byName = await call(id, { query: { _sort: `name:${direction}` } });
      if (verifySuccess(byName, id, { success: R.roles.sortName[direction] }, { status: 200 })) {
        // The sort key is the name "Title GivenName" (4.11); the display shows it only when it reads
        // so. A display in another form (DEC-D2-56) hides the key: its order is recorded, not judged.
        const keyShown = roleDisplaysShowTitle(byName);
        (keyShown ? on(id).must(...R.roles.sortName[direction]) : on(id).info(...R.roles.sortName[direction]))
          .under('DEC-D2-18', 'DEC-D2-56')
          .check(
            byName,
            entriesSorted('practitioner.display', roleNameSortKey, direction, { resourceType: 'PractitionerRole' }),
          );
      }
      if (!c) continue;
      const byDistance = await call(id, {
        query: {
          near: `${c.lat}:${c.lon}:${c.distanceKm * 5}:km`,
          _sort: `distance:${direction}`,
          _include: 'practitioner:location',
        },
      });
      if (!verifySuccess(byDistance, id, { success: R.roles.sortDistance[direction] }, { status: 200 })) continue;
      const index = includedIndex(bodyOf(byDistance));
      on(id)
        .must(...R.roles.sortDistance[direction])
        .under('DEC-D2-16')
        .check(
          byDistance,
          entriesSorted('distance from the centre', roleDistanceSortKey(index, c), direction, {
            resourceType: 'PractitionerRole',
          }),
        );
    }
    const withoutNear = await call(id, { query: { _sort: 'distance:asc' } });
    on(id)
      .must(...R.roles.sortDistance.withoutNear)
      .under('DEC-D2-17')
      .check(withoutNear, notServerError);
    // Which of the allowed answers the server gave is recorded (INFO), never warned of.
    on(id)
      .info(...R.roles.sortDistance.recorded)
      .under('DEC-D2-17', 'DEC-D2-58')
      .check(withoutNear, answerRecorded({ success: 200, refusals: operation(id).errors }));
  });

  test('_include adds the referenced practitioners and locations', async () => {
    const x = await call(id, { query: { _include: 'practitioner:location' } });
    if (!verifySuccess(x, id, { success: R.roles.include, schema: R.roles.shape }, { status: 200 })) return;
    on(id)
      .must(...R.roles.include)
      .under('DEC-D2-19')
      .check(x, includedResourcesPresent);
    on(id).should('D2-4.11-32').under('DEC-D2-57').check(x, matchesSchema('register-role-included.schema.json'));
  });

  test('distinct-by practitioner and location, over all pages', async () => {
    const plainPages = await allRolePages({});
    const plain = plainPages ? rolesOf(plainPages) : [];
    for (const field of ['practitioner', 'location'] as const) {
      const first = await call(id, { query: { 'distinct-by': field } });
      if (!verifySuccess(first, id, { success: R.roles.distinct[field] }, { status: 200 }) || !hasResponse(first))
        continue;
      const pages = (await allRolePages({ 'distinct-by': field })) ?? [first];
      on(id)
        .must(...R.roles.distinct[field])
        .under('DEC-D2-20', 'DEC-D2-36')
        .with({ exchange: first })
        .check(pages, distinctBy(field), { pages: pages.length });
      const keyOf =
        field === 'practitioner'
          ? (r: Record<string, unknown>) => [rolePractitionerRef(r)].filter((k): k is string => k !== undefined)
          : roleLocationRefs;
      if (field === 'practitioner' && plainPages) {
        on(id)
          .must(...R.roles.distinct[field])
          .under('DEC-D2-20', 'DEC-D2-36')
          .with({ exchange: first })
          .check({ distinct: pages, expected: new Set(plain.flatMap(keyOf)), keyOf }, coversAll);
      }
      // Without _sort the order that defines "first" is not stated: recorded (DEC-D2-55).
      if (plainPages)
        on(id)
          .info(...R.roles.distinctFirst)
          .under('DEC-D2-55')
          .with({ exchange: first })
          .check({ distinct: rolesOf(pages), plain, field }, distinctByFirst);
    }
  });

  test('distinct-by keeps the first matching record when _sort defines the order', async () => {
    const c = near();
    if (!c) return missingNear(R.roles.distinctFirst);
    const query = {
      near: `${c.lat}:${c.lon}:${c.distanceKm * 5}:km`,
      _sort: 'distance:asc',
      _include: 'practitioner:location',
    };
    const plainPages = await allRolePages(query);
    if (!plainPages)
      return on(id)
        .must(...R.roles.distinctFirst)
        .decided(
          PRECONDITION,
          'skip',
          'The plain distance-sorted role search was not answered 200 (judged under _sort)',
        );
    const index = new Map(plainPages.flatMap((x) => [...includedIndex(bodyOf(x))]));
    const distanceOf = roleDistanceSortKey(index, c);
    for (const field of ['practitioner', 'location'] as const) {
      const first = await call(id, { query: { ...query, 'distinct-by': field } });
      if (!verifySuccess(first, id, { success: R.roles.distinct[field] }, { status: 200 }) || !hasResponse(first))
        continue;
      const pages = (await allRolePages({ ...query, 'distinct-by': field })) ?? [first];
      on(id)
        .must(...R.roles.distinctFirst)
        .under('DEC-D2-20', 'DEC-D2-55')
        .with({ exchange: first })
        .check({ distinct: rolesOf(pages), plain: rolesOf(plainPages), field, sortKey: distanceOf }, distinctByFirst, {
          _sort: query._sort,
        });
    }
  });

  test('property: generated filter combinations are honoured', async () => {
    const sampleX = await call(id, { query: { _include: 'practitioner:location' } });
    const sampleBody = bodyOf(sampleX);
    const roles = bundleResources(sampleBody).filter((r) => r.resourceType === 'PractitionerRole');
    await on(id)
      .must(...Object.values(R.roles.filter))
      .under('DEC-D2-21', 'DEC-D2-57')
      .property({
        // Searches: no case changes what another is answered (sent ahead, judged in order).
        independent: true,
        // One or two filters of their documented forms, values of returned roles mixed in.
        arbitrary: filterSearches(operation(id), Object.values(roleFilters(includedIndex(sampleBody))), roles, {
          maxFilters: 2,
          paging: false,
        }),
        exercise: async (q) => {
          const x = await call(id, { query: { ...q.filters, _include: 'practitioner:location' } });
          return [judge(x, successStatus(200)), ...roleJudgements(x, q.filters)];
        },
      });
  });

  // Each filter once, with a value a returned role shows: the property above draws only some of
  // them per run, so a filter broken alone could pass a short run unseen.
  test('each filter keeps only matching roles', async () => {
    const sampleBody = bodyOf(await call(id, { query: { _include: 'practitioner:location', count: '50' } }));
    const roles = bundleResources(sampleBody).filter((r) => r.resourceType === 'PractitionerRole');
    for (const f of Object.values(roleFilters(includedIndex(sampleBody)))) {
      const req = [R.roles.filter[f.param]];
      const value = roles.flatMap((r) => f.valuesFrom(r))[0];
      if (value === undefined) {
        on(id)
          .must(...req)
          .decided(FIXTURE_CONFIGURED, 'skip', `No returned role shows a value for ${f.param}`);
        continue;
      }
      const x = await call(id, { query: { [f.param]: value, _include: 'practitioner:location', count: '50' } });
      if (!verifySuccess(x, id, { success: req }, { status: 200 })) continue;
      // Judged through the resources this answer includes, as the property judges.
      const def = roleFilters(includedIndex(bodyOf(x)))[f.param];
      on(id)
        .must(...req)
        .under('DEC-D2-21', 'DEC-D2-57')
        .check(
          x,
          entriesMatchFilter(`${f.param}=${value}`, (r) => def.matches(r, value), { resourceType: 'PractitionerRole' }),
        );
      on(id)
        .must(...req)
        .check(x, bundleHasEntries(1), { note: 'the value was taken from a returned role' });
    }
  });

  test('values outside a documented list are refused with a documented code', async () => {
    const c = near() ?? { lat: 51.5074, lon: -0.1278, distanceKm: 10 };
    for (const q of [
      { _sort: 'height:asc' },
      { _include: 'practitioner:organization' },
      { 'distinct-by': 'insurer' },
      { near: `${c.lat}:${c.lon}:${c.distanceKm}:ft` },
    ] as Record<string, string>[]) {
      verifyDocumentedRefusal(
        await call(id, { query: q }),
        id,
        ['MSG_PARAM_INVALID', 'MSG_INVALID_FORMAT'],
        ['D2-7-16'],
        { decisions: ['DEC-D2-58'] },
      );
    }
  });

  test('malformed near and empty values are refused with the documented codes', async () => {
    verifyDocumentedRefusal(
      await call(id, { query: { near: 'north:west' } }),
      id,
      'MSG_INVALID_FORMAT',
      R.errors.format,
      { shapeRequirements: R.errors.shape, decisions: ['DEC-D2-24', 'DEC-D2-30'] },
    );
    verifyError(await call(id, { query: { specialty: '' } }), id, 'MSG_PARAM_EMPTY', R.errors.empty, {
      decisions: ['DEC-D2-30'],
    });
    on(id)
      .must(...R.auth)
      .check(await call(id, { omitHeaders: ['Authorization'] }), requestRefused);
  });
});

describeDerivedRequests({
  [PRACTITIONERS]: {},
  [PHOTO]: { fixtures: fixturesFrom({ practitionerId: runContext().fixtures.register?.photoPractitionerId }) },
  [ROLES]: {
    fixtures: fixturesFrom({
      near: ((c) => c && `${c.lat}:${c.lon}:${c.distanceKm}:km`)(runContext().fixtures.register?.near),
    }),
  },
});
