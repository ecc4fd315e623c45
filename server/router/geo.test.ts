import { describe, expect, test } from 'vitest';
import { EARTH_RADIUS_KM, distanceKm, isDistance, isNear, nearQueryOf, parseNear, toKm } from './geo.ts';

const CHARING_CROSS = { latitude: 51.5074, longitude: -0.1278 };

describe('haversine distance (mean Earth radius 6371.0088 km)', () => {
  test('zero at the same point, symmetric', () => {
    expect(distanceKm(CHARING_CROSS, CHARING_CROSS)).toBe(0);
    const oxford = { latitude: 51.752, longitude: -1.2577 };
    expect(distanceKm(CHARING_CROSS, oxford)).toBeCloseTo(distanceKm(oxford, CHARING_CROSS), 9);
  });

  test('one degree of latitude is 2 pi R / 360', () => {
    expect(distanceKm({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 })).toBeCloseTo(
      (2 * Math.PI * EARTH_RADIUS_KM) / 360,
      6,
    );
  });

  test('known distances: London to Paris about 343.9 km, antipodes half the circumference', () => {
    expect(distanceKm(CHARING_CROSS, { latitude: 48.8566, longitude: 2.3522 })).toBeCloseTo(343.9, 0);
    expect(distanceKm({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 180 })).toBeCloseTo(
      Math.PI * EARTH_RADIUS_KM,
      6,
    );
  });

  test('units: km, miles (1.609344 km) and metres', () => {
    expect(toKm(10, 'km')).toBe(10);
    expect(toKm(10, 'mi')).toBeCloseTo(16.09344, 9);
    expect(toKm(500, 'm')).toBe(0.5);
  });
});

describe('near values', () => {
  test.each([
    ['51.5074:-0.1278', { centre: CHARING_CROSS }],
    ['51.5074:-0.1278:10', { centre: CHARING_CROSS, distance: 10 }],
    ['51.5074:-0.1278:10:mi', { centre: CHARING_CROSS, distance: 10, unit: 'mi' }],
    ['51.5074:-0.1278:2500:M', { centre: CHARING_CROSS, distance: 2500, unit: 'm' }],
    ['+51.5:0:0.5:km', { centre: { latitude: 51.5, longitude: 0 }, distance: 0.5, unit: 'km' }],
  ])('%s parses', (v, parsed) => {
    expect(parseNear(v)).toEqual(parsed);
    expect(isNear(v)).toBe(true);
  });

  test.each([
    'north:west',
    '51.5',
    '91:0:1',
    '0:181:1',
    '51.5:-0.1:-5',
    '51.5:-0.1:5:ft',
    '51.5:-0.1:five',
    '1:2:3:km:x',
    '51.5:-0.1:5km',
    '',
  ])('%s is malformed', (v) => {
    expect(parseNear(v)).toBeUndefined();
    expect(isNear(v)).toBe(false);
  });

  test('near-distance values: a decimal with an optional unit', () => {
    for (const ok of ['5', '5.5', '5km', '5mi', '500m', '3MI']) expect(isDistance(ok), ok).toBe(true);
    for (const bad of ['', 'five', '-5', '5 km', '5ft', 'km']) expect(isDistance(bad), bad).toBe(false);
  });
});

describe('nearQueryOf: centre and radius of near / near-distance (DEC-D2-16)', () => {
  const at = '51.5074:-0.1278';

  test('a distance in near, with or without units (default km)', () => {
    expect(nearQueryOf({ near: `${at}:10:km` }, 'km')).toEqual({ centre: CHARING_CROSS, radiusKm: 10 });
    expect(nearQueryOf({ near: `${at}:10` }, 'km')).toEqual({ centre: CHARING_CROSS, radiusKm: 10 });
    expect(nearQueryOf({ near: `${at}:10000:m` }, 'km')?.radiusKm).toBeCloseTo(10, 9);
    expect(nearQueryOf({ near: `${at}:10:mi` }, 'km')?.radiusKm).toBeCloseTo(16.09344, 9);
  });

  test('near-distance is used when near has only lat:lon, in km unless suffixed', () => {
    expect(nearQueryOf({ near: at, 'near-distance': '7' }, 'km')?.radiusKm).toBe(7);
    expect(nearQueryOf({ near: at, 'near-distance': '5mi' }, 'km')?.radiusKm).toBeCloseTo(8.04672, 9);
    expect(nearQueryOf({ near: at, 'near-distance': '750m' }, 'km')?.radiusKm).toBeCloseTo(0.75, 9);
  });

  test('near takes precedence when it holds a distance', () => {
    expect(nearQueryOf({ near: `${at}:3:km`, 'near-distance': '50' }, 'km')?.radiusKm).toBe(3);
  });

  test('no radius without one; no query without near', () => {
    expect(nearQueryOf({ near: at }, 'km')).toEqual({ centre: CHARING_CROSS });
    expect(nearQueryOf({ 'near-distance': '5' }, 'km')).toBeUndefined();
    expect(nearQueryOf({}, 'km')).toBeUndefined();
  });

  test('the default unit applies to unit-less distances only', () => {
    expect(nearQueryOf({ near: `${at}:10` }, 'mi')?.radiusKm).toBeCloseTo(16.09344, 9);
    expect(nearQueryOf({ near: at, 'near-distance': '10' }, 'mi')?.radiusKm).toBeCloseTo(16.09344, 9);
    expect(nearQueryOf({ near: `${at}:10:km` }, 'mi')?.radiusKm).toBe(10);
  });
});
