import { describe, expect, it } from 'vitest';
import { isLastPage, pagingTagNumber, walkStep } from './paging.ts';

/** A Bundle of `n` entries with the given paging tags and total. */
const page = (n: number, tags: Record<string, string>, total?: number) => ({
  resourceType: 'Bundle',
  ...(total === undefined ? {} : { total }),
  meta: { tag: Object.entries(tags).map(([code, display]) => ({ code, display })) },
  entry: Array.from({ length: n }, (_, i) => ({ resource: { resourceType: 'Claim', id: `c${i}` } })),
});

describe('pagingTagNumber', () => {
  it('reads digit text and numbers, NaN otherwise', () => {
    expect(pagingTagNumber(page(0, { count: '20' }), 'count')).toBe(20);
    expect(pagingTagNumber(page(0, {}), 'count')).toBeNaN();
  });
});

describe('walkStep (DEC-R-06)', () => {
  it('ends at an empty page', () => {
    expect(walkStep(page(0, { count: '20', maxCount: '45' }, 45), 0, 40, 50).ends).toBe(true);
  });

  it('goes on past a page shorter than asked for while a stated count exceeds what was collected', () => {
    // A server capped at 20: 50 asked, 20 served, 45 matches.
    expect(walkStep(page(20, { page: '1', count: '20', maxCount: '45' }, 45), 20, 20, 50)).toMatchObject({
      ends: false,
    });
    // The same server echoing the 50 asked for in its count tag.
    expect(walkStep(page(20, { page: '1', count: '50', maxCount: '45' }, 45), 20, 20, 50).ends).toBe(false);
  });

  it('ends at a short page whose stated count is reached', () => {
    expect(walkStep(page(5, { page: '3', count: '20', maxCount: '45' }, 45), 5, 45, 50).ends).toBe(true);
    expect(walkStep(page(12, { page: '1', count: '50', maxCount: '12' }, 12), 12, 12, 50).ends).toBe(true);
  });

  it('asks for one more page when the tags do not say the page is the last', () => {
    // total is the page's entry count and no maxCount: nothing states the number of matches.
    expect(walkStep(page(5, { page: '3', count: '20' }, 5), 5, 45, 20).ends).toBe(false);
    // A full page: the next may hold more.
    expect(walkStep(page(20, { page: '2', count: '20', maxCount: '40' }, 40), 20, 40, 20).ends).toBe(false);
  });
});

describe('isLastPage (DEC-C-04, the client judge) is unchanged', () => {
  it('a page holding fewer entries than its count tag is last', () => {
    expect(isLastPage(page(5, { page: '3', count: '20', maxCount: '45' }, 45))).toBe(true);
    expect(isLastPage(page(20, { page: '1', count: '20', maxCount: '45' }, 45))).toBe(false);
  });
});
