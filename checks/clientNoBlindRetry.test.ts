import { describe, expect, it } from 'vitest';
import { clientNoBlindRetry as check } from './clientNoBlindRetry.ts';
import { clientExchange as x } from './testing.ts';

const search = (status: number, authorization = 'Bearer a') =>
  x('find-member-v2', { status, body: 'a=1', headers: { authorization } });

describe('clientNoBlindRetry', () => {
  it('passes a retry after a new token, a changed request, or a stop', () => {
    expect(check.run([search(401), x(undefined, { own: true }), search(200, 'Bearer b')]).outcome).toBe('pass');
    expect(check.run([search(401)]).outcome).toBe('pass');
    expect(
      check.run([search(400), x('find-member-v2', { body: 'a=1&sex=F', headers: { authorization: 'Bearer a' } })])
        .outcome,
    ).toBe('pass');
  });

  it('fails the same request sent again after a refusal', () => {
    const f = check.run([search(401), search(401)]);
    expect(f.outcome).toBe('fail');
    expect(f.message).toMatch(/POST \/x \(401\) sent again unchanged/);
  });

  it('skips a flow without refusals', () => {
    expect(check.run([search(200)]).outcome).toBe('skip');
  });
});
