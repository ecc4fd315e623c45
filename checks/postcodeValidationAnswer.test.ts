import { describe, expect, it } from 'vitest';
import { postcodeValidationAnswer } from './postcodeValidationAnswer.ts';
import { respondedExchange } from './testing.ts';

const invalid = postcodeValidationAnswer({ postcode: 'NOT A POSTCODE', valid: false });
const valid = postcodeValidationAnswer({ postcode: 'SW1A 1AA', valid: true });

describe('postcodeValidationAnswer', () => {
  it('passes on the expected verdict, echo ignoring case and spaces', () => {
    expect(invalid.run(respondedExchange({ body: { postcode: 'NOT A POSTCODE', status: false } })).message).toBe(
      'status false for "NOT A POSTCODE"',
    );
    expect(valid.run(respondedExchange({ body: { postcode: 'sw1a1aa', status: true } })).outcome).toBe('pass');
    expect(valid.run(respondedExchange({ body: { postcode: ' SW1A  1AA ', status: true, extra: 1 } })).outcome).toBe(
      'pass',
    );
  });

  it('fails on an error status, even with a body', () => {
    expect(
      invalid.run(respondedExchange({ status: 400, body: { postcode: 'NOT A POSTCODE', status: false } })).message,
    ).toBe('Expected HTTP 200 with status false for postcode "NOT A POSTCODE", received HTTP 400');
  });

  it('fails on the wrong verdict or a verdict that is not a Boolean', () => {
    expect(valid.run(respondedExchange({ body: { postcode: 'SW1A 1AA', status: false } })).message).toBe(
      'Expected status true, received false',
    );
    expect(invalid.run(respondedExchange({ body: { postcode: 'NOT A POSTCODE', status: 'false' } })).message).toBe(
      'Expected status false, received "false" (a string, not a Boolean)',
    );
    expect(invalid.run(respondedExchange({ body: { postcode: 'NOT A POSTCODE', status: 0 } })).outcome).toBe('fail');
    expect(invalid.run(respondedExchange({ body: { postcode: 'NOT A POSTCODE', status: null } })).message).toMatch(
      /a null, not a Boolean/,
    );
    expect(invalid.run(respondedExchange({ body: { postcode: 'NOT A POSTCODE' } })).message).toBe(
      'Expected status false, received <absent>',
    );
  });

  it('fails when the postcode is not echoed', () => {
    expect(valid.run(respondedExchange({ body: { postcode: 'SW1A 2AA', status: true } })).message).toBe(
      'Expected postcode "SW1A 1AA" echoed (ignoring case and spaces), received "SW1A 2AA"',
    );
    expect(valid.run(respondedExchange({ body: { status: true } })).outcome).toBe('fail');
    expect(valid.run(respondedExchange({ body: { postcode: ['SW1A 1AA'], status: true } })).outcome).toBe('fail');
  });

  it('fails on a non-object body', () => {
    expect(valid.run(respondedExchange({ body: [true] })).outcome).toBe('fail');
    expect(valid.run(respondedExchange({ body: 'true' })).outcome).toBe('fail');
    expect(valid.run(respondedExchange({ body: '' })).outcome).toBe('fail');
  });
});
