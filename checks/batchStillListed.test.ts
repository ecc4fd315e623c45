import { describe, expect, it } from 'vitest';
import { batchStillListed } from './batchStillListed.ts';
import { respondedExchange } from './testing.ts';

const list = (ids: string[]) => ({
  resourceType: 'Bundle',
  type: 'collection',
  total: ids.length,
  entry: ids.map((id) => ({ resource: { resourceType: 'Bundle', id } })),
});

describe('batchStillListed', () => {
  it('passes when the batch is listed', () => {
    expect(batchStillListed('B1').run(respondedExchange({ body: list(['B0', 'B1']) })).outcome).toBe('pass');
  });

  it('fails when it is gone, and on a body that is not a Bundle', () => {
    expect(batchStillListed('B1').run(respondedExchange({ body: list(['B0']) })).message).toBe(
      'Expected batch "B1" still listed, received a list of 1 without it',
    );
    expect(batchStillListed('B1').run(respondedExchange({ body: {} })).outcome).toBe('fail');
  });
});
