import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { readBundle } from './readJson.ts';

/** The resource's `id`, as text when it is a string or a finite number. */
function idOf(resource: Record<string, unknown>): string | undefined {
  if (typeof resource.id === 'string') return resource.id;
  return typeof resource.id === 'number' && Number.isFinite(resource.id) ? String(resource.id) : undefined;
}

/** `value` of the `identifier[]` entry whose `id` is `booking_identifier`. */
function bookingIdentifiers(resource: Record<string, unknown>): unknown[] {
  if (!Array.isArray(resource.identifier)) return [];
  return resource.identifier
    .filter((i) => isRecord(i) && i.id === 'booking_identifier')
    .map((i) => (i as Record<string, unknown>).value);
}

/**
 * A booking get returns exactly the requested record (document 2, 4.12 and 4.13: "a single get
 * returns one entry"; DEC-D2-23): a Bundle with exactly one entry whose resource `id` is the id,
 * or whose `identifier[]` entry with id `booking_identifier` has it as `value`.
 */
export function singleEntryWithId(id: string): Check {
  return {
    id: 'single-entry-with-id',
    summary: `The Bundle holds exactly one entry, the record ${id}`,
    run: (x) => {
      const read = readBundle(x);
      if (!read.ok) return read.finding;
      const n = read.value.entries.length;
      if (n !== 1) return fail(`Expected exactly 1 entry, received ${n}`, { entries: n });
      const entry = read.value.entries[0];
      const resource = isRecord(entry) && isRecord(entry.resource) ? entry.resource : undefined;
      if (resource === undefined) return fail(`Expected the entry to hold a resource, received ${show(entry, 60)}`);
      const own = idOf(resource);
      const booking = bookingIdentifiers(resource);
      const evidence = { id: own, bookingIdentifier: booking };
      if (own === id) return pass(`one entry, id ${show(id)}`, evidence);
      if (booking.includes(id)) return pass(`one entry, booking_identifier ${show(id)}`, evidence);
      const received =
        booking.length === 0
          ? `id ${show(own, 40)}`
          : `id ${show(own, 40)} and booking_identifier ${show(booking.length === 1 ? booking[0] : booking, 40)}`;
      return fail(`Expected the entry to have id or booking_identifier ${show(id)}, received ${received}`, evidence);
    },
  };
}
