import { describe, expect, it } from 'vitest';
import { accountsErrorBody } from './accountsErrorBody.ts';
import { respondedExchange } from './testing.ts';

const run = (status: number, body: unknown, truncated = false) =>
  accountsErrorBody.run(respondedExchange({ status, body, truncated }));

describe('accountsErrorBody', () => {
  it('passes on {message, code} with code the status', () => {
    const finding = run(403, { message: 'Features not found', code: 403 });
    expect(finding).toMatchObject({ outcome: 'pass', message: '{message, code: 403}' });
    expect(finding.evidence).toEqual({ status: 403, code: 403, message: 'Features not found' });
  });

  it('fails when code differs from the status', () => {
    expect(run(422, { message: 'SU-UserId is missing', code: 400 }).message).toBe(
      'Expected {message: non-empty text, code: 422} (DEC-D3-04), received code 400 with HTTP 422',
    );
  });

  it('fails on a numeric string code and on a missing or empty message', () => {
    expect(run(403, { message: 'x', code: '403' }).message).toBe(
      'Expected {message: non-empty text, code: 403} (DEC-D3-04), received code "403" (a string, not a number)',
    );
    expect(run(403, { code: 403 }).message).toBe(
      'Expected {message: non-empty text, code: 403} (DEC-D3-04), received message <absent>',
    );
    expect(run(403, { message: '  ', code: 403 }).outcome).toBe('fail');
    expect(run(403, { message: 403, code: 403 }).message).toContain('message 403 (a number)');
    expect(run(403, {}).message).toBe(
      'Expected {message: non-empty text, code: 403} (DEC-D3-04), received message <absent> and code <absent>',
    );
  });

  it('fails on non-integer codes', () => {
    for (const code of [403.5, 1e300, null, true, [403], { value: 403 }])
      expect(run(403, { message: 'x', code }).outcome).toBe('fail');
  });

  it('never throws on hostile bodies; skips a truncated one', () => {
    expect(run(403, '').message).toBe('Expected a JSON body, received an empty body');
    expect(run(403, '<html>').outcome).toBe('fail');
    expect(run(403, [1, 2]).message).toBe('Expected a JSON object, received an array of 2');
    expect(run(403, 'null').outcome).toBe('fail');
    expect(run(403, { message: 'x'.repeat(10_000), code: 403 }).evidence?.message).toHaveLength(200);
    expect(run(403, '{"message":', true).outcome).toBe('skip');
  });
});
