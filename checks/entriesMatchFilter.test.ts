import { describe, expect, it } from 'vitest';
import { entriesMatchFilter } from './entriesMatchFilter.ts';
import { bundle, respondedExchange } from './testing.ts';

const claim = (id: string, status?: unknown) => ({
  resourceType: 'Claim',
  id,
  ...(status === undefined ? {} : { status }),
});
const statusIs = (wanted: string) => (r: Record<string, unknown>) =>
  typeof r.status === 'string' ? r.status === wanted : undefined;
const check = entriesMatchFilter('status active', statusIs('active'));

describe('entriesMatchFilter', () => {
  it('passes when every entry matches', () => {
    const finding = check.run(respondedExchange({ body: bundle([claim('a', 'active'), claim('b', 'active')]) }));
    expect(finding.outcome).toBe('pass');
    expect(finding.message).toBe('2 entries match status active');
  });

  it('fails listing up to three offending ids and the count', () => {
    const body = bundle([claim('a', 'active'), claim('b', 'x'), claim('c', 'x'), claim('d', 'x'), claim('e', 'x')]);
    expect(check.run(respondedExchange({ body })).message).toBe(
      'Expected every entry to match status active, received 4 of 5 that do not: Claim/b, Claim/c, Claim/d and 1 more',
    );
  });

  it('does not count entries it cannot judge', () => {
    const finding = check.run(respondedExchange({ body: bundle([claim('a', 'active'), claim('b')]) }));
    expect(finding.outcome).toBe('pass');
    expect(finding.message).toBe('1 entry matches status active (1 could not be judged)');
  });

  it('skips a non-empty bundle where nothing could be judged', () => {
    expect(check.run(respondedExchange({ body: bundle([claim('a'), claim('b')]) })).outcome).toBe('skip');
  });

  it('passes an empty bundle', () => {
    expect(check.run(respondedExchange({ body: bundle([]) })).message).toBe('no entries');
    expect(
      check.run(respondedExchange({ body: { resourceType: 'Bundle', type: 'searchset', total: 0 } })).message,
    ).toBe('no entries');
  });

  it('keeps only the given resourceType', () => {
    const only = entriesMatchFilter('status active', statusIs('active'), { resourceType: 'Claim' });
    const body = bundle([claim('a', 'active'), { resourceType: 'Encounter', id: 'e', status: 'finished' }]);
    expect(only.run(respondedExchange({ body })).outcome).toBe('pass');
    expect(check.run(respondedExchange({ body })).outcome).toBe('fail');
    expect(
      only.run(respondedExchange({ body: bundle([{ resourceType: 'Encounter', id: 'e', status: 'x' }]) })).outcome,
    ).toBe('skip');
  });

  it('judges a single resource when the body is not a Bundle', () => {
    expect(check.run(respondedExchange({ body: claim('a', 'active') })).outcome).toBe('pass');
    expect(check.run(respondedExchange({ body: claim('a', 'closed') })).message).toBe(
      'Expected every entry to match status active, received 1 of 1 that do not: Claim/a',
    );
  });

  it('treats a predicate that trips over odd data as unable to judge', () => {
    const fragile = entriesMatchFilter(
      'first item date',
      (r) => (r.item as Array<{ date: string }>)[0].date === '2024-01-01',
    );
    expect(
      fragile.run(respondedExchange({ body: bundle([{ resourceType: 'Claim', id: 'a', item: null }]) })).outcome,
    ).toBe('skip');
  });

  it('labels entries without id by position', () => {
    expect(check.run(respondedExchange({ body: bundle([{ status: 'x' }]) })).message).toMatch(/: entry 1$/);
  });

  it('fails on empty, non-JSON and non-object bodies', () => {
    expect(check.run(respondedExchange({ body: '' })).outcome).toBe('fail');
    expect(check.run(respondedExchange({ body: 'x' })).outcome).toBe('fail');
    expect(check.run(respondedExchange({ body: [claim('a', 'active')] })).outcome).toBe('fail');
    expect(check.run(respondedExchange({ body: { resourceType: 'Bundle', entry: 'x' } })).outcome).toBe('fail');
  });
});
