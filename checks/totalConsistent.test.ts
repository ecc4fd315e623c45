import { describe, expect, it } from 'vitest';
import { totalConsistent } from './totalConsistent.ts';
import { bundle, respondedExchange } from './testing.ts';

const page = (total: unknown, ...ids: string[]) =>
  respondedExchange({
    body: bundle(
      ids.map((id) => ({ resourceType: 'Claim', id })),
      { total },
    ),
  });

describe('totalConsistent', () => {
  it('passes when total is the match count on every page', () => {
    const finding = totalConsistent.run({
      pages: [page(5, 'a', 'b'), page(5, 'c', 'd'), page(5, 'e')],
      complete: true,
    });
    expect(finding.outcome).toBe('pass');
    expect(finding.message).toBe('total 5 on every page, 5 distinct entries collected');
  });

  it('passes when total is each page size', () => {
    expect(
      totalConsistent.run({ pages: [page(2, 'a', 'b'), page(2, 'c', 'd'), page(1, 'e')], complete: true }).outcome,
    ).toBe('pass');
  });

  it('passes on an incomplete walk when total is at least what was collected', () => {
    expect(totalConsistent.run({ pages: [page(40, 'a', 'b'), page(40, 'c', 'd')], complete: false }).outcome).toBe(
      'pass',
    );
  });

  it('passes on a single empty page with total 0', () => {
    expect(totalConsistent.run({ pages: [page(0)], complete: true }).outcome).toBe('pass');
  });

  it('fails when a complete walk collected another number', () => {
    const finding = totalConsistent.run({ pages: [page(7, 'a', 'b'), page(7, 'c')], complete: true });
    expect(finding.message).toBe(
      "Expected total to be each page's entry count or the same match count on every page (3 distinct entries collected), received totals [7,7] for page entries [2,1]",
    );
  });

  it('fails when totals change between pages', () => {
    expect(totalConsistent.run({ pages: [page(5, 'a', 'b'), page(4, 'c')], complete: false }).outcome).toBe('fail');
  });

  it('fails when an incomplete walk already collected more than total', () => {
    expect(totalConsistent.run({ pages: [page(1, 'a', 'b'), page(1, 'c', 'd')], complete: false }).outcome).toBe(
      'fail',
    );
  });

  it('counts overlapping entries once', () => {
    expect(totalConsistent.run({ pages: [page(3, 'a', 'b'), page(3, 'b', 'c')], complete: true }).outcome).toBe('pass');
  });

  it('fails on a missing or non-integer total', () => {
    expect(totalConsistent.run({ pages: [page(2, 'a', 'b'), page(undefined, 'c')], complete: true }).message).toBe(
      'Expected an integer total on every page, received <absent> on page 2',
    );
    expect(totalConsistent.run({ pages: [page('2', 'a', 'b')], complete: true }).outcome).toBe('fail');
    expect(totalConsistent.run({ pages: [page(1.5, 'a')], complete: true }).outcome).toBe('fail');
    expect(totalConsistent.run({ pages: [page(1e300, 'a')], complete: true }).outcome).toBe('fail');
  });

  it('fails on a page that is not a Bundle, skips a truncated one and an empty walk', () => {
    expect(
      totalConsistent.run({ pages: [page(1, 'a'), respondedExchange({ body: '<html>' })], complete: true }).message,
    ).toBe('Expected an integer total on every page, received page 2 that is not a readable Bundle');
    expect(
      totalConsistent.run({ pages: [respondedExchange({ body: '{', truncated: true })], complete: true }).outcome,
    ).toBe('skip');
    expect(totalConsistent.run({ pages: [], complete: true }).outcome).toBe('skip');
  });
});
