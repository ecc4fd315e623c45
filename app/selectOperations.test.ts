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

  test('a document stands for all of its operations, with ids beside it', () => {
    const d2 = selectOperations('d2');
    expect(d2.length).toBeGreaterThan(5);
    expect(d2.every((o) => o.document === 'D2')).toBe(true);
    expect(selectOperations('D2,get-bill').map((o) => o.id)).toEqual(
      [...selectOperations('get-bill').map((o) => o.id), ...d2.map((o) => o.id)].sort(
        (a, b) =>
          selectOperations(undefined).findIndex((o) => o.id === a) -
          selectOperations(undefined).findIndex((o) => o.id === b),
      ),
    );
  });
});
