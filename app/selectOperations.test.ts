import { describe, expect, test } from 'vitest';
import { selectOperations } from './selectOperations.ts';

describe('selectOperations', () => {
  test('patterns with wildcards and commas select operation ids', () => {
    expect(selectOperations('find-member-*,get-bill').map((o) => o.id)).toEqual([
      'find-member-v1',
      'find-member-v2',
      'get-bill',
    ]);
    expect(selectOperations(undefined).length).toBeGreaterThanOrEqual(12);
    expect(() => selectOperations('nothing-like-this')).toThrow(/matches no operation/);
  });
});
