import { describe, expect, it } from 'vitest';
import { geocodePositionValid } from './geocodePositionValid.ts';
import { respondedExchange } from './testing.ts';

const run = (body: unknown) => geocodePositionValid.run(respondedExchange({ body }));
const good = { formattedAddress: '10 Downing Street\nLondon\nSW1A 2AA', latitude: '51.5034', longitude: '-0.1276' };

describe('geocodePositionValid', () => {
  it('passes on decimal strings within range', () => {
    expect(run(good).outcome).toBe('pass');
    for (const [latitude, longitude] of [
      ['90', '-180'],
      ['-90.0', '180'],
      ['+0.5', '.5'],
      ['0', '0.'],
    ]) {
      expect(run({ ...good, latitude, longitude }).outcome).toBe('pass');
    }
  });

  it('fails on numbers, exponents, empty or padded strings', () => {
    expect(run({ ...good, latitude: 51.5 }).message).toBe(
      'Expected decimal-string latitude within ±90, longitude within ±180 and a non-empty formattedAddress, received latitude 51.5 (a number, not a string)',
    );
    for (const latitude of ['5e1', '', ' 51.5', 'N51.5', '51,5', 'NaN', 'Infinity', '-', '.', null, undefined]) {
      expect(run({ ...good, latitude }).outcome).toBe('fail');
    }
  });

  it('fails outside the ranges', () => {
    expect(run({ ...good, latitude: '90.0001' }).message).toMatch(/received latitude "90.0001" outside ±90$/);
    expect(run({ ...good, longitude: '-180.5' }).outcome).toBe('fail');
    expect(run({ ...good, latitude: '-0.1276', longitude: '151.5034' }).outcome).toBe('pass');
  });

  it('fails on an empty or missing formattedAddress, listing every problem', () => {
    expect(run({ ...good, formattedAddress: '  ' }).outcome).toBe('fail');
    expect(run({ latitude: 'x' }).message).toBe(
      'Expected decimal-string latitude within ±90, longitude within ±180 and a non-empty formattedAddress, received latitude "x", longitude <absent>, formattedAddress <absent>',
    );
  });

  it('fails on a non-object body', () => {
    expect(run([good]).outcome).toBe('fail');
    expect(run('').outcome).toBe('fail');
  });
});
