import { describe, expect, it } from 'vitest';
import { messageIs } from './messageIs.ts';
import { respondedExchange } from './testing.ts';

describe('messageIs', () => {
  it('passes on the exact message', () => {
    expect(
      messageIs('Siteid is invalid : X').run(
        respondedExchange({ body: { message: 'Siteid is invalid : X', users: null } }),
      ).outcome,
    ).toBe('pass');
  });
  it('fails on another message', () => {
    expect(messageIs('Siteid is invalid : X').run(respondedExchange({ body: { message: 'Invalid' } })).outcome).toBe(
      'fail',
    );
  });
});
