import { describe, expect, it } from 'vitest';
import { refreshTokenRefused } from './refreshTokenRefused.ts';
import { respondedExchange } from './testing.ts';

describe('refreshTokenRefused', () => {
  it('passes on a 4xx without access token', () => {
    expect(refreshTokenRefused.run(respondedExchange({ status: 400, body: { error: 'invalid_grant' } })).outcome).toBe(
      'pass',
    );
  });
  it('fails when a new access token is issued', () => {
    const f = refreshTokenRefused.run(
      respondedExchange({ status: 200, body: { access_token: 'abc', token_type: 'Bearer' } }),
    );
    expect(f.outcome).toBe('fail');
    expect(f.message).toContain('new access_token');
  });
  it('fails on a 5xx', () => {
    expect(refreshTokenRefused.run(respondedExchange({ status: 500, body: '' })).outcome).toBe('fail');
  });
});
