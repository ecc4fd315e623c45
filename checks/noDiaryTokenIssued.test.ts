import { describe, expect, it } from 'vitest';
import { noDiaryTokenIssued } from './noDiaryTokenIssued.ts';
import { respondedExchange } from './testing.ts';

describe('noDiaryTokenIssued', () => {
  it('passes when no token is issued', () => {
    expect(
      noDiaryTokenIssued.run(respondedExchange({ status: 200, body: { response: 1, access_token: null } })).outcome,
    ).toBe('pass');
  });
  it('fails on response 2 with a token', () => {
    expect(
      noDiaryTokenIssued.run(respondedExchange({ status: 200, body: { response: 2, access_token: 'x' } })).outcome,
    ).toBe('fail');
  });
});
