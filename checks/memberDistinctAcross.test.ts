import { describe, expect, it } from 'vitest';
import { memberDistinctAcross } from './memberDistinctAcross.ts';
import { respondedExchange } from './testing.ts';

const check = memberDistinctAcross('msgId');
const batches = (...ids: unknown[]) => ({
  exchanges: ids.map((msgId) => respondedExchange({ body: { msgId, msgSender: 'Clearing' } })),
});

describe('memberDistinctAcross', () => {
  it('passes when every record carries its own value', () => {
    expect(check.run(batches(101, 102, '103'))).toMatchObject({
      outcome: 'pass',
      message: '3 records, 3 distinct msgId values',
    });
  });

  it('fails naming the repeated values', () => {
    const finding = check.run(batches(101, 102, 101));
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toBe('Expected distinct msgId values, received 101 (2 times)');
  });

  it('skips with fewer than two values and never throws on hostile bodies', () => {
    expect(check.run(batches(101)).outcome).toBe('skip');
    expect(check.run(batches(101, undefined, null)).outcome).toBe('skip');
    expect(
      check.run({ exchanges: [respondedExchange({ body: [] }), respondedExchange({ body: { msgId: 1 } })] }).outcome,
    ).toBe('fail');
    expect(check.run({ exchanges: [respondedExchange({ body: '{', truncated: true })] }).outcome).toBe('skip');
    expect(memberDistinctAcross('x').id).toBe(check.id);
  });
});
