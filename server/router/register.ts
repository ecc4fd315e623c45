/**
 * The private-practice register (Document 2, 2.3, 4.9-4.11, 7; DEC-D2-16..21, -25, -29, -30):
 * practitioner search, profile photo and practitioner-role search. Codes match exactly ignoring
 * letter case (postcodes also ignoring spaces), family and given names by prefix. Role search:
 * roles in id order by default; `near` keeps roles whose location lies within the radius
 * (haversine); `_sort` by distance (only with `near`) or by practitioner display; `distinct-by`
 * keeps the first role per practitioner or location; `_include=practitioner:location` appends the
 * referenced Practitioner and Location entries (search.mode `include`).
 */
import type { Location, RegisterPractitioner, RegisterRole } from '../repo/model.ts';
import { locationOf } from '../resources/reference.ts';
import { displayName, photoOf, registerPractitionerOf, registerRoleOf } from '../resources/register.ts';
import { authorise } from './auth.ts';
import { codeDisplays } from './codeSets.ts';
import { ApiError } from './errors.ts';
import { distanceKm, isDistance, nearQueryOf } from './geo.ts';
import { pagedBundle, pagingOf, type BundleEntry } from './paging.ts';
import { QUERY_PAGING, REGISTER_PROFILE, applyFilters, readParameters, sameText } from './params.ts';
import { ok, type SandboxContext, type SandboxReply, type SandboxRequest } from './types.ts';

const PRACTITIONERS_OP = 'search-register-practitioners';
const PHOTO_OP = 'get-practitioner-photo';
const ROLES_OP = 'search-register-practitioner-roles';

type Filter<T> = (item: T, value: string) => boolean;

const samePostcode = (a: string, b: string) =>
  a.replace(/\s+/g, '').toLowerCase() === b.replace(/\s+/g, '').toLowerCase();
const startsWithText = (text: string, prefix: string) => text.toLowerCase().startsWith(prefix.trim().toLowerCase());

/** 4.9 filters, on the register Practitioner (DEC-D2-21); the role search reuses them on a role's practitioner. */
const PRACTITIONER_FILTERS: Readonly<Record<string, Filter<RegisterPractitioner>>> = {
  gender: (p, v) => sameText(p.gender, v),
  profession: (p, v) => sameText(p.profession, v),
  specialty: (p, v) => p.specialties.some((s) => sameText(s, v)),
  subspecialty: (p, v) => p.subspecialties.some((s) => sameText(s, v)),
  'insurer-recognition-status': (p, v) => p.insurers.some((i) => sameText(i.status, v)),
  'insurer-provider-number': (p, v) => p.insurers.some((i) => sameText(i.providerNumber, v)),
  insurer: (p, v) => v.split(',').some((code) => p.insurers.some((i) => sameText(i.code, code))),
  'address-postalcode': (p, v) => samePostcode(p.postalCode, v),
  family: (p, v) => startsWithText(p.family, v),
  given: (p, v) => p.given.some((g) => startsWithText(g, v)),
  'is-onlinebooking-available': (p, v) => p.onlineBooking === (v === 'true'),
  'regulator-reference': (p, v) => sameText(p.regulator.reference, v),
};

export async function searchRegisterPractitioners(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, PRACTITIONERS_OP);
  const values = readParameters(ctx, { operationId: PRACTITIONERS_OP, profile: REGISTER_PROFILE, source: req.query });
  const matches = applyFilters(await ctx.repo.registerPractitioners(), PRACTITIONER_FILTERS, values);
  const display = await codeDisplays(ctx.repo);
  return ok(
    pagedBundle({
      operationId: PRACTITIONERS_OP,
      type: 'searchset',
      matches,
      paging: pagingOf(values),
      totalTag: 'maxCount',
      entry: (p) => ({ resource: registerPractitionerOf(p, display) }),
    }),
  );
}

export async function getPractitionerPhoto(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, PHOTO_OP);
  const { practitionerId } = readParameters(ctx, {
    operationId: PHOTO_OP,
    profile: REGISTER_PROFILE,
    source: req.query,
    path: req.params,
  });
  const known = (await ctx.repo.registerPractitioners()).some((p) => p.id === practitionerId);
  const photo = known ? await ctx.repo.photo(practitionerId) : undefined;
  if (!photo)
    throw new ApiError(
      422,
      'MSG_REFERENCE_ID_NOT_FOUND',
      known ? `Practitioner ${practitionerId} has no photo` : `No practitioner ${practitionerId}`,
    );
  const size = photo.data.length;
  return ok(photoOf({ contentType: photo.contentType, data: photo.data.toString('base64'), size, title: photo.title }));
}

/** A role with what its filters and sorts read: its practitioner, its location, its distance from `near`. */
interface RoleView {
  role: RegisterRole;
  practitioner: RegisterPractitioner;
  location: Location;
  distanceKm?: number;
}

const onPractitioner =
  (f: Filter<RegisterPractitioner>): Filter<RoleView> =>
  (r, v) =>
    f(r.practitioner, v);

