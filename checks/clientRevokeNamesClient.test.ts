import { describe, expect, it } from 'vitest';
import { clientRevokeNamesClient as check } from './clientRevokeNamesClient.ts';
import { clientExchange as x } from './testing.ts';

const revoke = (headers: Record<string, string>) => x('revoke-token', { headers });

describe('clientRevokeNamesClient', () => {
  it('passes a revoke with ClientId and secret', () => {
    expect(check.run([revoke({ clientid: 'c1', secret: 's1' })]).outcome).toBe('pass');
  });

  it('fails a revoke without them', () => {
    const f = check.run([revoke({ clientid: 'c1' })]);
    expect(f.outcome).toBe('fail');
    expect(f.message).toBe('Expected the headers ClientId and secret on every revoke, received none of secret');
  });

  it('skips a flow without a revoke', () => {
    expect(check.run([x('logout')]).outcome).toBe('skip');
  });
});
