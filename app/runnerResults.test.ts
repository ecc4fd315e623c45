import { describe, expect, it } from 'vitest';
import { operation } from '../spec/operations.ts';
import type { WorkerEvent } from '../core/events.ts';
import { silentOperations } from './runnerResults.ts';

const judged = (op: string, status: 'pass' | 'omit'): WorkerEvent => ({
  type: 'check-evaluated',
  result: { check: 'c', summary: 's', operation: op, requirements: [], level: 'MUST', status, message: 'm' },
});

describe('silentOperations', () => {
  const ops = ['get-bill', 'search-bills', 'ack-remittance', 'find-member-v1'].map(operation);
  const addresses = { 'get-bill': 'http://t/a', 'search-bills': 'http://t/b', 'ack-remittance': 'http://t/c' };

  it('makes an addressed operation with no suite result a MUST error', () => {
    const out = silentOperations(ops, addresses, [judged('get-bill', 'pass'), judged('ack-remittance', 'omit')]);
    expect(out.map((r) => [r.operation, r.level, r.status])).toEqual([['search-bills', 'MUST', 'error']]);
    expect(out[0]!.message).toMatch(/^Expected the suites to record results for this operation, received none/);
  });

  it('leaves unaddressed operations to the discovery check, and is quiet when every operation was judged', () => {
    expect(
      silentOperations(
        ops,
        addresses,
        ['get-bill', 'search-bills', 'ack-remittance'].map((o) => judged(o, 'pass')),
      ),
    ).toEqual([]);
  });
});
