import { describe, expect, it } from 'vitest';
import { respondedExchange, valueSet } from './testing.ts';
import { codeKey, codeLabel, readValueSet } from './valueSet.ts';

describe('codeKey', () => {
  it('keys items system|code', () => {
    expect(codeKey({ system: 'ISC', code: 'A1' })).toBe('ISC|A1');
    expect(codeKey({ code: 'A1' })).toBe('|A1');
    expect(codeKey({ system: 7, code: 'A1' })).toBe('|A1');
    expect(codeKey({ system: 'ISC', code: 12 })).toBe('ISC|12');
  });

  it('gives nothing for items without a usable code', () => {
    for (const item of [null, 'A1', [], {}, { code: '' }, { code: null }, { code: Number.NaN }, { code: { a: 1 } }])
      expect(codeKey(item)).toBeUndefined();
    expect(codeLabel({}, 2)).toBe('item 3');
  });
});

describe('readValueSet', () => {
  it('reads a ValueSet (also without resourceType) and treats absent contains as empty', () => {
    expect(readValueSet(respondedExchange({ body: valueSet([{ code: 'a' }]) }))).toMatchObject({
      ok: true,
      value: { contains: [{ code: 'a' }] },
    });
    expect(readValueSet(respondedExchange({ body: { expansion: { total: 0 } } }))).toMatchObject({
      ok: true,
      value: { contains: [] },
    });
  });

  it('fails on another resource, a missing or odd expansion and a non-array contains', () => {
    const cases: Array<[unknown, string]> = [
      [{ resourceType: 'Bundle', entry: [] }, 'Expected a ValueSet, received resourceType "Bundle"'],
      [{ resourceType: 'ValueSet' }, 'Expected ValueSet.expansion to be an object, received <absent>'],
      [{ resourceType: 'ValueSet', expansion: null }, 'Expected ValueSet.expansion to be an object, received null'],
      [
        { resourceType: 'ValueSet', expansion: [] },
        'Expected ValueSet.expansion to be an object, received an array of 0',
      ],
      [
        { resourceType: 'ValueSet', expansion: { contains: 'x' } },
        'Expected ValueSet.expansion.contains to be an array, received "x"',
      ],
      [[1, 2], 'Expected a JSON object, received an array of 2'],
    ];
    for (const [body, message] of cases) {
      const read = readValueSet(respondedExchange({ body }));
      expect(!read.ok && read.finding.message).toBe(message);
    }
  });

  it('skips a truncated body', () => {
    const read = readValueSet(respondedExchange({ body: '{"expansion":', truncated: true }));
    expect(!read.ok && read.finding.outcome).toBe('skip');
  });
});
