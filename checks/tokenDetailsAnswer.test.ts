import { describe, expect, it } from 'vitest';
import { tokenDetailsAnswer } from './tokenDetailsAnswer.ts';
import { respondedExchange } from './testing.ts';

const SECRET = 'eyJ-secret-access-token';
const good = { access_token: SECRET, refresh_token: 'r-secret', expires_in: 3600, token_type: 'Bearer' };
const run = (body: unknown, status = 200) => tokenDetailsAnswer.run(respondedExchange({ status, body }));

describe('tokenDetailsAnswer', () => {
  it('passes on the documented answer', () => {
    const finding = run({ status: 'success', data: good });
    expect(finding).toMatchObject({ outcome: 'pass', message: 'status success, "Bearer" token expiring in 3600 s' });
    expect(run({ status: 'success', data: { ...good, refresh_token: '' } }).outcome).toBe('pass');
  });

  it('never shows the tokens', () => {
    for (const finding of [
      run({ status: 'success', data: good }),
      run({ status: 'fail', data: { ...good, expires_in: 0 } }),
    ]) {
      expect(JSON.stringify(finding)).not.toContain('secret');
    }
  });

  it('fails on another status', () => {
    expect(run({ status: 'success', data: good }, 201).message).toBe('Expected HTTP 200, received HTTP 201');
    expect(run({ status: 'ok', data: good }).message).toContain('received status "ok"');
  });

  it('fails on missing or mistyped token data', () => {
    expect(run({ status: 'success' }).message).toContain('received data <absent>');
    expect(run({ status: 'success', data: [good] }).message).toContain('received data an array of 1');
    expect(run({ status: 'success', data: { ...good, access_token: '' } }).message).toContain(
      'access_token an empty string',
    );
    expect(run({ status: 'success', data: { ...good, refresh_token: null } }).message).toContain('refresh_token null');
    expect(run({ status: 'success', data: { ...good, token_type: 1 } }).message).toContain('token_type 1');
    for (const expiresIn of [0, -5, 1.5, '3600', null, 1e300]) {
      expect(run({ status: 'success', data: { ...good, expires_in: expiresIn } }).outcome, String(expiresIn)).toBe(
        'fail',
      );
    }
  });

  it('never throws on hostile bodies', () => {
    expect(run('').message).toBe('Expected a JSON body, received an empty body');
    expect(run('<html>').outcome).toBe('fail');
    expect(run([]).outcome).toBe('fail');
    expect(run({ status: { a: [1] }, data: 'x' }).message).toContain('status {"a":[1]}; data "x"');
    expect(tokenDetailsAnswer.run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
  });
});