/** 4.11 filters (DEC-D2-21): on the role's own fields, else on its practitioner. `near` is applied apart. */
const ROLE_FILTERS: Readonly<Record<string, Filter<RoleView>>> = {
  practitioner: (r, v) => sameText(r.role.practitionerId, v),
  location: (r, v) => sameText(r.role.locationId, v),
  'ages-treated': (r, v) => r.role.agesTreated.some((a) => sameText(a, v)),
  'address-postalcode': (r, v) => samePostcode(r.location.postalCode, v),
  specialty: (r, v) => r.role.specialties.some((s) => sameText(s, v)),
  subspecialty: onPractitioner(PRACTITIONER_FILTERS.subspecialty),
  profession: onPractitioner(PRACTITIONER_FILTERS.profession),
  'is-onlinebooking-available': onPractitioner(PRACTITIONER_FILTERS['is-onlinebooking-available']),
  insurer: onPractitioner(PRACTITIONER_FILTERS.insurer),
  gender: onPractitioner(PRACTITIONER_FILTERS.gender),
  family: onPractitioner(PRACTITIONER_FILTERS.family),
  given: onPractitioner(PRACTITIONER_FILTERS.given),
};

const byRoleId = (a: RoleView, b: RoleView) => (a.role.id < b.role.id ? -1 : a.role.id > b.role.id ? 1 : 0);

/** Sorted by a key, ties by role id; descending reverses the whole order. */
function sortRoles(
  views: RoleView[],
  key: ((r: RoleView) => string | number) | undefined,
  descending: boolean,
): RoleView[] {
  const cmp =
    key === undefined
      ? byRoleId
      : (a: RoleView, b: RoleView) => {
          const ka = key(a);
          const kb = key(b);
          return ka < kb ? -1 : ka > kb ? 1 : byRoleId(a, b);
        };
  const sorted = [...views].sort(cmp);
  return descending ? sorted.reverse() : sorted;
}

const SORT_KEYS: Readonly<Record<string, (r: RoleView) => string | number>> = {
  distance: (r) => r.distanceKm ?? Number.POSITIVE_INFINITY,
  name: (r) => displayName(r.practitioner).toLowerCase(),
};

export async function searchRegisterPractitionerRoles(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, ROLES_OP);
  const values = readParameters(ctx, {
    operationId: ROLES_OP,
    profile: REGISTER_PROFILE,
    source: req.query,
    extraParameters: QUERY_PAGING,
    formats: { 'near-distance': { test: isDistance, text: 'a distance with an optional unit km, mi or m' } },
  });
  const [sortKey, direction] = (values._sort ?? '').split(':');
  if (sortKey === 'distance' && values.near === undefined) {
    throw new ApiError(400, 'MSG_INVALID_FORMAT', `_sort=${values._sort} needs near (4.11)`);
  }

  const practitioners = new Map((await ctx.repo.registerPractitioners()).map((p) => [p.id, p]));
  const locations = new Map((await ctx.repo.locations()).map((l) => [l.id, l]));
  let views: RoleView[] = (await ctx.repo.registerRoles()).flatMap((role) => {
    const practitioner = practitioners.get(role.practitionerId);
    const location = locations.get(role.locationId);
    return practitioner && location ? [{ role, practitioner, location }] : [];
  });

  const near = nearQueryOf(values, 'km');
  if (near) {
    const reach = near.radiusKm ?? Number.POSITIVE_INFINITY;
    views = views.flatMap((v) => {
      if (!v.location.position) return [];
      const d = distanceKm(near.centre, v.location.position);
      return d <= reach ? [{ ...v, distanceKm: d }] : [];
    });
  }
  views = applyFilters(views, ROLE_FILTERS, values);

  views = sortRoles(views, SORT_KEYS[sortKey], direction === 'desc');

  // distinct-by keeps the first matching role of each practitioner (resp. location) in the sort order (4.11).
  const distinctBy = values['distinct-by'];
  if (distinctBy !== undefined) {
    const seen = new Set<string>();
    views = views.filter((v) => {
      const key = distinctBy === 'practitioner' ? v.role.practitionerId : v.role.locationId;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  const display = await codeDisplays(ctx.repo);
  const include = values._include === 'practitioner:location';
  return ok(
    pagedBundle({
      operationId: ROLES_OP,
      type: 'searchset',
      matches: views,
      paging: pagingOf(values, views.length),
      totalTag: 'maxCount',
      entry: (v) => ({
        resource: registerRoleOf(v.role, v.practitioner, v.location, display),
        search: { mode: 'match' },
      }),
      included: include ? (page) => includedEntries(page, display) : undefined,
    }),
  );
}

/** The distinct practitioners, then the distinct locations, the page's roles reference. */
function includedEntries(
  page: readonly RoleView[],
  display: Parameters<typeof registerPractitionerOf>[1],
): BundleEntry[] {
  const practitioners = [...new Map(page.map((v) => [v.practitioner.id, v.practitioner])).values()];
  const locations = [...new Map(page.map((v) => [v.location.id, v.location])).values()];
  return [
    ...practitioners.map(
      (p): BundleEntry => ({ resource: registerPractitionerOf(p, display), search: { mode: 'include' } }),
    ),
    ...locations.map((l): BundleEntry => ({ resource: locationOf(l), search: { mode: 'include' } })),
  ];
}
