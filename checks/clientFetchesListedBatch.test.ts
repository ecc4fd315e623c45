import { describe, expect, it } from 'vitest';
import { clientFetchesListedBatch as check } from './clientFetchesListedBatch.ts';
import { clientExchange as x } from './testing.ts';

const list = (ids: string[]) =>
  x('list-pending-remittances', {
    method: 'GET',
    responseBody: JSON.stringify({ resourceType: 'Bundle', entry: ids.map((id) => ({ resource: { id } })) }),
  });
const get = (id: string) =>
  x('get-remittance-details', { method: 'GET', rawPath: `/claims/claimresponse/$batch/${id}` });
const ack = (id: string) => x('ack-remittance', { method: 'DELETE', rawPath: `/claims/claimresponse/$batch/${id}` });

describe('clientFetchesListedBatch', () => {
  it('passes a get and an acknowledgement of a listed batch', () => {
    expect(check.run([list(['B1', 'B2']), get('B2'), ack('B2')]).outcome).toBe('pass');
  });

  it('fails a batch fetched and acknowledged without a list', () => {
    const f = check.run([get('B2'), ack('B2')]);
    expect(f.outcome).toBe('fail');
    expect(f.message).toBe(
      'Expected the id of a batch a pending list answered (4.6), received a get of "B2" that no list answered; an acknowledgement of "B2" that no list answered',
    );
  });

  it('fails a batch the list did not answer, and one listed only after the get', () => {
    expect(check.run([list(['B1']), get('B2')]).outcome).toBe('fail');
    expect(check.run([get('B1'), list(['B1'])]).outcome).toBe('fail');
  });

  it('reads an unreadable list as listing nothing', () => {
    const cut = x('list-pending-remittances', { method: 'GET', responseBody: '{"resourceType":"Bun' });
    expect(check.run([cut, get('B1')]).outcome).toBe('fail');
  });

  it('skips a flow that names no batch', () => {
    expect(check.run([list(['B1'])]).outcome).toBe('skip');
  });
});
