/**
 * Valid values of one parameter of the operation table, in the documented form of its format
 * (spec/parameterFormats.ts; spec/types.ts `ParameterFormat`), with the bounds the documents and
 * decisions give: paging `count` 1 to the documented maximum (Document 2, 4.1: 1 to 1,000,
 * DEC-D2-03) or 1 to 50 where none is shown (DEC-D1-12), dates that are real calendar days,
 * ranges whose start is not after their end (DEC-D1-23, -71), comparators `le|ge|eq` with up to
 * two decimals and no sign (DEC-D1-24), Booleans `true`/`false` (DEC-D1-25), and `near` always
 * with its unit (DEC-D2-16, -59).
 */
import fc from 'fast-check';
import type { Parameter } from '../spec/types.ts';

/** Units of `near` (Document 2, 4.11/4.12; DEC-D2-16). */
export const NEAR_UNITS = ['km', 'mi', 'm'] as const;
export type NearUnit = (typeof NEAR_UNITS)[number];

/** Half the Earth's circumference in km: a radius that reaches every point (the widest edge of `near`). */
export const WIDEST_RADIUS_KM = 20_038;
export const KM_PER_UNIT: Readonly<Record<NearUnit, number>> = { km: 1, mi: 1.609344, m: 0.001 };

/** The radius, in the unit, that reaches every point of the Earth. */
export const widestRadius = (unit: NearUnit): number => Math.ceil(WIDEST_RADIUS_KM / KM_PER_UNIT[unit]);

/** `count` upper bound where the documents show none: the suite's own (DEC-D1-12, DEC-D2-27). */
export const SUITE_COUNT_MAXIMUM = 50;
/** Pages the random phase asks for; the coverage phase adds one past the last (`PAGE_PAST_THE_LAST`). */
export const RANDOM_PAGE_MAXIMUM = 5;
/** A page past the last of any plausible data set (the answer is an empty page, DEC-D1-12). */
export const PAGE_PAST_THE_LAST = 99_999;
/** Upper bound of a positive integer that is neither a page nor a page size. */
const OTHER_INTEGER_MAXIMUM = 1000;

/** The paging role of a parameter, by its name in the table (Documents 1/2 `page`/`count`; Document 3, 4.1 v2). */
export function pagingRole(p: Parameter): 'page' | 'count' | undefined {
  if (p.format !== 'positive-integer') return undefined;
  if (p.name === 'page' || p.name === 'pageNumber') return 'page';
  if (p.name === 'count' || p.name === 'maxRecordsPerPage') return 'count';
  return undefined;
}

/**
 * The documented maximum of a positive integer, read from the table's description ("Records per
 * page, 1 to 1000", Document 2, 4.1; DEC-D2-03), or undefined when the documents show none.
 */
export function documentedMaximum(p: Parameter): number | undefined {
  if (p.format !== 'positive-integer') return undefined;
  const m = /\b1 to ([\d,]+)\b/.exec(p.description);
  return m ? Number(m[1].replace(/,/g, '')) : undefined;
}

