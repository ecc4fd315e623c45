import { describe, expect, it } from 'vitest';
import { emptyBody } from './emptyBody.ts';
import { respondedExchange } from './testing.ts';

describe('emptyBody', () => {
  it('passes on no body and whitespace', () => {
    expect(emptyBody.run(respondedExchange({ body: '' })).outcome).toBe('pass');
    expect(emptyBody.run(respondedExchange({ body: ' \r\n' })).outcome).toBe('pass');
  });

  it('fails with the byte count and the start of the body', () => {
    const finding = emptyBody.run(respondedExchange({ body: { ok: true } }));
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toBe('Expected an empty body, received 11 bytes: "{\\"ok\\":true}"');
  });

  it('cuts a long body to 60 characters', () => {
    const finding = emptyBody.run(respondedExchange({ body: 'y'.repeat(500) }));
    expect(finding.message).toBe(`Expected an empty body, received 500 bytes: "${'y'.repeat(60)}"`);
  });
});
