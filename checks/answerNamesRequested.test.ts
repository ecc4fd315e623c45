import { describe, expect, it } from 'vitest';
import { answerNamesRequested } from './answerNamesRequested.ts';
import { respondedExchange } from './testing.ts';

describe('answerNamesRequested', () => {
  const check = answerNamesRequested('siteId', 'SITE004', 'path siteId');
  it('passes when the member names the requested entity, compared as text', () => {
    expect(check.run(respondedExchange({ body: { siteId: 'SITE004', users: [] } })).outcome).toBe('pass');
    expect(
      answerNamesRequested('userId', '7', 'SU-UserId').run(respondedExchange({ body: { userId: 7 } })).outcome,
    ).toBe('pass');
  });
  it('fails on another entity, or without the member', () => {
    const other = check.run(respondedExchange({ body: { siteId: 'SITE001', users: [] } }));
    expect(other.outcome).toBe('fail');
    expect(other.message).toContain('Expected siteId "SITE004"');
    expect(check.run(respondedExchange({ body: { users: [] } })).outcome).toBe('fail');
  });
});
