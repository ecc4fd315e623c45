/**
 * The scenario test of row faults (rows/dN.test.ts): each fault has a scenario that starts a clean
 * and a faulty sandbox over real HTTP and asserts both sides, as server/faults/faults.test.ts does
 * for the catalogue's first faults.
 */
import { describe, expect, test } from 'vitest';
import { TestSandbox } from '../../testSupport.ts';
import type { RowFault } from './types.ts';

export type Scenario = (clean: TestSandbox, faulty: TestSandbox) => Promise<void>;

export function describeRowFaults(
  document: string,
  faults: readonly RowFault[],
  scenarios: Record<string, Scenario>,
): void {
  describe(`${document} row faults change the answer where the clean sandbox keeps the rule`, () => {
    test('every row fault has a scenario, and every scenario a fault', () => {
      expect(Object.keys(scenarios).sort()).toEqual(faults.map((f) => f.name).sort());
    });

    test('every row fault names the rows it proves', () => {
      for (const f of faults) expect(f.rows.length, f.name).toBeGreaterThan(0);
    });

    for (const f of faults) {
      test.concurrent(f.name, async () => {
        const clean = await TestSandbox.start();
        const faulty = await TestSandbox.start([f.name]);
        try {
          await scenarios[f.name]?.(clean, faulty);
        } finally {
          await Promise.all([clean.close(), faulty.close()]);
        }
      });
    }
  });
}
