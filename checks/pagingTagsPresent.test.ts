import { describe, expect, it } from 'vitest';
import { pagingTagsPresent } from './pagingTagsPresent.ts';
import { bundle, respondedExchange } from './testing.ts';

const tagged = (tag: unknown) => respondedExchange({ body: bundle([], { meta: { tag } }) });
const codes = ['page', 'count', 'maxCount'] as const;

describe('pagingTagsPresent', () => {
  it('passes when every tag is digit text', () => {
    const x = tagged([
      { code: 'page', display: '1' },
      { code: 'count', display: '10' },
      { code: 'maxCount', display: '37' },
    ]);
    const finding = pagingTagsPresent(codes).run(x);
    expect(finding.outcome).toBe('pass');
    expect(finding.message).toBe('page=1, count=10, maxCount=37');
  });

  it('names absent and mistyped tags', () => {
    const x = tagged([
      { code: 'page', display: '1' },
      { code: 'count', display: 10 },
      { code: 'maxCount', display: 'ten' },
    ]);
    expect(pagingTagsPresent([...codes, 'maxRecords']).run(x).message).toBe(
      'Expected paging tags page, count, maxCount, maxRecords as digit text, received count is the number 10, not text; maxCount is "ten", not digits; maxRecords absent',
    );
  });

  it('names a tag without display and odd displays', () => {
    const x = tagged([{ code: 'page' }, { code: 'count', display: null }, { code: 'maxCount', display: '-1' }]);
    expect(pagingTagsPresent(codes).run(x).message).toBe(
      'Expected paging tags page, count, maxCount as digit text, received page has no display; count is null, not text; maxCount is "-1", not digits',
    );
  });

  it('fails when meta or tag is missing or mistyped', () => {
    for (const body of [
      bundle([]),
      bundle([], { meta: null }),
      bundle([], { meta: { tag: 'x' } }),
      bundle([], { meta: { tag: [null, 3] } }),
    ]) {
      expect(pagingTagsPresent(['page']).run(respondedExchange({ body })).message).toBe(
        'Expected paging tags page as digit text, received page absent',
      );
    }
  });

  it('fails on empty and non-JSON bodies', () => {
    expect(pagingTagsPresent(codes).run(respondedExchange({ body: '' })).outcome).toBe('fail');
    expect(pagingTagsPresent(codes).run(respondedExchange({ body: '{' })).outcome).toBe('fail');
  });
});
