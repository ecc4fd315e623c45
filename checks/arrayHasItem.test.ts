import { describe, expect, it } from 'vitest';
import { arrayHasItem } from './arrayHasItem.ts';
import { respondedExchange } from './testing.ts';

const isAddress = (item: Record<string, unknown>) => item.addressType === 'Address';
const check = arrayHasItem('of type Address', isAddress);
const run = (body: unknown) => check.run(respondedExchange({ body }));

describe('arrayHasItem', () => {
  it('passes when some item satisfies the predicate', () => {
    expect(
      run([
        { key: 'a', addressType: 'Street' },
        { key: 'b', addressType: 'Address' },
      ]).message,
    ).toBe('item 2 of 2 is of type Address');
  });

  it('fails when none does', () => {
    expect(run([{ key: 'a', addressType: 'Street' }]).message).toBe(
      'Expected an item of type Address, received none among 1 item',
    );
    expect(run([]).message).toBe('Expected an item of type Address, received an empty array');
    expect(run([null, 'Address', ['Address']]).message).toBe(
      'Expected an item of type Address, received none among 3 items',
    );
  });

  it('treats a predicate that throws or does not answer true as no match', () => {
    const fragile = arrayHasItem('with a first line', (item) => (item.lines as string[])[0] !== '');
    expect(fragile.run(respondedExchange({ body: [{ key: 'a' }] })).outcome).toBe('fail');
    const vague = arrayHasItem('vague', () => undefined);
    expect(vague.run(respondedExchange({ body: [{ key: 'a' }] })).outcome).toBe('fail');
  });

  it('fails on a non-array body, skips a truncated one', () => {
    expect(run({ items: [] }).message).toBe('Expected a JSON array, received an object without resourceType');
    expect(run('').outcome).toBe('fail');
    expect(check.run(respondedExchange({ body: '[', truncated: true })).outcome).toBe('skip');
  });
});
