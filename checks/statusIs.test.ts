import { describe, expect, it } from 'vitest';
import { statusIs } from './statusIs.ts';
import { respondedExchange } from './testing.ts';

describe('statusIs', () => {
  it('passes on the exact status', () => {
    const finding = statusIs(400).run(respondedExchange({ status: 400, body: 'anything' }));
    expect(finding).toMatchObject({ outcome: 'pass', message: 'HTTP 400' });
  });

  it('fails on any other status, even a close one', () => {
    expect(statusIs(400).run(respondedExchange({ status: 422 })).message).toBe('Expected HTTP 400, received HTTP 422');
    expect(statusIs(400).run(respondedExchange({ status: 200 })).outcome).toBe('fail');
    expect(statusIs(200).run(respondedExchange({ status: 204 })).outcome).toBe('fail');
  });

  it('keeps one id across parameters and does not look at the body', () => {
    expect(statusIs(400).id).toBe(statusIs(200).id);
    expect(statusIs(200).run(respondedExchange({ status: 200, body: '<html>', truncated: true })).outcome).toBe('pass');
  });
});
