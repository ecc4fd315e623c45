import { describe, expect, it } from 'vitest';
import { accountsErrorAnswer, matchesTemplate } from './accountsErrorAnswer.ts';
import { respondedExchange } from './testing.ts';

describe('matchesTemplate', () => {
  it('is exact without placeholders', () => {
    expect(matchesTemplate('Features not found', 'Features not found')).toBe(true);
    expect(matchesTemplate('Features not found', 'features not found')).toBe(false);
    expect(matchesTemplate('SNS_ID is Invalid.', 'SNS_ID is Invalid')).toBe(false);
  });

  it('lets each placeholder match any non-empty text', () => {
    const t = 'The SU-Site <site_id> and SU-User <user_id> authorisation is invalid';
    expect(matchesTemplate(t, 'The SU-Site S1 and SU-User U 2 authorisation is invalid')).toBe(true);
    expect(matchesTemplate(t, 'The SU-Site  and SU-User U2 authorisation is invalid')).toBe(false);
    expect(matchesTemplate(t, 'The SU-Site S1 and SU-User  authorisation is invalid')).toBe(false);
    expect(matchesTemplate(t, 'The SU-Site S1 and SU-User U2 authorisation is valid')).toBe(false);
    expect(matchesTemplate('<a>', '')).toBe(false);
    expect(matchesTemplate('<a>', 'x')).toBe(true);
    expect(matchesTemplate('<a><b>', 'x')).toBe(false);
    expect(matchesTemplate('<a><b>', 'xy')).toBe(true);
    expect(matchesTemplate('A <x> A', 'A A')).toBe(false);
    expect(matchesTemplate('A <x> A', 'A  A A')).toBe(true);
  });

  it('takes placeholder text containing the literal parts', () => {
    expect(matchesTemplate('site <s> is <t>', 'site a is b is c')).toBe(true);
    expect(matchesTemplate('x <a> y <b> z', 'x 1 y 2 y 3 z')).toBe(true);
  });

  it('treats regular-expression characters literally and stays fast on long text', () => {
    expect(matchesTemplate('a.b <x> (c)*', 'a.b q (c)*')).toBe(true);
    expect(matchesTemplate('a.b <x> (c)*', 'aXb q (c)')).toBe(false);
    const long = `${'a '.repeat(200_000)}!`;
    expect(matchesTemplate('<a> and <b> and <c>!', long)).toBe(false);
  });
});

describe('accountsErrorAnswer', () => {
  const check = accountsErrorAnswer({ status: 403, message: 'The SU-Site <site_id> status should be ACTIVE' });

  it('passes on the status and the filled-in message (trimmed)', () => {
    const finding = check.run(
      respondedExchange({ status: 403, body: { message: ' The SU-Site S9 status should be ACTIVE\n', code: 403 } }),
    );
    expect(finding).toMatchObject({
      outcome: 'pass',
      message: 'HTTP 403 with message "The SU-Site S9 status should be ACTIVE"',
    });
  });

  it('fails on the wrong status', () => {
    expect(
      check.run(respondedExchange({ status: 400, body: { message: 'The SU-Site S9 status should be ACTIVE' } }))
        .message,
    ).toBe(
      'Expected HTTP 403 with message "The SU-Site <site_id> status should be ACTIVE", received HTTP 400 with message "The SU-Site S9 status should be ACTIVE"',
    );
  });

  it('fails on another message, other letter case or an unfilled placeholder', () => {
    for (const message of [
      'Forbidden',
      'The SU-Site S9 status should be active',
      'The SU-Site  status should be ACTIVE',
    ]) {
      expect(check.run(respondedExchange({ status: 403, body: { message } })).outcome).toBe('fail');
    }
  });

  it('describes bodies without a message', () => {
    const received = (body: unknown) =>
      check.run(respondedExchange({ status: 403, body })).message.split(', received ')[1];
    expect(received('')).toBe('HTTP 403 with an empty body');
    expect(received('<html>oops')).toBe('HTTP 403 with a body that is not JSON');
    expect(received({ error: 'x' })).toBe('HTTP 403 with no message');
    expect(received([{ message: 'x' }])).toBe('HTTP 403 with no message');
    expect(received({ message: { text: 'x' } })).toBe('HTTP 403 with message {"text":"x"} (not text)');
  });

  it('skips a truncated body with the right status, keeps one id', () => {
    expect(check.run(respondedExchange({ status: 403, body: '{"message', truncated: true })).outcome).toBe('skip');
    expect(check.run(respondedExchange({ status: 500, body: '{"message', truncated: true })).outcome).toBe('fail');
    expect(accountsErrorAnswer({ status: 422, message: 'SU-UserId is missing' }).id).toBe(check.id);
  });
});
