import { describe, expect, it } from 'vitest';
import { clientRetrievesAddressItem as check } from './clientRetrievesAddressItem.ts';
import { clientExchange as x } from './testing.ts';

const search = (items: { key: string; addressType: string }[]) =>
  x('search-address', { method: 'GET', rawQuery: 'text=Downing+Street', responseBody: JSON.stringify(items) });
const retrieve = (query: string, answer: unknown[] = []) =>
  x('retrieve-address', { method: 'GET', rawQuery: query, responseBody: JSON.stringify(answer) });
const streets = search([{ key: 'GB|ST|DOWNING', addressType: 'Street' }]);
const addresses = search([{ key: 'GB|RM|A|10001', addressType: 'Address' }]);

describe('clientRetrievesAddressItem', () => {
  it('passes a retrieve of an Address item found by drilling down', () => {
    expect(check.run([streets, addresses, retrieve('id=GB%7CRM%7CA%7C10001')]).outcome).toBe('pass');
  });

  it('fails a retrieve of a street, or of a key no search answered', () => {
    expect(check.run([streets, retrieve('id=GB%7CST%7CDOWNING')]).message).toBe(
      'Expected the key of an Address item a search answered, received "GB|ST|DOWNING" (Street)',
    );
    expect(check.run([retrieve('id=GB%7CRM%7CA%7C10001')]).message).toMatch(/no search answered it/);
  });

  it('passes a key stored earlier whose retrieve gives the address (DEC-C-09)', () => {
    const f = check.run([retrieve('id=GB%7CRM%7CA%7C10004', [{ key: 'GB|RM|A|10004', line1: '1 Downing Street' }])]);
    expect(f.outcome).toBe('pass');
    expect(f.message).toContain('stored earlier: GB|RM|A|10004');
    // A street a search answered stays a street, whatever its retrieve gave.
    expect(check.run([streets, retrieve('id=GB%7CST%7CDOWNING', [{ key: 'x' }])]).outcome).toBe('fail');
  });

  it('skips a flow without a retrieve', () => {
    expect(check.run([streets]).outcome).toBe('skip');
  });
});
