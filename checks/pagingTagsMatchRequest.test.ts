import { describe, expect, it } from 'vitest';
import { pagingTagsMatchRequest } from './pagingTagsMatchRequest.ts';
import { bundle, respondedExchange } from './testing.ts';

const tagged = (page: unknown, count: unknown) =>
  respondedExchange({
    body: bundle([], {
      meta: {
        tag: [
          ...(page === undefined ? [] : [{ code: 'page', display: page }]),
          ...(count === undefined ? [] : [{ code: 'count', display: count }]),
        ],
      },
    }),
  });

describe('pagingTagsMatchRequest', () => {
  it('passes when the tags echo the request', () => {
    expect(pagingTagsMatchRequest({ page: 2, count: 5 }).run(tagged('2', '5')).outcome).toBe('pass');
    expect(pagingTagsMatchRequest({ page: 2 }).run(tagged('2', 'anything')).outcome).toBe('pass');
  });

  it('fails on a mismatch', () => {
    expect(pagingTagsMatchRequest({ page: 2, count: 5 }).run(tagged('1', '5')).message).toBe(
      'Expected tags page="2", count="5" (or a smaller page size the page keeps to), received page="1", count="5"',
    );
  });

  it('fails when a tag is absent', () => {
    expect(pagingTagsMatchRequest({ page: 2, count: 5 }).run(tagged('2', undefined)).message).toBe(
      'Expected tags page="2", count="5" (or a smaller page size the page keeps to), received page="2", count=<absent>',
    );
  });

  /** A page of `n` entries tagged page 1 and `count`. */
  const sized = (count: string, n: number) =>
    respondedExchange({
      body: bundle(
        Array.from({ length: n }, (_, i) => ({ resourceType: 'Claim', id: `c${i}` })),
        {
          meta: {
            tag: [
              { code: 'page', display: '1' },
              { code: 'count', display: count },
            ],
          },
        },
      ),
    });

  it('passes a smaller page size the server applied and the page keeps to (DEC-R-06), never a larger one', () => {
    expect(pagingTagsMatchRequest({ page: 1, count: 50 }).run(sized('20', 20)).outcome).toBe('pass');
    expect(pagingTagsMatchRequest({ page: 1, count: 50 }).run(sized('20', 21)).outcome).toBe('fail');
    expect(pagingTagsMatchRequest({ page: 1, count: 50 }).run(sized('60', 20)).outcome).toBe('fail');
    expect(pagingTagsMatchRequest({ page: 1, count: 50 }).run(sized('0', 0)).outcome).toBe('fail');
    expect(pagingTagsMatchRequest({ page: 1, count: 50 }).run(sized('2O', 0)).outcome).toBe('fail');
  });

  it('judges the value of a number display (its type is pagingTagsPresent business)', () => {
    expect(pagingTagsMatchRequest({ count: 5 }).run(tagged(undefined, 5)).outcome).toBe('pass');
    expect(pagingTagsMatchRequest({ count: 5 }).run(tagged(undefined, [5])).outcome).toBe('fail');
  });

  it('applies only when page or count was requested', () => {
    expect(pagingTagsMatchRequest({}).appliesTo?.(tagged('1', '1'))).toBe(false);
    expect(pagingTagsMatchRequest({ count: 1 }).appliesTo?.(tagged('1', '1'))).toBe(true);
  });

  it('fails on empty and non-JSON bodies', () => {
    expect(pagingTagsMatchRequest({ page: 1 }).run(respondedExchange({ body: '' })).outcome).toBe('fail');
    expect(pagingTagsMatchRequest({ page: 1 }).run(respondedExchange({ body: '<x>' })).outcome).toBe('fail');
  });
});
