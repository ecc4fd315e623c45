import { describe, expect, it } from 'vitest';
import { clientPagesToLastPage as check } from './clientPagesToLastPage.ts';
import { clientExchange as x } from './testing.ts';

/** Page `page` of 25 matches, 10 a page. */
const page = (n: number) => {
  const entries = Math.max(0, Math.min(10, 25 - (n - 1) * 10));
  const tag = [
    { code: 'page', display: String(n) },
    { code: 'count', display: '10' },
    { code: 'maxCount', display: '25' },
  ];
  return x('search-register-practitioners', {
    method: 'GET',
    rawQuery: `count=10&page=${n}`,
    responseBody: JSON.stringify({ total: 25, meta: { tag }, entry: Array.from({ length: entries }, () => ({})) }),
  });
};

describe('clientPagesToLastPage', () => {
  it('passes a client that stops at the last page, or on one empty page past it', () => {
    expect(check.run([page(1), page(2), page(3)]).outcome).toBe('pass');
    expect(check.run([page(1), page(2), page(3), page(4)]).outcome).toBe('pass');
  });

  it('fails a client that stops before the last page, or goes on past it', () => {
    expect(check.run([page(1)]).message).toBe(
      'Expected the pages up to the last one and no further, received count=10: stopped at page 1, which was not the last',
    );
    expect(check.run([page(1), page(2), page(3), page(4), page(5)]).message).toMatch(
      /2 pages requested after the last page 3/,
    );
  });

  it('skips a search of one page only', () => {
    expect(check.run([page(3)]).outcome).toBe('skip');
  });
});
