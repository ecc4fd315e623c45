import { describe, expect, test } from 'vitest';
import { notServerError } from './notServerError.ts';
import { respondedExchange } from './testing.ts';

describe('notServerError', () => {
  test.each([200, 204, 400, 404, 422, 499])('passes on HTTP %i', (status) => {
    expect(notServerError.run(respondedExchange({ status })).outcome).toBe('pass');
  });
  test.each([500, 502, 503])('fails on HTTP %i', (status) => {
    const f = notServerError.run(respondedExchange({ status }));
    expect(f.outcome).toBe('fail');
    expect(f.message).toBe(`Expected an answer other than a server error, received HTTP ${status}`);
  });
});
