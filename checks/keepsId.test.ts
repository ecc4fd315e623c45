import { describe, expect, it } from 'vitest';
import { keepsId } from './keepsId.ts';
import { respondedExchange } from './testing.ts';

describe('keepsId', () => {
  it('passes on the same id, compared as text', () => {
    expect(keepsId('7').run(respondedExchange({ body: { id: 7 } })).outcome).toBe('pass');
  });
  it('fails on another id', () => {
    expect(keepsId('C1').run(respondedExchange({ body: { id: 'C2' } })).message).toBe('Expected id C1, received "C2"');
  });
});
