import { describe, expect, it } from 'vitest';
import { sortOrdersReverse } from './sortOrdersReverse.ts';
import { bundle, respondedExchange } from './testing.ts';

const page = (...ids: string[]) =>
  respondedExchange({ body: bundle(ids.map((id) => ({ resourceType: 'Claim', id, created: id.slice(0, 1) }))) });

describe('sortOrdersReverse', () => {
  it('passes on exact reverses', () => {
    expect(sortOrdersReverse.run({ ascending: page('a', 'b', 'c'), descending: page('c', 'b', 'a') }).outcome).toBe(
      'pass',
    );
    expect(sortOrdersReverse.run({ ascending: page(), descending: page() }).outcome).toBe('pass');
  });

  it('fails showing the first differing position', () => {
    expect(sortOrdersReverse.run({ ascending: page('a', 'b', 'c'), descending: page('c', 'a', 'b') }).message).toBe(
      'Expected the descending order to reverse the ascending one, received Claim/a at position 2 where Claim/b was expected',
    );
  });

  it('fails when the record sets differ', () => {
    expect(sortOrdersReverse.run({ ascending: page('a', 'b'), descending: page('b', 'x') }).message).toBe(
      'Expected the same records in both orders, received only ascending: Claim/a; only descending: Claim/x',
    );
  });

  it('lets ties differ when given the sort key', () => {
    const tieKey = (r: Record<string, unknown>) => r.created as string;
    // a1 and a2 share key "a": either order is fine.
    expect(
      sortOrdersReverse.run({ ascending: page('a1', 'a2', 'b'), descending: page('b', 'a1', 'a2'), tieKey }).outcome,
    ).toBe('pass');
    expect(sortOrdersReverse.run({ ascending: page('a1', 'a2', 'b'), descending: page('b', 'a1', 'a2') }).outcome).toBe(
      'fail',
    );
    expect(
      sortOrdersReverse.run({ ascending: page('a1', 'b', 'c'), descending: page('b', 'c', 'a1'), tieKey }).outcome,
    ).toBe('fail');
  });

  it('fails when either answer is not a Bundle', () => {
    expect(sortOrdersReverse.run({ ascending: respondedExchange({ body: '' }), descending: page('a') }).message).toBe(
      'Expected the ascending answer to be a Bundle, received an empty body',
    );
    expect(sortOrdersReverse.run({ ascending: page('a'), descending: respondedExchange({ body: 'x' }) }).message).toBe(
      'Expected the descending answer to be a Bundle, received "x"',
    );
  });

  it('skips when no entry has an id', () => {
    const noIds = respondedExchange({ body: bundle([{ resourceType: 'Claim' }]) });
    expect(sortOrdersReverse.run({ ascending: noIds, descending: noIds }).outcome).toBe('skip');
  });

  it('compares every page of each order, never one page alone (DEC-R-06)', () => {
    // Five records served two to a page: the first pages of the two orders hold different records.
    const ascending = [page('a', 'b'), page('c', 'd'), page('e')];
    const descending = [page('e', 'd'), page('c', 'b'), page('a')];
    expect(sortOrdersReverse.run({ ascending, descending }).outcome).toBe('pass');
    expect(sortOrdersReverse.run({ ascending: ascending[0], descending: descending[0] }).outcome).toBe('fail');
    expect(sortOrdersReverse.run({ ascending, descending: [page('d', 'e'), page('b', 'c'), page('a')] }).outcome).toBe(
      'fail',
    );
  });
});
