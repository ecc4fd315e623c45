import { describe, expect, it } from 'vitest';
import { bundleHasEntries } from './bundleHasEntries.ts';
import { bundle, respondedExchange } from './testing.ts';

describe('bundleHasEntries', () => {
  it('passes with enough entries', () => {
    expect(bundleHasEntries().run(respondedExchange({ body: bundle([{ id: 'a' }]) })).outcome).toBe('pass');
    expect(bundleHasEntries(2).run(respondedExchange({ body: bundle([{ id: 'a' }, { id: 'b' }]) })).outcome).toBe(
      'pass',
    );
  });

  it('fails with too few entries', () => {
    expect(bundleHasEntries().run(respondedExchange({ body: bundle([]) })).message).toBe(
      'Expected at least 1 entry, received 0',
    );
    expect(bundleHasEntries(3).run(respondedExchange({ body: bundle([{ id: 'a' }]) })).message).toBe(
      'Expected at least 3 entries, received 1',
    );
  });

  it('does not count entries without a resource', () => {
    expect(
      bundleHasEntries().run(respondedExchange({ body: { resourceType: 'Bundle', entry: [{}, null] } })).outcome,
    ).toBe('fail');
  });

  it('fails on a bad entry member and on non-JSON', () => {
    expect(
      bundleHasEntries().run(respondedExchange({ body: { resourceType: 'Bundle', entry: { resource: {} } } })).message,
    ).toBe('Expected Bundle.entry to be an array, received an object without resourceType');
    expect(bundleHasEntries().run(respondedExchange({ body: '' })).outcome).toBe('fail');
  });
});
