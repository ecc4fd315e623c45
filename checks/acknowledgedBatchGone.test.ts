import { describe, expect, it } from 'vitest';
import { acknowledgedBatchGone } from './acknowledgedBatchGone.ts';
import { bundle, respondedExchange } from './testing.ts';

const pending = (...ids: unknown[]) =>
  respondedExchange({
    body: bundle(
      ids.map((id) => ({ resourceType: 'Bundle', id, timestamp: '2024-01-01T00:00:00+00:00' })),
      { type: 'collection' },
    ),
  });

describe('acknowledgedBatchGone', () => {
  it('passes when the batch is no longer listed', () => {
    expect(acknowledgedBatchGone('b1').run(pending('b2', 'b3')).outcome).toBe('pass');
    expect(acknowledgedBatchGone('b1').run(pending()).outcome).toBe('pass');
  });

  it('fails when the batch is still listed', () => {
    expect(acknowledgedBatchGone('b1').run(pending('b2', 'b1')).message).toBe(
      'Expected batch "b1" gone from the pending list, received it among 2 entries',
    );
    expect(acknowledgedBatchGone('7').run(pending(7)).outcome).toBe('fail');
  });

  it('fails on a body that is not a list', () => {
    expect(acknowledgedBatchGone('b1').run(respondedExchange({ body: '' })).outcome).toBe('fail');
    expect(acknowledgedBatchGone('b1').run(respondedExchange({ body: { code: 'InvalidId' } })).outcome).toBe('fail');
  });
});
