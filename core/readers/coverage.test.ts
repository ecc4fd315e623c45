import { describe, expect, it } from 'vitest';
import { coverageHasMembershipNumber, coverageMember, coverageMembershipNumbers } from './coverage.ts';

const patient = (id: string) => ({ resourceType: 'Patient', id });

describe('coverage readers', () => {
  it('reads the member the beneficiary points at, else the first contained Patient', () => {
    const contained = [{ resourceType: 'Organization', id: 'o' }, patient('a'), patient('b')];
    expect(coverageMember({ contained, beneficiary: { reference: '#b' } })?.id).toBe('b');
    expect(coverageMember({ contained, beneficiary: { reference: '#zz' } })?.id).toBe('a');
    expect(coverageMember({ contained: patient('c') })?.id).toBe('c');
    expect(coverageMember({ contained: 'x' })).toBeUndefined();
  });

  it('reads the membershipNumber identifier, else every identifier value', () => {
    expect(
      coverageMembershipNumbers({
        identifier: [
          { id: 'other', value: 'X' },
          { id: 'membershipNumber', value: 'M1' },
        ],
      }),
    ).toEqual(['M1']);
    expect(coverageMembershipNumbers({ identifier: { value: 'M2' } })).toEqual(['M2']);
    expect(coverageMembershipNumbers({ identifier: [null, { value: 3 }] })).toEqual([]);
  });

  it('matches a member number ignoring case and spaces; undefined without one', () => {
    const c = { identifier: [{ id: 'membershipNumber', value: 'BUP1' }] };
    expect(coverageHasMembershipNumber(c, ' bup1 ')).toBe(true);
    expect(coverageHasMembershipNumber(c, 'BUP2')).toBe(false);
    expect(coverageHasMembershipNumber({}, 'BUP1')).toBeUndefined();
  });
});
