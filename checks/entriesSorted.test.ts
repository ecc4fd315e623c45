import { describe, expect, it } from 'vitest';
import { entriesSorted } from './entriesSorted.ts';
import { bundle, respondedExchange } from './testing.ts';

const byCreated = (r: Record<string, unknown>) =>
  typeof r.created === 'string' || typeof r.created === 'number' ? r.created : undefined;
const page = (...created: unknown[]) =>
  respondedExchange({
    body: bundle(
      created.map((c, i) => ({ resourceType: 'Claim', id: `c${i}`, ...(c === undefined ? {} : { created: c }) })),
    ),
  });

describe('entriesSorted', () => {
  it('passes ascending dates with ties', () => {
    expect(
      entriesSorted('created', byCreated, 'asc').run(
        page('2024-01-01', '2024-01-01T05:00:00Z', '2024-01-01T05:00:00Z', '2024-02-01'),
      ).outcome,
    ).toBe('pass');
  });

  it('passes descending numbers', () => {
    expect(entriesSorted('amount', byCreated, 'desc').run(page(100, 20, 20, 3)).outcome).toBe('pass');
  });

  it('compares date-times by time, not text', () => {
    expect(
      entriesSorted('created', byCreated, 'asc').run(page('2024-01-01T10:00:00+02:00', '2024-01-01T09:00:00Z')).outcome,
    ).toBe('pass');
  });

  it('fails an out-of-order pair, naming it', () => {
    expect(entriesSorted('created', byCreated, 'asc').run(page('2024-01-01', '2024-03-01', '2024-02-01')).message).toBe(
      'Expected entries in ascending order of created, received "2024-03-01" before "2024-02-01" at entries 2 and 3',
    );
    expect(entriesSorted('amount', byCreated, 'desc').run(page(1, 2)).outcome).toBe('fail');
  });

  it('fails when only some entries carry the key', () => {
    expect(entriesSorted('created', byCreated, 'asc').run(page('2024-01-01', undefined)).message).toBe(
      'Expected every entry to carry created, received 1 of 2 without it',
    );
  });

  it('skips when no entry carries the key, or there are no entries', () => {
    expect(entriesSorted('created', byCreated, 'asc').run(page(undefined, undefined)).outcome).toBe('skip');
    expect(entriesSorted('created', byCreated, 'asc').run(page()).outcome).toBe('skip');
  });

  it('survives a key function that throws', () => {
    const fragile = entriesSorted('x', (r) => (r.x as { y: string }).y, 'asc');
    expect(fragile.run(page('a')).outcome).toBe('skip');
  });

  it('keeps only the given resourceType', () => {
    const body = bundle([
      { resourceType: 'Claim', id: 'a', created: '2024-01-01' },
      { resourceType: 'Encounter', id: 'e' },
      { resourceType: 'Claim', id: 'b', created: '2024-01-02' },
    ]);
    expect(
      entriesSorted('created', byCreated, 'asc', { resourceType: 'Claim' }).run(respondedExchange({ body })).outcome,
    ).toBe('pass');
  });

  it('fails on empty and non-JSON bodies', () => {
    expect(entriesSorted('created', byCreated, 'asc').run(respondedExchange({ body: '' })).outcome).toBe('fail');
    expect(entriesSorted('created', byCreated, 'asc').run(respondedExchange({ body: '{{' })).outcome).toBe('fail');
  });
});
