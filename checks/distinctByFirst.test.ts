import { describe, expect, it } from 'vitest';
import { distinctByFirst } from './distinctByFirst.ts';

const role = (id: string, practitioner: string, distance: number) => ({
  resourceType: 'PractitionerRole',
  id,
  practitioner: { reference: `Practitioner/${practitioner}` },
  distance,
});
const plain = [role('r1', 'p1', 1), role('r2', 'p2', 2), role('r3', 'p1', 3), role('r4', 'p2', 4)];
const sortKey = (r: Record<string, unknown>) => r.distance as number;

describe('distinctByFirst', () => {
  it('passes when each practitioner keeps its first role, or one tied with it', () => {
    expect(distinctByFirst.run({ distinct: [plain[0], plain[1]], plain, field: 'practitioner', sortKey }).outcome).toBe(
      'pass',
    );
    const tied = [role('r1', 'p1', 1), role('r5', 'p1', 1)];
    expect(distinctByFirst.run({ distinct: [tied[1]], plain: tied, field: 'practitioner', sortKey }).outcome).toBe(
      'pass',
    );
  });

  it('fails when a later role is kept', () => {
    const finding = distinctByFirst.run({ distinct: [plain[2], plain[1]], plain, field: 'practitioner', sortKey });
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toContain('r3 instead of r1');
  });

  it('skips when nothing can be judged', () => {
    expect(distinctByFirst.run({ distinct: [role('r9', 'p9', 1)], plain, field: 'practitioner' }).outcome).toBe('skip');
  });
});
