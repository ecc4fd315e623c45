import { describe, expect, it } from 'vitest';
import { bundleTypeIs } from './bundleTypeIs.ts';
import { bundle, respondedExchange } from './testing.ts';

describe('bundleTypeIs', () => {
  it('passes on the expected type', () => {
    expect(
      bundleTypeIs('collection').run(respondedExchange({ body: bundle([], { type: 'collection' }) })).outcome,
    ).toBe('pass');
  });

  it('fails on another or missing type', () => {
    expect(bundleTypeIs('collection').run(respondedExchange({ body: bundle([], { type: 'searchset' }) })).message).toBe(
      'Expected Bundle.type "collection", received "searchset"',
    );
    expect(bundleTypeIs('searchset').run(respondedExchange({ body: { resourceType: 'Bundle' } })).message).toBe(
      'Expected Bundle.type "searchset", received <absent>',
    );
  });

  it('fails on something that is not a Bundle', () => {
    expect(bundleTypeIs('searchset').run(respondedExchange({ body: { resourceType: 'Coverage' } })).message).toBe(
      'Expected a Bundle, received resourceType "Coverage"',
    );
    expect(bundleTypeIs('searchset').run(respondedExchange({ body: 'null' })).message).toBe(
      'Expected a JSON object, received null',
    );
  });
});
