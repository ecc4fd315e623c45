import { describe, expect, it } from 'vitest';
import { differenceByMeaning, resourceUnchanged } from './resourceUnchanged.ts';
import { respondedExchange } from './testing.ts';

const before = {
  resourceType: 'Patient',
  id: 'P1',
  meta: { versionId: '1' },
  gender: 'male',
  name: [{ family: 'A', given: ['B'] }],
};

describe('resourceUnchanged', () => {
  it('passes by meaning: member order, null for absent and meta are not judged', () => {
    const after = {
      name: [{ given: ['B'], family: 'A', suffix: null }],
      gender: 'male',
      id: 'P1',
      resourceType: 'Patient',
      meta: { versionId: '2' },
      birthDate: null,
    };
    expect(resourceUnchanged(before).run(respondedExchange({ body: after })).outcome).toBe('pass');
  });
  it('fails when a value changed and names where', () => {
    const f = resourceUnchanged(before).run(respondedExchange({ body: { ...before, gender: 'other' } }));
    expect(f.outcome).toBe('fail');
    expect(f.message).toContain('gender');
  });
  it('compares lists in order', () => {
    expect(differenceByMeaning([1, 2], [2, 1])).toBe('[0]');
  });
});
