import { describe, expect, it } from 'vitest';
import { tokenDetailsErrorAnswer } from './tokenDetailsErrorAnswer.ts';
import { respondedExchange } from './testing.ts';

describe('tokenDetailsErrorAnswer', () => {
  const check = tokenDetailsErrorAnswer({ status: 401, message: 'Invalid client credentials' });
  const run = (body: unknown, status = 401) => check.run(respondedExchange({ status, body }));

  it('passes with a number or a numeric string code, recording which', () => {
    const asNumber = run({ status: 'fail', message: 'Invalid client credentials', code: 401 });
    expect(asNumber).toMatchObject({
      outcome: 'pass',
      message: 'HTTP 401 with message "Invalid client credentials" and code 401 (a number)',
    });
    expect(asNumber.evidence?.codeType).toBe('number');
    const asString = run({ status: 'fail', message: ' Invalid client credentials ', code: '401' });
    expect(asString.outcome).toBe('pass');
    expect(asString.evidence?.codeType).toBe('string');
  });

  it('fails on the wrong status even with the right body', () => {
    expect(run({ status: 'fail', message: 'Invalid client credentials', code: 401 }, 403).message).toBe(
      'Expected HTTP 401 with {status: "fail", message: "Invalid client credentials", code: 401}, received HTTP 403',
    );
  });

  it('fails on a different message, status member or code', () => {
    expect(run({ status: 'fail', message: 'invalid client credentials', code: 401 }).message).toContain(
      'received HTTP 401 with message "invalid client credentials"',
    );
    expect(run({ status: 'error', message: 'Invalid client credentials', code: 401 }).message).toContain(
      'with status "error"',
    );
    expect(run({ status: 'fail', message: 'Invalid client credentials', code: 400 }).message).toContain(
      'with code 400',
    );
    expect(run({ status: 'fail', message: 'Invalid client credentials', code: ' 401' }).outcome).toBe('fail');
    expect(run({ status: 'fail', message: 'Invalid client credentials' }).message).toContain('with code <absent>');
  });

  it('never throws on hostile bodies', () => {
    expect(run('').message).toContain('received HTTP 401 with an empty body');
    expect(run('<html>').message).toContain('received HTTP 401 with a body that is not JSON');
    expect(run([1]).message).toContain('received HTTP 401 with a body that is an array');
    expect(run({ status: null, message: { x: 1 }, code: [401] }).message).toContain(
      'with status null, message {"x":1}, code [401]',
    );
    expect(check.run(respondedExchange({ status: 401, body: '{', truncated: true })).outcome).toBe('skip');
    expect(tokenDetailsErrorAnswer({ status: 400, message: 'redirect_uri is required' }).id).toBe(check.id);
  });
});
