import { describe, expect, it } from 'vitest';
import { entriesSortedOverPages } from './entriesSortedOverPages.ts';
import { bundle, respondedExchange } from './testing.ts';

const byCreated = (r: Record<string, unknown>) => (typeof r.created === 'string' ? r.created : undefined);
const page = (...created: string[]) =>
  respondedExchange({ body: bundle(created.map((c, i) => ({ resourceType: 'Claim', id: `c${c}${i}`, created: c }))) });

describe('entriesSortedOverPages (DEC-R-06)', () => {
  it('passes a sort that runs on from page to page', () => {
    const f = entriesSortedOverPages('created', byCreated, 'asc').run({
      pages: [page('2024-01-01', '2024-02-01'), page('2024-03-01', '2024-04-01')],
    });
    expect(f.outcome).toBe('pass');
    expect(f.message).toBe('4 entries over 2 pages in ascending order of created');
  });

  it('fails a sort applied per page, naming the page boundary', () => {
    const f = entriesSortedOverPages('created', byCreated, 'asc').run({
      pages: [page('2024-03-01', '2024-04-01'), page('2024-01-01', '2024-02-01')],
    });
    expect(f.outcome).toBe('fail');
    expect(f.message).toBe(
      'Expected entries in ascending order of created, received "2024-04-01" before "2024-01-01" at page 1 entry 2 and page 2 entry 1',
    );
  });
});
