import { describe, expect, it } from 'vitest';
import { bundle, respondedExchange, roleBundle } from './testing.ts';
import { haversineKm, withinRadius } from './withinRadius.ts';

const KM_PER_DEGREE_LAT = 111.1950802335329; // 6371.0088 × π / 180
const center = { lat: 51.5, lon: -0.1, radiusKm: 5 };
/** A point `km` north of the centre. */
const north = (km: number) => ({ latitude: center.lat + km / KM_PER_DEGREE_LAT, longitude: center.lon });
const location = (id: string, position?: unknown) => ({
  resourceType: 'Location',
  id,
  ...(position === undefined ? {} : { position }),
});
const role = (id: string, ...locations: string[]) => ({
  resourceType: 'PractitionerRole',
  id,
  practitioner: { reference: 'Practitioner/p1' },
  location: locations.map((l) => ({ reference: `Location/${l}` })),
});
const run = (roles: unknown[], included: unknown[]) =>
  withinRadius(center).run(respondedExchange({ body: roleBundle(roles, included) }));

describe('haversineKm', () => {
  it('matches known distances', () => {
    expect(haversineKm({ lat: 51.5074, lon: -0.1278 }, { lat: 48.8566, lon: 2.3522 })).toBeCloseTo(343.56, 1); // London–Paris
    expect(haversineKm({ lat: 0, lon: 0 }, { lat: 0, lon: 180 })).toBeCloseTo(Math.PI * 6371.0088, 6); // antipodes
    expect(haversineKm({ lat: 0, lon: 0 }, { lat: 1, lon: 0 })).toBeCloseTo(KM_PER_DEGREE_LAT, 6);
    expect(haversineKm({ lat: 90, lon: 0 }, { lat: 90, lon: 123 })).toBeCloseTo(0, 9); // same pole
    expect(haversineKm({ lat: 10, lon: 179.9 }, { lat: 10, lon: -179.9 })).toBeCloseTo(21.9, 1); // across the antimeridian
  });

  it('is symmetric and zero on one point', () => {
    const a = { lat: 51.5, lon: -0.1 };
    const b = { lat: 40.7, lon: -74 };
    expect(haversineKm(a, b)).toBeCloseTo(haversineKm(b, a), 9);
    expect(haversineKm(a, a)).toBe(0);
  });
});

describe('withinRadius', () => {
  it('passes roles within the radius, up to the tolerance', () => {
    const finding = run([role('r1', 'l1'), role('r2', 'l2')], [location('l1', north(1)), location('l2', north(5.025))]);
    expect(finding.outcome).toBe('pass');
    expect(finding.message).toBe('2 roles within 5 km of 51.5,-0.1 (farthest 5.025 km)');
  });

  it('fails roles beyond the radius plus tolerance', () => {
    const finding = run([role('r1', 'l1'), role('r2', 'l2')], [location('l1', north(1)), location('l2', north(5.03))]);
    expect(finding.message).toBe(
      'Expected every role within 5 km of 51.5,-0.1, received 1 of 2 beyond it: PractitionerRole/r2 (5.030 km)',
    );
  });

  it('fails a far role in another hemisphere', () => {
    expect(run([role('r1', 'l1')], [location('l1', { latitude: -33.9, longitude: 151.2 })]).outcome).toBe('fail');
  });

  it('does not judge roles without a known position', () => {
    const included = [
      location('l1', north(1)),
      location('l2'),
      location('l3', { latitude: '51.5', longitude: '-0.1' }),
      location('l4', { latitude: 95, longitude: 0 }),
      location('l5', { latitude: null, longitude: 0 }),
      location('l6', 'here'),
    ];
    const roles = [
      role('r1', 'l1'),
      role('r2', 'l2'),
      role('r3', 'l3'),
      role('r4', 'l4'),
      role('r5', 'l5'),
      role('r6', 'l6'),
      role('r7', 'missing'),
      role('r8'),
    ];
    const finding = run(roles, included);
    expect(finding.outcome).toBe('pass');
    expect(finding.message).toBe('1 role within 5 km of 51.5,-0.1 (farthest 1.000 km), 7 without a known position');
  });

  it('judges a role with several positioned locations by its nearest one', () => {
    expect(run([role('r1', 'far', 'near')], [location('far', north(50)), location('near', north(2))]).outcome).toBe(
      'pass',
    );
    expect(run([role('r1', 'far', 'unknown')], [location('far', north(50)), location('unknown')]).outcome).toBe('fail');
  });

  it('reads absolute Location references', () => {
    const r = {
      resourceType: 'PractitionerRole',
      id: 'r1',
      location: [{ reference: 'https://t.example/fhir/Location/l1' }],
    };
    expect(run([r], [location('l1', north(9))]).outcome).toBe('fail');
  });

  it('skips when nothing could be judged, passes an empty Bundle', () => {
    expect(run([role('r1', 'l1')], []).outcome).toBe('skip');
    expect(
      withinRadius(center).run(
        respondedExchange({ body: bundle([{ resourceType: 'Location', id: 'l1', position: north(1) }]) }),
      ).outcome,
    ).toBe('skip');
    expect(run([], []).message).toBe('no entries');
    expect(
      withinRadius(center).run(respondedExchange({ body: { resourceType: 'Bundle', type: 'searchset', total: 0 } }))
        .outcome,
    ).toBe('pass');
  });

  it('fails on a non-Bundle, skips a truncated one', () => {
    expect(withinRadius(center).run(respondedExchange({ body: { resourceType: 'OperationOutcome' } })).outcome).toBe(
      'fail',
    );
    expect(withinRadius(center).run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
  });
});
