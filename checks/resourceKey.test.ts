import { describe, expect, it } from 'vitest';
import { listBrief } from './listBrief.ts';
import { resourceKey, resourceLabel } from './resourceKey.ts';

describe('resourceKey', () => {
  it('keys by resourceType/id, or the bare id', () => {
    expect(resourceKey({ resourceType: 'Claim', id: 'a' })).toBe('Claim/a');
    expect(resourceKey({ id: 7 })).toBe('7');
    expect(resourceKey({ resourceType: 'Claim', id: '' })).toBeUndefined();
    expect(resourceKey({ resourceType: 'Claim', id: null })).toBeUndefined();
    expect(resourceKey(null)).toBeUndefined();
    expect(resourceLabel({}, 2)).toBe('entry 3');
  });

  it('lists briefly', () => {
    expect(listBrief(['a', 'b'])).toBe('a, b');
    expect(listBrief(['a', 'b', 'c', 'd', 'e'], 3)).toBe('a, b, c and 2 more');
  });
});
