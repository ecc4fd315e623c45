import { describe, expect, it } from 'vitest';
import { diaryResponseCode } from './diaryResponseCode.ts';
import { respondedExchange } from './testing.ts';

const run = (expected: 1 | 2 | 3, body: unknown, status = 200) =>
  diaryResponseCode(expected).run(respondedExchange({ status, body }));

describe('diaryResponseCode', () => {
  it('passes on Ok with a token, and on the others without one', () => {
    const ok = run(2, { access_token: 'diary-secret', response: 2 });
    expect(ok).toMatchObject({ outcome: 'pass', message: 'response 2 (Ok) with an access_token, HTTP 200' });
    expect(JSON.stringify(ok)).not.toContain('diary-secret');
    expect(run(1, { access_token: null, response: 1 }).message).toBe(
      'response 1 (Unauthorized) without an access_token, HTTP 200',
    );
    expect(run(3, { access_token: '', response: 3 }, 403).evidence).toEqual({
      status: 403,
      response: 3,
      accessToken: 'an empty string',
    });
    expect(run(3, { response: 3 }).outcome).toBe('pass');
  });

  it('fails on another response code', () => {
    expect(run(2, { access_token: 't', response: 3 }).message).toBe(
      'Expected response 2 (Ok), received 3 (SiteNotMapped)',
    );
    expect(run(1, { response: '1' }).message).toBe('Expected response 1 (Unauthorized), received "1"');
    expect(run(1, {}).message).toBe('Expected response 1 (Unauthorized), received <absent>');
    expect(run(1, { response: 7 }).message).toBe('Expected response 1 (Unauthorized), received 7');
  });

  it('fails on a missing token with Ok and a token otherwise, without showing it', () => {
    expect(run(2, { response: 2 }).message).toBe(
      'Expected a non-empty access_token with response 2 (Ok), received <absent>',
    );
    expect(run(2, { response: 2, access_token: ' ' }).outcome).toBe('fail');
    expect(run(2, { response: 2, access_token: 5 }).message).toContain('received a number');
    const leaked = run(1, { response: 1, access_token: 'should-not-be-here' });
    expect(leaked.message).toBe('Expected no access_token with response 1 (Unauthorized), received a string');
    expect(JSON.stringify(leaked)).not.toContain('should-not-be-here');
  });

  it('never throws on hostile bodies', () => {
    expect(run(2, '').outcome).toBe('fail');
    expect(run(2, [2]).outcome).toBe('fail');
    expect(run(2, { response: { value: 2 } }).message).toBe('Expected response 2 (Ok), received {"value":2}');
    expect(diaryResponseCode(2).run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
    expect(diaryResponseCode(1).id).toBe(diaryResponseCode(3).id);
  });
});