/** The inclusive bounds of valid values of a positive integer. */
export function integerBounds(p: Parameter): { min: number; max: number } {
  const role = pagingRole(p);
  if (role === 'page') return { min: 1, max: RANDOM_PAGE_MAXIMUM };
  if (role === 'count') return { min: 1, max: documentedMaximum(p) ?? SUITE_COUNT_MAXIMUM };
  return { min: 1, max: documentedMaximum(p) ?? OTHER_INTEGER_MAXIMUM };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Days between 1900-01-01 and 2099-12-31, as day numbers since the epoch (UTC). */
const FIRST_DAY = Date.UTC(1900, 0, 1) / 86_400_000;
const LAST_DAY = Date.UTC(2099, 11, 31) / 86_400_000;
const dayText = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

/** A real calendar date `YYYY-MM-DD` (1900 to 2099), shrinking towards 1900-01-01. */
export const dateValue = (): fc.Arbitrary<string> => fc.integer({ min: FIRST_DAY, max: LAST_DAY }).map(dayText);

/** `YYYY-MM-DDTHH:MM` of a minute number since the epoch (negative before 1970). */
const minuteText = (minutes: number) => new Date(minutes * 60_000).toISOString().slice(0, 16);
const minuteOf = (day: number, minute: number) => minuteText(day * 1440 + minute);
const minuteValue = () =>
  fc.record({ day: fc.integer({ min: FIRST_DAY, max: LAST_DAY }), minute: fc.integer({ min: 0, max: 1439 }) });

/** Two ordered day numbers, start not after end. */
const orderedDays = () =>
  fc
    .tuple(fc.integer({ min: FIRST_DAY, max: LAST_DAY }), fc.integer({ min: 0, max: 3660 }))
    .map(([start, length]) => [start, Math.min(LAST_DAY, start + length)] as const);

/** `YYYY-MM-DD_YYYY-MM-DD`, start not after end (DEC-D1-71). */
export const dateRangeValue = (): fc.Arbitrary<string> => orderedDays().map(([a, b]) => `${dayText(a)}_${dayText(b)}`);

/** `YYYY-MM-DDTHH:MM` or an ordered range of two (DEC-D1-23). */
export const datetimeRangeValue = (): fc.Arbitrary<string> =>
  fc.oneof(
    minuteValue().map(({ day, minute }) => minuteOf(day, minute)),
    fc.tuple(minuteValue(), fc.integer({ min: 0, max: 60 * 24 * 400 })).map(([{ day, minute }, length]) => {
      const end = Math.min(LAST_DAY * 1440 + 1439, day * 1440 + minute + length);
      return `${minuteOf(day, minute)}_${minuteText(end)}`;
    }),
  );

/** A date or an RFC 3339 date-time (`Z`, `+hh:mm` or `-hh:mm`, optional fraction). */
export const dateTimeValue = (): fc.Arbitrary<string> =>
  fc
    .record({
      day: fc.integer({ min: FIRST_DAY, max: LAST_DAY }),
      second: fc.integer({ min: 0, max: 86_399 }),
      shape: fc.constantFrom('date', 'utc', 'offset', 'fraction'),
      offset: fc.integer({ min: -12, max: 14 }),
    })
    .map(({ day, second, shape, offset }) => {
      if (shape === 'date') return dayText(day);
      const time = `${pad(Math.floor(second / 3600))}:${pad(Math.floor(second / 60) % 60)}:${pad(second % 60)}`;
      const zone = shape === 'offset' ? `${offset < 0 ? '-' : '+'}${pad(Math.abs(offset))}:00` : 'Z';
      return `${dayText(day)}T${time}${shape === 'fraction' ? '.250' : ''}${zone}`;
    });

/** `le|ge|eq` and a decimal of up to two places, no sign (DEC-D1-24). */
export const comparatorValue = (): fc.Arbitrary<string> =>
  fc
    .record({
      op: fc.constantFrom('le', 'ge', 'eq'),
      whole: fc.integer({ min: 0, max: 100_000 }),
      places: fc.constantFrom(0, 1, 2),
      fraction: fc.integer({ min: 0, max: 99 }),
    })
    .map(({ op, whole, places, fraction }) =>
      places === 0 ? `${op}${whole}` : `${op}${whole}.${pad(fraction).slice(0, places)}`,
    );

const decimalText = (v: number, places: number) => String(Number(v.toFixed(places)));

/** `lat:lon:distance:units`, always with the unit (DEC-D2-59), radius above zero. */
export const nearValue = (): fc.Arbitrary<string> =>
  fc
    .record({
      lat: fc.integer({ min: -90_000, max: 90_000 }),
      lon: fc.integer({ min: -180_000, max: 180_000 }),
      unit: fc.constantFrom(...NEAR_UNITS),
      tenths: fc.integer({ min: 1, max: 10_000 }),
    })
    .map(
      ({ lat, lon, unit, tenths }) =>
        `${decimalText(lat / 1000, 3)}:${decimalText(lon / 1000, 3)}:${decimalText(tenths / 10, 1)}:${unit}`,
    );

/** A radius: tenths of a unit above zero, with a unit or without (DEC-D2-16: km by default). */
export const distanceValue = (): fc.Arbitrary<string> =>
  fc
    .record({ tenths: fc.integer({ min: 1, max: 10_000 }), unit: fc.constantFrom('', ...NEAR_UNITS) })
    .map(({ tenths, unit }) => `${decimalText(tenths / 10, 1)}${unit}`);

/** Free text: letters and digits only, so the value means the same raw, form- and URL-encoded. */
export const textValue = (): fc.Arbitrary<string> => TEXT;
// Built once: compiling the pattern is most of the cost of building a request arbitrary.
const TEXT = fc.stringMatching(/^[A-Za-z0-9]{1,12}$/);

/**
 * An arbitrary of the valid values of a parameter (Document 1, 4; Document 2, 4; Document 3, 4:
 * the formats of spec/types.ts). Shrinks towards the simplest value of the form.
 */
export function parameterValue(p: Parameter): fc.Arbitrary<string> {
  switch (p.format) {
    case 'string':
      return textValue();
    case 'enum': {
      const values = p.values ?? [];
      if (values.length === 0) throw new Error(`Enum parameter ${p.name} has no values in the operation table`);
      return fc.constantFrom(...values);
    }
    case 'date':
      return dateValue();
    case 'date-range':
      return dateRangeValue();
    case 'datetime-range':
      return datetimeRangeValue();
    case 'date-time':
      return dateTimeValue();
    case 'comparator-decimal':
      return comparatorValue();
    case 'boolean':
      return fc.constantFrom('true', 'false');
    case 'positive-integer':
      return fc.integer(integerBounds(p)).map(String);
    case 'near':
      return nearValue();
    case 'distance':
      return distanceValue();
  }
}
