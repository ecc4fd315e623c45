/**
 * Booking-side practitioner and practitioner-role get and search (Document 2, 2.3, 4.12, 4.13, 7;
 * DEC-D2-22, -23, -30): records local to the booking service, in id order. A get answers a Bundle
 * with one entry, or 404 MSG_ENTITY_NOT_FOUND_IN_DATABASE; `_since` keeps records whose
 * meta.lastUpdated is at or after it (a malformed one is 422 MSG_DATE_FORMAT). A practitioner's
 * `location`, `postcode` and `near` are those of its roles' locations.
 */
import type { BookingLocation, BookingPractitioner, BookingRole } from '../repo/model.ts';
import { bookingPractitionerOf, bookingRoleOf } from '../resources/booking.ts';
import { authorise } from './auth.ts';
import { ApiError } from './errors.ts';
import { distanceKm, nearQueryOf } from './geo.ts';
import { pagedBundle, pagingOf, singlePageBundle } from './paging.ts';
import { BOOKING_PROFILE, applyFilters, readParameters, sameText, since } from './params.ts';
import { ok, type SandboxContext, type SandboxReply, type SandboxRequest } from './types.ts';

const GET_PRACTITIONER_OP = 'get-booking-practitioner';
const SEARCH_PRACTITIONERS_OP = 'search-booking-practitioners';
const GET_ROLE_OP = 'get-booking-practitioner-role';
const SEARCH_ROLES_OP = 'search-booking-practitioner-roles';

type Filter<T> = (item: T, value: string) => boolean;

interface BookingData {
  practitioners: readonly BookingPractitioner[];
  roles: readonly BookingRole[];
  locations: ReadonlyMap<string, BookingLocation>;
}

async function bookingData(ctx: SandboxContext): Promise<BookingData> {
  return {
    practitioners: await ctx.repo.bookingPractitioners(),
    roles: await ctx.repo.bookingRoles(),
    locations: new Map((await ctx.repo.bookingLocations()).map((l) => [l.id, l])),
  };
}

const samePostcode = (a: string, b: string) =>
  a.replace(/\s+/g, '').toLowerCase() === b.replace(/\s+/g, '').toLowerCase();
const startsWithText = (text: string, prefix: string) => text.toLowerCase().startsWith(prefix.trim().toLowerCase());

function practitionerFilters(data: BookingData): Readonly<Record<string, Filter<BookingPractitioner>>> {
  const locationsOf = (p: BookingPractitioner) =>
    data.roles.filter((r) => r.practitionerId === p.id).flatMap((r) => data.locations.get(r.locationId) ?? []);
  return {
    family: (p, v) => startsWithText(p.family, v),
    given: (p, v) => p.given.some((g) => startsWithText(g, v)),
    gender: (p, v) => sameText(p.gender, v),
    id: (p, v) => p.id === v.trim(),
    site: (p, v) => sameText(p.siteId, v),
    profession: (p, v) => sameText(p.profession, v),
    registeredno: (p, v) => sameText(p.registeredNumber, v),
    channel: (p, v) => p.channels.some((c) => sameText(c, v)),
    location: (p, v) => locationsOf(p).some((l) => sameText(l.id, v)),
    postcode: (p, v) => locationsOf(p).some((l) => samePostcode(l.postalCode, v)),
    near: (p, v) => {
      const near = nearQueryOf({ near: v }, 'km');
      return (
        near?.radiusKm === undefined ||
        locationsOf(p).some((l) => distanceKm(near.centre, l.position) <= (near.radiusKm as number))
      );
    },
    _since: (p, v) => since(v)(p.lastUpdated),
  };
}

const ROLE_FILTERS: Readonly<Record<string, Filter<BookingRole>>> = {
  practitioner: (r, v) => sameText(r.practitionerId, v),
  location: (r, v) => sameText(r.locationId, v),
  _since: (r, v) => since(v)(r.lastUpdated),
};

function roleEntry(r: BookingRole, data: BookingData) {
  const practitioner = data.practitioners.find((p) => p.id === r.practitionerId);
  const location = data.locations.get(r.locationId);
  if (!practitioner || !location) throw new Error(`Booking role ${r.id} references an unknown record`);
  return { resource: bookingRoleOf(r, practitioner, location) };
}

export async function getBookingPractitioner(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, GET_PRACTITIONER_OP);
  const { practitionerId } = readParameters(ctx, {
    operationId: GET_PRACTITIONER_OP,
    profile: BOOKING_PROFILE,
    source: req.query,
    path: req.params,
  });
  const practitioner = (await ctx.repo.bookingPractitioners()).find((p) => p.id === practitionerId);
  if (!practitioner) {
    throw new ApiError(404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE', `No booking practitioner ${practitionerId}`);
  }
  return ok(singlePageBundle('searchset', [{ resource: bookingPractitionerOf(practitioner) }]));
}

export async function searchBookingPractitioners(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, SEARCH_PRACTITIONERS_OP);
  const values = readParameters(ctx, {
    operationId: SEARCH_PRACTITIONERS_OP,
    profile: BOOKING_PROFILE,
    source: req.query,
  });
  const data = await bookingData(ctx);
  const matches = applyFilters(data.practitioners, practitionerFilters(data), values);
  return ok(
    pagedBundle({
      operationId: SEARCH_PRACTITIONERS_OP,
      type: 'searchset',
      matches,
      paging: pagingOf(values),
      totalTag: 'maxCount',
      entry: (p) => ({ resource: bookingPractitionerOf(p) }),
    }),
  );
}

export async function getBookingPractitionerRole(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, GET_ROLE_OP);
  const { practitionerRoleId } = readParameters(ctx, {
    operationId: GET_ROLE_OP,
    profile: BOOKING_PROFILE,
    source: req.query,
    path: req.params,
  });
  const data = await bookingData(ctx);
  const role = data.roles.find((r) => r.id === practitionerRoleId);
  if (!role)
    throw new ApiError(404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE', `No booking practitioner role ${practitionerRoleId}`);
  return ok(singlePageBundle('searchset', [roleEntry(role, data)]));
}

export async function searchBookingPractitionerRoles(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, SEARCH_ROLES_OP);
  const values = readParameters(ctx, { operationId: SEARCH_ROLES_OP, profile: BOOKING_PROFILE, source: req.query });
  const data = await bookingData(ctx);
  const matches = applyFilters(data.roles, ROLE_FILTERS, values);
  return ok(
    pagedBundle({
      operationId: SEARCH_ROLES_OP,
      type: 'searchset',
      matches,
      paging: pagingOf(values),
      totalTag: 'maxCount',
      entry: (r) => roleEntry(r, data),
    }),
  );
}
