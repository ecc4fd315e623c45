import { describe, expect, it } from 'vitest';
import { pendingListUnchanged } from './pendingListUnchanged.ts';
import { respondedExchange } from './testing.ts';

const list = (ids: string[]) =>
  respondedExchange({
    body: {
      resourceType: 'Bundle',
      type: 'collection',
      total: ids.length,
      entry: ids.map((id) => ({ resource: { resourceType: 'Bundle', id } })),
    },
  });

describe('pendingListUnchanged', () => {
  it('passes on the same batches in another order', () => {
    expect(pendingListUnchanged.run({ before: ['B1', 'B2', 'B3'], after: list(['B3', 'B1', 'B2']) }).outcome).toBe(
      'pass',
    );
  });

  it('fails when a batch is gone or added', () => {
    expect(pendingListUnchanged.run({ before: ['B1', 'B2'], after: list(['B1']) }).message).toBe(
      'Expected the same pending batches, received 1 gone (B2) and 0 added',
    );
    expect(pendingListUnchanged.run({ before: ['B1'], after: list(['B1', 'B9']) }).outcome).toBe('fail');
  });
});
