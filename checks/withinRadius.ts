import { fail, pass, skip, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readBundle } from './readJson.ts';
import { resourceKey, resourceLabel } from './resourceKey.ts';
import { roleEntries, roleReferences } from './roleReferences.ts';

export interface LatLon {
  lat: number;
  lon: number;
}

export interface NearCircle extends LatLon {
  radiusKm: number;
}

/** Mean Earth radius (IUGG), as DEC-D2-16 fixes it. */
const EARTH_RADIUS_KM = 6371.0088;

const radians = (degrees: number): number => (degrees * Math.PI) / 180;

/** Great-circle distance in km by the haversine formula on a sphere of the mean Earth radius. */
export function haversineKm(a: LatLon, b: LatLon): number {
  const dLat = radians(b.lat - a.lat);
  const dLon = radians(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A Location's `position` when both members are finite numbers within ±90 / ±180. */
function positionOf(location: Record<string, unknown>): LatLon | undefined {
  const position = location.position;
  if (!isRecord(position)) return undefined;
  const { latitude: lat, longitude: lon } = position;
  if (typeof lat !== 'number' || typeof lon !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lon))
    return undefined;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return undefined;
  return { lat, lon };
}

const km = (d: number): string => `${d.toFixed(3)} km`;

/**
 * Every role returned for a `near` search lies within the radius (document 2, 4.11 and 4.12;
 * DEC-D2-16): on a Bundle with PractitionerRole entries and the included Location entries
 * (`_include=practitioner:location`), a role's `Location/<id>` references whose included
 * Location has a numeric `position` give its distances from the centre (haversine, mean Earth
 * radius 6371.0088 km); the role lies within when one of them is at most the radius plus a
 * tolerance of 0.5 % of the radius and 1 m. A role with several positioned locations is judged
 * leniently (one within suffices: `near` matches a role through any of its locations). Roles
 * none of whose locations has a known position are not judged; an empty Bundle passes and one
 * where no role could be judged is skipped.
 */
export function withinRadius(center: NearCircle): Check {
  const limit = center.radiusKm + center.radiusKm * 0.005 + 0.001;
  const where = `${center.radiusKm} km of ${center.lat},${center.lon}`;
  return {
    id: 'within-radius',
    summary: `Every role with a known location position lies within ${where}`,
    run: (x) => {
      const read = readBundle(x);
      if (!read.ok) return read.finding;
      if (read.value.entries.length === 0) return pass('no entries');
      const positions = new Map<string, LatLon[]>();
      for (const resource of read.value.resources) {
        if (resource.resourceType !== 'Location') continue;
        const key = resourceKey(resource);
        const position = positionOf(resource);
        if (key === undefined || position === undefined) continue;
        const known = positions.get(key);
        if (known === undefined) positions.set(key, [position]);
        else known.push(position);
      }
      const roles = roleEntries(read.value);
      const beyond: string[] = [];
      let judged = 0;
      let farthest = 0;
      for (const role of roles) {
        const distances = roleReferences(role.resource, 'location').flatMap((key) =>
          (positions.get(key) ?? []).map((p) => haversineKm(center, p)),
        );
        if (distances.length === 0) continue;
        judged += 1;
        const nearest = distances.reduce((a, b) => Math.min(a, b));
        farthest = Math.max(farthest, nearest);
        if (nearest > limit) beyond.push(`${resourceLabel(role.resource, role.index)} (${km(nearest)})`);
      }
      const evidence = {
        roles: roles.length,
        judged,
        beyond: beyond.length,
        limitKm: limit,
        farthestKm: judged > 0 ? farthest : undefined,
      };
      if (judged === 0) return skip(`No role has an included Location with a known position (${roles.length} roles)`);
      if (beyond.length === 0) {
        const unjudged = roles.length - judged;
        return pass(
          `${judged} ${judged === 1 ? 'role' : 'roles'} within ${where} (farthest ${km(farthest)})${unjudged > 0 ? `, ${unjudged} without a known position` : ''}`,
          evidence,
        );
      }
      return fail(
        `Expected every role within ${where}, received ${beyond.length} of ${judged} beyond it: ${listBrief(beyond, 3)}`,
        {
          ...evidence,
          offending: beyond.slice(0, 20),
        },
      );
    },
  };
}
