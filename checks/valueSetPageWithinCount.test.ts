import { describe, expect, it } from 'vitest';
import { respondedExchange, valueSet } from './testing.ts';
import { valueSetPageWithinCount } from './valueSetPageWithinCount.ts';

const codes = (n: number) => Array.from({ length: n }, (_, i) => ({ system: 'ISC', code: `c${i}`, display: `C ${i}` }));

describe('valueSetPageWithinCount', () => {
  it('passes at and below the count, and on an empty code set', () => {
    expect(valueSetPageWithinCount(2).run(respondedExchange({ body: valueSet(codes(2)) })).message).toBe(
      '2 of at most 2 codes',
    );
    expect(valueSetPageWithinCount(2).run(respondedExchange({ body: valueSet([]) })).outcome).toBe('pass');
    expect(
      valueSetPageWithinCount(2).run(
        respondedExchange({ body: { resourceType: 'ValueSet', expansion: { total: 0, offset: 0 } } }),
      ).outcome,
    ).toBe('pass');
  });

  it('fails above the count, counting every element', () => {
    expect(valueSetPageWithinCount(2).run(respondedExchange({ body: valueSet(codes(3)) })).message).toBe(
      'Expected at most 2 codes, received 3',
    );
    expect(valueSetPageWithinCount(1).run(respondedExchange({ body: valueSet([null, 'x']) })).outcome).toBe('fail');
  });

  it('fails on a body that is not a ValueSet, skips a truncated one', () => {
    expect(valueSetPageWithinCount(2).run(respondedExchange({ body: '' })).outcome).toBe('fail');
    expect(
      valueSetPageWithinCount(2).run(respondedExchange({ body: { resourceType: 'OperationOutcome' } })).message,
    ).toBe('Expected a ValueSet, received resourceType "OperationOutcome"');
    expect(
      valueSetPageWithinCount(2).run(
        respondedExchange({ body: { resourceType: 'ValueSet', expansion: { contains: {} } } }),
      ).outcome,
    ).toBe('fail');
    expect(valueSetPageWithinCount(2).run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
  });
});
