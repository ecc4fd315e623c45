import { describe, expect, it } from 'vitest';
import { filterExcludesAll } from './filterExcludesAll.ts';
import { respondedExchange } from './testing.ts';

const bundle = (ids: string[]) => ({
  resourceType: 'Bundle',
  type: 'searchset',
  total: ids.length,
  entry: ids.map((id) => ({ resource: { resourceType: 'Claim', id } })),
});

describe('filterExcludesAll', () => {
  it('passes on an empty Bundle, with or without entry[]', () => {
    expect(filterExcludesAll('authCode=NONE').run(respondedExchange({ body: bundle([]) })).outcome).toBe('pass');
    expect(
      filterExcludesAll('authCode=NONE').run(
        respondedExchange({ body: { resourceType: 'Bundle', type: 'searchset', total: 0 } }),
      ).outcome,
    ).toBe('pass');
  });

  it('fails when records come back, and on a body that is not a Bundle', () => {
    expect(filterExcludesAll('authCode=NONE').run(respondedExchange({ body: bundle(['PA-1', 'PA-2']) })).message).toBe(
      'Expected no entries for authCode=NONE, received 2: Claim/PA-1, Claim/PA-2',
    );
    expect(filterExcludesAll('authCode=NONE').run(respondedExchange({ body: { resourceType: 'Claim' } })).outcome).toBe(
      'fail',
    );
  });
});
