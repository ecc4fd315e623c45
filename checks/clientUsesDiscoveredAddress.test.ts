import { describe, expect, it } from 'vitest';
import { operation } from '../spec/operations.ts';
import { clientUsesDiscoveredAddress as check } from './clientUsesDiscoveredAddress.ts';
import { clientExchange as x } from './testing.ts';

describe('clientUsesDiscoveredAddress', () => {
  it('passes a request that addresses an operation, and a token request', () => {
    expect(check.run(x('find-member-v2')).outcome).toBe('pass');
    expect(check.run(x(undefined, { own: true })).outcome).toBe('pass');
  });

  it('fails a request at no discovered address', () => {
    const f = check.run(x(undefined, { rawPath: '/membership/find-member' }));
    expect(f.outcome).toBe('fail');
    expect(f.message).toBe('Expected an address from the discovery documents, received POST /membership/find-member');
  });

  it("passes a browser's CORS preflight at a discovered address, and at the token endpoint", () => {
    const preflight = { method: 'GET', operation: operation('logout') };
    expect(check.run(x(undefined, { method: 'OPTIONS', rawPath: '/w/1/auth/logout', preflight })).outcome).toBe('pass');
    const token = { method: 'POST' };
    expect(check.run(x(undefined, { method: 'OPTIONS', own: true, preflight: token })).outcome).toBe('pass');
  });

  it('fails a CORS preflight at no discovered address', () => {
    const f = check.run(x(undefined, { method: 'OPTIONS', rawPath: '/auth/logout', preflight: { method: 'GET' } }));
    expect(f.outcome).toBe('fail');
    expect(f.message).toBe(
      'Expected an address from the discovery documents, received a CORS preflight (for GET) at /auth/logout',
    );
  });
});
