/**
 * The tiers of the project's tests (test/support/tiers.ts): every file `npm test` leaves to
 * `npm run test:full` exists, is a test file vitest's include patterns reach, and is left out only
 * when `npm test` sets CONFORMANCE_TESTS=quick; CI runs the full tier.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from './support/cli.ts';
import { dayPart, excludedInTier, FULL_ONLY, quickDay } from './support/tiers.ts';

describe('test tiers', () => {
  test('every file left to the full tier exists and is a test file', () => {
    const missing = Object.keys(FULL_ONLY).filter((f) => !existsSync(join(ROOT, f)) || !f.endsWith('.test.ts'));
    expect(missing).toEqual([]);
  });

  test('the quick tier leaves them out, the full tier none', () => {
    expect(excludedInTier('quick').sort()).toEqual(Object.keys(FULL_ONLY).sort());
    expect(excludedInTier('full')).toEqual([]);
  });

  test('npm test runs the quick tier, npm run test:full the full one, and CI the full one', () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.test).toMatch(/CONFORMANCE_TESTS=quick vitest run$/);
    expect(scripts['test:full']).toMatch(/CONFORMANCE_TESTS=full vitest run$/);
    expect(readFileSync(join(ROOT, '.ci', 'run'), 'utf8')).toMatch(/^npm run test:full$/m);
  });

  test('over as many days as there are parts, the quick tier takes every batch once, in parts of about equal weight', () => {
    const items = [64, 64, 50, 48, 37, 23, 21, 20, 14, 11, 7, 5, 3, 2, 2, 1].map((w, i) => ({ i, w }));
    const parts = Array.from({ length: 6 }, (_, day) => dayPart(items, (x) => x.w, 6, 'quick', 20_000 + day));
    const taken = parts.flatMap((p) => p.items.map((x) => x.i));
    expect(taken.sort((a, b) => a - b)).toEqual(items.map((x) => x.i));
    const weights = parts.map((p) => p.items.reduce((sum, x) => sum + x.w, 0));
    expect(Math.max(...weights) - Math.min(...weights)).toBeLessThanOrEqual(64);
    // Kept in the list's order, and the same part all day.
    for (const p of parts) expect(p.items.map((x) => x.i)).toEqual([...p.items.map((x) => x.i)].sort((a, b) => a - b));
    expect(dayPart(items, (x) => x.w, 6, 'quick', 20_003)).toEqual(parts[3]);
    expect(parts.map((p) => p.part)).toEqual([20_000 % 6, 20_001 % 6, 20_002 % 6, 20_003 % 6, 20_004 % 6, 20_005 % 6]);
  });

  test('the full tier takes every batch', () => {
    const items = [3, 1, 2];
    expect(dayPart(items, (x) => x, 6, 'full', 7)).toEqual({ part: 0, of: 1, items });
  });

  test('CONFORMANCE_QUICK_DAY replays a day', () => {
    expect(quickDay({ CONFORMANCE_QUICK_DAY: '20419' })).toBe(20419);
    const before = Math.floor(Date.now() / 86_400_000);
    const day = quickDay({});
    expect([before, Math.floor(Date.now() / 86_400_000)]).toContain(day);
  });
});
