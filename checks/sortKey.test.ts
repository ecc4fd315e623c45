import { describe, expect, it } from 'vitest';
import { compareSortKeys, isoTime } from './sortKey.ts';

describe('sortKey', () => {
  it('reads ISO dates and date-times, not loose text', () => {
    expect(isoTime('2024-01-02')).toBe(Date.UTC(2024, 0, 2));
    expect(isoTime('2024-01-02T10:00:00+01:00')).toBe(Date.UTC(2024, 0, 2, 9));
    expect(isoTime('2024-01-02T10:00')).toBe(Date.UTC(2024, 0, 2, 10));
    expect(isoTime('1')).toBeUndefined();
    expect(isoTime('Smith')).toBeUndefined();
    expect(isoTime('2024-13-45')).toBeUndefined();
  });

  it('compares numbers numerically, dates by time and other text lexically', () => {
    expect(compareSortKeys(9, 10)).toBeLessThan(0);
    expect(compareSortKeys('2024-01-02T10:00:00+01:00', '2024-01-02T09:30:00Z')).toBeLessThan(0);
    expect(compareSortKeys('2024-01-02', '2024-01-02T00:00:00Z')).toBe(0);
    expect(compareSortKeys('b', 'a')).toBeGreaterThan(0);
    expect(compareSortKeys('9', '10')).toBeGreaterThan(0);
  });
});
