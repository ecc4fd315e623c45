import { describe, expect, it } from 'vitest';
import { filteredSubset } from './filteredSubset.ts';
import { bundle, respondedExchange } from './testing.ts';

const page = (...ids: string[]) =>
  respondedExchange({ body: bundle(ids.map((id) => ({ resourceType: 'Claim', id }))) });
const all = new Set(['Claim/a', 'Claim/b', 'c']);

describe('filteredSubset', () => {
  it('passes on a subset (keys or bare ids)', () => {
    expect(filteredSubset.run({ filtered: page('a', 'c'), all }).outcome).toBe('pass');
  });

  it('passes on an empty result', () => {
    expect(filteredSubset.run({ filtered: page(), all }).message).toBe('no entries');
  });

  it('fails naming records outside the unfiltered set', () => {
    expect(filteredSubset.run({ filtered: page('a', 'x', 'y'), all }).message).toBe(
      'Expected every filtered record among the unfiltered ones, received 2 not among them: Claim/x, Claim/y',
    );
  });

  it('skips when no entry has an id, fails on a non-Bundle', () => {
    expect(
      filteredSubset.run({ filtered: respondedExchange({ body: bundle([{ resourceType: 'Claim' }]) }), all }).outcome,
    ).toBe('skip');
    expect(filteredSubset.run({ filtered: respondedExchange({ body: '' }), all }).outcome).toBe('fail');
    expect(filteredSubset.run({ filtered: respondedExchange({ body: 'x' }), all }).outcome).toBe('fail');
  });
});
