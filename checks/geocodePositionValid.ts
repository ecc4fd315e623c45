import { fail, pass, show, type Check } from '../core/check.ts';
import { readObject } from './readJson.ts';

/** A plain decimal: optional sign, digits, optional fraction; no exponent, no spaces. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

function coordinateProblem(name: string, value: unknown, bound: number): string | undefined {
  if (typeof value !== 'string' || !DECIMAL.test(value))
    return `${name} ${show(value, 40)}${typeof value === 'string' || value === undefined ? '' : ` (a ${value === null ? 'null' : typeof value}, not a string)`}`;
  if (Math.abs(Number(value)) > bound) return `${name} ${show(value, 40)} outside ±${bound}`;
  return undefined;
}

/**
 * A geo-coding answer is a usable position (document 2, 4.8: `formattedAddress`, `latitude`,
 * `longitude`, all Strings; DEC-D2-15): latitude and longitude are decimal strings within ±90
 * and ±180, and `formattedAddress` is non-empty text.
 */
export const geocodePositionValid: Check = {
  id: 'geocode-position-valid',
  summary: 'Geo-coding gives decimal-string latitude (±90) and longitude (±180) and a formatted address',
  run: (x) => {
    const body = readObject(x);
    if (!body.ok) return body.finding;
    const { latitude, longitude, formattedAddress } = body.value;
    const evidence = { latitude, longitude, formattedAddress };
    const problems = [
      coordinateProblem('latitude', latitude, 90),
      coordinateProblem('longitude', longitude, 180),
    ].filter((p): p is string => p !== undefined);
    if (typeof formattedAddress !== 'string' || formattedAddress.trim() === '')
      problems.push(`formattedAddress ${show(formattedAddress, 40)}`);
    if (problems.length > 0) {
      return fail(
        `Expected decimal-string latitude within ±90, longitude within ±180 and a non-empty formattedAddress, received ${problems.join(', ')}`,
        evidence,
      );
    }
    return pass(`${latitude as string},${longitude as string} ${show(formattedAddress, 60)}`, evidence);
  },
};
