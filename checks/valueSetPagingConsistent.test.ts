import { describe, expect, it } from 'vitest';
import { respondedExchange, valueSet } from './testing.ts';
import { valueSetPagingConsistent } from './valueSetPagingConsistent.ts';

const item = (code: string, system: unknown = 'ISC') => ({ system, code, display: code });
const page = (offset: unknown, total: unknown, ...codes: string[]) =>
  respondedExchange({
    body: valueSet(
      codes.map((c) => item(c)),
      { offset, total },
    ),
  });
const run = (pages: ReturnType<typeof page>[], complete = true, count = 2) =>
  valueSetPagingConsistent.run({ pages, count, complete });

describe('valueSetPagingConsistent', () => {
  it('passes on consistent pages', () => {
    const finding = run([page(0, 5, 'a', 'b'), page(2, 5, 'c', 'd'), page(4, 5, 'e')]);
    expect(finding.outcome).toBe('pass');
    expect(finding.message).toBe(
      'offsets (page − 1) × 2, total 5 on every page, 5 codes collected, no code on two pages',
    );
  });

  it('passes an incomplete walk collecting fewer than total, and an empty final page', () => {
    expect(run([page(0, 40, 'a', 'b'), page(2, 40, 'c', 'd')], false).outcome).toBe('pass');
    expect(run([page(0, 2, 'a', 'b'), page(2, 2)]).outcome).toBe('pass');
    expect(run([page(0, 0)]).outcome).toBe('pass');
  });

  it('fails on a wrong, missing or textual offset', () => {
    expect(run([page(0, 4, 'a', 'b'), page(1, 4, 'c', 'd')]).message).toBe(
      'Expected expansion.offset 2 on page 2 (count 2), received 1',
    );
    expect(run([page(undefined, 2, 'a', 'b')]).message).toBe(
      'Expected expansion.offset 0 on page 1 (count 2), received <absent>',
    );
    expect(run([page(0, 4, 'a', 'b'), page('2', 4, 'c', 'd')]).outcome).toBe('fail');
    // 1-based offsets are a different convention from DEC-D2-04.
    expect(run([page(1, 4, 'a', 'b'), page(3, 4, 'c', 'd')]).outcome).toBe('fail');
  });

  it('fails on a non-integer or changing total', () => {
    expect(run([page(0, '3', 'a', 'b')]).message).toBe(
      'Expected an integer expansion.total on every page, received "3" on page 1',
    );
    expect(run([page(0, -1)]).outcome).toBe('fail');
    expect(run([page(0, 1.5, 'a')]).outcome).toBe('fail');
    expect(run([page(0, 5, 'a', 'b'), page(2, 3, 'c')]).message).toBe(
      'Expected the same expansion.total on every page, received [5,3]',
    );
  });

  it('fails on a code on two pages, but not on the same code in two systems', () => {
    expect(run([page(0, 3, 'a', 'b'), page(2, 3, 'b')]).message).toBe(
      'Expected no code on two pages, received ISC|b on pages 1 and 2',
    );
    const twoSystems = [
      respondedExchange({ body: valueSet([item('a', 'ICD9'), item('b', 'ICD9')], { total: 3 }) }),
      respondedExchange({ body: valueSet([item('a', 'ICD10')], { offset: 2, total: 3 }) }),
    ];
    expect(run(twoSystems).outcome).toBe('pass');
  });

  it('fails a complete walk whose codes do not number total, an incomplete one exceeding it', () => {
    expect(run([page(0, 7, 'a', 'b'), page(2, 7, 'c')]).message).toBe(
      'Expected 7 codes over all pages (expansion.total), received 3',
    );
    expect(run([page(0, 1, 'a', 'b'), page(2, 1, 'c', 'd')], false).message).toBe(
      'Expected at most 1 code over the pages (expansion.total), received 4 so far',
    );
  });

  it('counts items without a code towards the collected codes', () => {
    const body = valueSet([item('a'), { display: 'no code' }], { total: 2 });
    expect(run([respondedExchange({ body })]).outcome).toBe('pass');
  });

  it('fails on an unreadable page, skips a truncated one and an empty walk', () => {
    expect(run([page(0, 2, 'a', 'b'), respondedExchange({ body: '<html>' })]).message).toBe(
      'Expected a readable ValueSet on every page, received "<html>" on page 2',
    );
    expect(run([page(0, 2, 'a', 'b'), respondedExchange({ body: { resourceType: 'Bundle' } })]).message).toBe(
      'Expected a readable ValueSet on every page, received resourceType "Bundle" on page 2',
    );
    expect(run([respondedExchange({ body: '{', truncated: true })]).outcome).toBe('skip');
    expect(run([]).outcome).toBe('skip');
  });
});
