import { describe, expect, it } from 'vitest';
import { bundleIsEmpty } from './bundleIsEmpty.ts';
import { bundle, respondedExchange } from './testing.ts';

describe('bundleIsEmpty', () => {
  it('passes on an empty Bundle', () => {
    expect(bundleIsEmpty.run(respondedExchange({ body: bundle([]) })).outcome).toBe('pass');
  });
  it('fails on entries', () => {
    expect(
      bundleIsEmpty.run(respondedExchange({ body: bundle([{ resourceType: 'Contract', id: 'C' }]) })).message,
    ).toBe('Expected an empty Bundle, received 1 entry');
  });
});
