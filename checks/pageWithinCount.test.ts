import { describe, expect, it } from 'vitest';
import { pageWithinCount } from './pageWithinCount.ts';
import { bundle, respondedExchange } from './testing.ts';

const resources = (n: number) => Array.from({ length: n }, (_, i) => ({ resourceType: 'Claim', id: `c${i}` }));

describe('pageWithinCount', () => {
  it('passes at and below the count', () => {
    expect(pageWithinCount(2).run(respondedExchange({ body: bundle(resources(2)) })).outcome).toBe('pass');
    expect(pageWithinCount(2).run(respondedExchange({ body: bundle([]) })).outcome).toBe('pass');
    expect(pageWithinCount(2).run(respondedExchange({ body: { resourceType: 'Bundle' } })).outcome).toBe('pass');
  });

  it('fails above the count', () => {
    expect(pageWithinCount(2).run(respondedExchange({ body: bundle(resources(3)) })).message).toBe(
      'Expected at most 2 entries, received 3',
    );
  });

  it('fails on a non-Bundle', () => {
    expect(pageWithinCount(2).run(respondedExchange({ body: 'nope' })).outcome).toBe('fail');
    expect(pageWithinCount(2).run(respondedExchange({ body: { resourceType: 'OperationOutcome' } })).message).toBe(
      'Expected a Bundle, received resourceType "OperationOutcome"',
    );
  });
});
