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
      'Expected tags page="2", count="5", received page="1", count="5"',
    );
  });

  it('fails when a tag is absent', () => {
    expect(pagingTagsMatchRequest({ page: 2, count: 5 }).run(tagged('2', undefined)).message).toBe(
      'Expected tags page="2", count="5", received page="2", count=<absent>',
    );
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
