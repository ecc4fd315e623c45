import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { FAMILY_WEIGHING } from './familyWeighing.ts';
import { familyFaultInfo } from './families.ts';

interface PowerFamilies {
  familyMissed?: { fault: string }[];
  familyUncited?: { fault: string }[];
}

const power = JSON.parse(
  readFileSync(new URL('../../spec/evidence/power.json', import.meta.url), 'utf8'),
) as PowerFamilies;
const listed = [...(power.familyMissed ?? []), ...(power.familyUncited ?? [])].map((f) => f.fault);

/** Verdicts still `open`: this number may only shrink (weigh a fault, then lower it). */
const OPEN_AT_MOST = 0;

describe('the family faults the power computation lists are weighed', () => {
  test('every fault of familyMissed and familyUncited has a verdict', () => {
    expect(listed.filter((f) => !(f in FAMILY_WEIGHING))).toEqual([]);
  });

  test('every weighed fault is a family fault of the catalogue, with a reason', () => {
    for (const [name, w] of Object.entries(FAMILY_WEIGHING)) {
      expect(familyFaultInfo(name), name).toBeDefined();
      expect(w.reason.length, name).toBeGreaterThan(20);
    }
  });

  test(`no more than ${OPEN_AT_MOST} verdicts stay open`, () => {
    const open = Object.entries(FAMILY_WEIGHING)
      .filter(([, w]) => w.verdict === 'open')
      .map(([name]) => name);
    expect(open.length, open.join(', ')).toBeLessThanOrEqual(OPEN_AT_MOST);
  });
});
