import { describe, expect, it } from 'vitest';
import { addressKeyMatches } from './addressKeyMatches.ts';
import { respondedExchange } from './testing.ts';

const KEY = 'GB|RM|A|12345678';
const run = (body: unknown) => addressKeyMatches(KEY).run(respondedExchange({ body }));

describe('addressKeyMatches', () => {
  it('passes when the first item has the key', () => {
    expect(run([{ key: KEY, line1: '10 Downing Street' }]).message).toBe(`key "${KEY}"`);
    expect(run([{ key: KEY }, { key: 'other' }]).outcome).toBe('pass');
  });

  it('fails on another key, also a differently encoded one', () => {
    expect(run([{ key: 'GB|RM|A|9' }]).message).toBe(`Expected key "${KEY}", received "GB|RM|A|9"`);
    expect(run([{ key: encodeURIComponent(KEY) }]).outcome).toBe('fail');
    expect(run([{ key: 'other' }, { key: KEY }]).outcome).toBe('fail');
    expect(run([{ id: KEY }]).message).toBe(`Expected key "${KEY}", received <absent>`);
  });

  it('fails on an empty array, odd items and non-arrays', () => {
    expect(run([]).message).toBe('Expected at least one retrieved address, received an empty array');
    expect(run([null]).message).toBe(`Expected key "${KEY}", received a first item null`);
    expect(run({ key: KEY }).message).toBe('Expected a JSON array, received an object without resourceType');
    expect(run('').outcome).toBe('fail');
  });
});
