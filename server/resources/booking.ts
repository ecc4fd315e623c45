/** Booking-service resources (Document 2, 2.3): booking Practitioner (4.12) and PractitionerRole (4.13). */
import type { BookingLocation, BookingPractitioner, BookingRole } from '../repo/model.ts';
import { REF_URL, refExtension } from './urls.ts';

export const BOOKING_ID_SYSTEM = `${REF_URL}/booking-id`;

const displayOf = (p: BookingPractitioner) => `${p.prefix} ${p.given.join(' ')} ${p.family}`;

export function bookingPractitionerOf(p: BookingPractitioner): Record<string, unknown> {
  return {
    resourceType: 'Practitioner',
    id: p.id,
    meta: { lastUpdated: p.lastUpdated },
    extension: [
      { url: refExtension('site'), valueReference: { reference: `Site/${p.siteId}`, display: p.siteName } },
      { url: refExtension('registeredNumber'), valueString: p.registeredNumber },
    ],
    identifier: [{ id: 'booking_identifier', system: BOOKING_ID_SYSTEM, value: p.id }],
    active: p.active,
    name: [{ family: p.family, given: p.given, prefix: [p.prefix] }],
    gender: p.gender,
  };
}

export function bookingRoleOf(
  r: BookingRole,
  practitioner: BookingPractitioner,
  location: BookingLocation,
): Record<string, unknown> {
  return {
    resourceType: 'PractitionerRole',
    id: r.id,
    meta: { lastUpdated: r.lastUpdated },
    identifier: [
      { id: 'booking_identifier', use: 'official', system: BOOKING_ID_SYSTEM, value: r.id },
      { id: 'external_identifier', use: 'official', system: `${REF_URL}/external-id`, value: r.externalId },
    ],
    active: r.active,
    practitioner: { reference: `Practitioner/${practitioner.id}`, display: displayOf(practitioner) },
    location: [{ reference: `Location/${location.id}`, display: location.name }],
  };
}
