/**
 * Great-circle distances and the `near` parameter (Document 2, 4.11, 4.12; DEC-D2-16):
 * `lat:lon[:distance[:units]]`, units km, mi or m; `near-distance` is the radius when `near`
 * holds only lat:lon, in km unless it carries a unit suffix (`5mi`, `500m`).
 */
import type { GeoPoint } from '../repo/model.ts';

/** Mean Earth radius (IUGG), km. */
export const EARTH_RADIUS_KM = 6371.0088;

export type DistanceUnit = 'km' | 'mi' | 'm';

const KM_PER_UNIT: Readonly<Record<DistanceUnit, number>> = { km: 1, mi: 1.609344, m: 0.001 };

const rad = (deg: number) => (deg * Math.PI) / 180;

/** Haversine distance in km. */
export function distanceKm(a: GeoPoint, b: GeoPoint): number {
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function toKm(value: number, unit: DistanceUnit): number {
  return value * KM_PER_UNIT[unit];
}

const DECIMAL = /^[+-]?\d+(\.\d+)?$/;
const DISTANCE = /^(\d+(?:\.\d+)?)(km|mi|m)?$/i;

function coordinates(lat: string, lon: string): GeoPoint | undefined {
  if (!DECIMAL.test(lat) || !DECIMAL.test(lon)) return undefined;
  const latitude = Number(lat);
  const longitude = Number(lon);
  return Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180 ? { latitude, longitude } : undefined;
}

/** The parts of a `near` value, or undefined when it is malformed. */
export function parseNear(v: string): { centre: GeoPoint; distance?: number; unit?: DistanceUnit } | undefined {
  const parts = v.split(':');
  if (parts.length < 2 || parts.length > 4) return undefined;
  const centre = coordinates(parts[0], parts[1]);
  if (!centre) return undefined;
  if (parts.length === 2) return { centre };
  if (!/^\d+(\.\d+)?$/.test(parts[2])) return undefined;
  if (parts.length === 3) return { centre, distance: Number(parts[2]) };
  const unit = parts[3].toLowerCase();
  if (!(unit in KM_PER_UNIT)) return undefined;
  return { centre, distance: Number(parts[2]), unit: unit as DistanceUnit };
}

export const isNear = (v: string): boolean => parseNear(v) !== undefined;

/** A `near-distance` value: a non-negative decimal with an optional unit suffix. */
export const isDistance = (v: string): boolean => DISTANCE.test(v);

export interface NearQuery {
  centre: GeoPoint;
  /** Radius in km; undefined when neither `near` nor `near-distance` gives one. */
  radiusKm?: number;
}

/**
 * The centre and radius of validated `near` / `near-distance` values. `defaultUnit` is the unit of
 * a distance written without one (km by the document).
 */
export function nearQueryOf(
  values: Readonly<Record<string, string | undefined>>,
  defaultUnit: DistanceUnit,
): NearQuery | undefined {
  if (values.near === undefined) return undefined;
  const near = parseNear(values.near);
  if (!near) return undefined;
  if (near.distance !== undefined)
    return { centre: near.centre, radiusKm: toKm(near.distance, near.unit ?? defaultUnit) };
  const m = values['near-distance'] === undefined ? null : DISTANCE.exec(values['near-distance']);
  if (!m) return { centre: near.centre };
  return {
    centre: near.centre,
    radiusKm: toKm(Number(m[1]), (m[2]?.toLowerCase() as DistanceUnit | undefined) ?? defaultUnit),
  };
}
