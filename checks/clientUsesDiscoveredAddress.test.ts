import { describe, expect, it } from 'vitest';
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
});
