/** The tests' waits scale with the machine's load (test/support/patience.ts). */
import { expect, test } from 'vitest';
import { loadFactor } from './support/patience.ts';

test('idle or lightly loaded: 1; loaded: the load over the processors; never more than 4', () => {
  expect(loadFactor(0, 2)).toBe(1);
  expect(loadFactor(1.5, 2)).toBe(1);
  expect(loadFactor(5, 2)).toBe(2.5);
  expect(loadFactor(40, 2)).toBe(4);
  expect(loadFactor(3, 0)).toBe(3);
  expect(loadFactor(Number.NaN, 2)).toBe(1);
});
