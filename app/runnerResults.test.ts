import { describe, expect, it } from 'vitest';
import { operation } from '../spec/operations.ts';
import type { WorkerEvent } from '../core/events.ts';
import { addressedByKey, silentOperations } from './runnerResults.ts';

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

describe('addressedByKey cites each row only where its words are judged', () => {
  const cited = (op: string, address: Parameters<typeof addressedByKey>[1], documentedLocation: boolean) =>
    addressedByKey(operation(op), address, 'x1', documentedLocation).requirements;

  it('an address found at the documented location: the key, the document holding it and its location', () => {
    expect(cited('list-pending-remittances', { url: 'http://t/claims/claimresponse/$batch' }, true)).toEqual([
      'D1-1-07',
      'D1-1-09',
      'D1-4.6-01',
    ]);
    // Configured elsewhere: the location is not judged.
    expect(cited('list-pending-remittances', { url: 'http://t/x' }, false)).toEqual(['D1-1-07', 'D1-4.6-01']);
  });

  it('a key missing: not the location, but the service no longer offers the operation', () => {
    expect(cited('list-pending-remittances', { problem: 'no key', lacking: 'key' }, true)).toEqual([
      'D1-1-07',
      'D1-4.6-01',
      'D1-1-04',
    ]);
    expect(cited('lookup-practitioners', { problem: 'no key', lacking: 'key' }, false)).toEqual([
      'D2-1-07',
      'D2-4.2-01',
      'D2-1-02',
    ]);
  });

  it('nothing usable at the documented address: the location too', () => {
    expect(cited('get-effective-prices', { problem: 'HTTP 404', lacking: 'document' }, true)).toEqual([
      'D3-1-07',
      'D3-1-08',
      'D3-4.5-01',
      'D3-1-05',
    ]);
  });
});
