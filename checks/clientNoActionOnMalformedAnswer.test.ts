import { describe, expect, it } from 'vitest';
import { clientNoActionOnMalformedAnswer as check } from './clientNoActionOnMalformedAnswer.ts';
import { clientExchange as x } from './testing.ts';

const brokenList = x('list-pending-remittances', {
  method: 'GET',
  responseBody: '{"resourceType":"Bundle","entry":[{"res',
});
const get = x('get-remittance-details', { method: 'GET', rawPath: '/b/B1' });
const ack = x('ack-remittance', { method: 'DELETE', rawPath: '/b/B1' });

describe('clientNoActionOnMalformedAnswer', () => {
  it('passes a client that stops, or reads the batch before acknowledging it', () => {
    expect(check.run([brokenList]).outcome).toBe('pass');
    expect(check.run([brokenList, get, ack]).outcome).toBe('pass');
  });

  it('fails an acknowledgement made on the strength of the unreadable list', () => {
    const f = check.run([brokenList, ack]);
    expect(f.outcome).toBe('fail');
    expect(f.message).toBe(
      'Expected no acknowledgement after a pending list that did not parse, received DELETE /b/B1',
    );
  });

  it('skips when no list was malformed', () => {
    expect(check.run([x('list-pending-remittances', { method: 'GET', responseBody: '{}' }), ack]).outcome).toBe('skip');
  });
});
