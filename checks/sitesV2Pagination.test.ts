import { describe, expect, it } from 'vitest';
import { sitesV2Pagination } from './sitesV2Pagination.ts';
import { respondedExchange } from './testing.ts';

const sites = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => ({ id: `S${from + i}`, name: `Site ${from + i}` }));
const page = (pagination: Record<string, unknown>, list: unknown = sites(4)) =>
  respondedExchange({ body: { pagination, sites: list } });
const run = (pageNumber: number, pagination: Record<string, unknown>, list?: unknown) =>
  sitesV2Pagination({ pageNumber, maxRecordsPerPage: 4 }).run(page(pagination, list));

describe('sitesV2Pagination', () => {
  it('passes on first, middle and last pages', () => {
    const first = run(1, { totalRecords: 10, currentPage: 1, totalPages: 3, prevPage: null, nextPage: 2 });
    expect(first).toMatchObject({ outcome: 'pass', message: 'page 1 of 3: 4 of 10 sites, prevPage null, nextPage 2' });
    expect(run(2, { totalRecords: 10, currentPage: 2, totalPages: 3, prevPage: 1, nextPage: 3 }).outcome).toBe('pass');
    expect(
      run(3, { totalRecords: 10, currentPage: 3, totalPages: 3, prevPage: 2, nextPage: null }, sites(2, 9)).outcome,
    ).toBe('pass');
  });

  it('passes on no records with totalPages 0 or 1', () => {
    expect(run(1, { totalRecords: 0, currentPage: 1, totalPages: 0, prevPage: null, nextPage: null }, []).outcome).toBe(
      'pass',
    );
    expect(run(1, { totalRecords: 0, currentPage: 1, totalPages: 1, prevPage: null, nextPage: null }, []).outcome).toBe(
      'pass',
    );
    expect(run(1, { totalRecords: 0, currentPage: 1, totalPages: 2, prevPage: null, nextPage: null }, []).outcome).toBe(
      'fail',
    );
  });

  it('only bounds the site count on a page past the end', () => {
    expect(run(5, { totalRecords: 10, currentPage: 5, totalPages: 3, prevPage: 4, nextPage: null }, []).outcome).toBe(
      'pass',
    );
    expect(
      run(5, { totalRecords: 10, currentPage: 5, totalPages: 3, prevPage: 4, nextPage: null }, sites(5)).outcome,
    ).toBe('fail');
  });

  it('fails on a wrong currentPage, totalPages and links', () => {
    expect(run(2, { totalRecords: 10, currentPage: 1, totalPages: 3, prevPage: null, nextPage: 2 }).message).toBe(
      'Expected consistent pagination for page 2 with 4 per page (DEC-D3-05), received currentPage 1 (expected 2)',
    );
    expect(run(1, { totalRecords: 10, currentPage: 1, totalPages: 2, prevPage: null, nextPage: 2 }).message).toContain(
      'totalPages 2 (expected 3 for 10 records)',
    );
    expect(
      run(3, { totalRecords: 10, currentPage: 3, totalPages: 3, prevPage: 2, nextPage: 4 }, sites(2)).message,
    ).toContain('nextPage 4 (expected null on page 3 of 3)');
    expect(run(1, { totalRecords: 10, currentPage: 1, totalPages: 3, prevPage: 0, nextPage: 2 }).message).toContain(
      'prevPage 0 (expected null on page 1)',
    );
  });

  it('wants null, not an absent member or a string, for no page', () => {
    expect(run(3, { totalRecords: 10, currentPage: 3, totalPages: 3, prevPage: 2 }, sites(2)).message).toContain(
      'nextPage <absent> (expected null',
    );
    expect(run(2, { totalRecords: 10, currentPage: 2, totalPages: 3, prevPage: '1', nextPage: 3 }).message).toContain(
      'prevPage "1" (expected 1',
    );
  });

  it('fails on wrong site counts', () => {
    expect(
      run(1, { totalRecords: 10, currentPage: 1, totalPages: 3, prevPage: null, nextPage: 2 }, sites(5)).message,
    ).toContain('5 sites (expected at most 4)');
    expect(
      run(3, { totalRecords: 10, currentPage: 3, totalPages: 3, prevPage: 2, nextPage: null }, sites(4)).message,
    ).toContain('4 sites (expected 2 of 10 on page 3)');
  });

  it('fails on missing or non-integer counts, judging links by totalPages then', () => {
    const finding = run(1, { totalRecords: '10', currentPage: 1, totalPages: 3, prevPage: null, nextPage: 2 });
    expect(finding.message).toBe(
      'Expected consistent pagination for page 1 with 4 per page (DEC-D3-05), received totalRecords "10" (expected a whole number)',
    );
    expect(run(1, { currentPage: 1, prevPage: null, nextPage: 2 }).message).toContain(
      'totalPages <absent> (expected a whole number)',
    );
    expect(run(1, { totalRecords: -1, currentPage: 1, totalPages: 0, prevPage: null, nextPage: null }).outcome).toBe(
      'fail',
    );
    expect(run(1, { totalRecords: 1e300, currentPage: 1, totalPages: 3, prevPage: null, nextPage: 2 }).outcome).toBe(
      'fail',
    );
  });

  it('never throws on hostile bodies', () => {
    const check = sitesV2Pagination({ pageNumber: 1, maxRecordsPerPage: 4 });
    expect(check.run(respondedExchange({ body: [] })).message).toBe('Expected a JSON object, received an array of 0');
    expect(check.run(respondedExchange({ body: { sites: [] } })).message).toBe(
      'Expected a pagination object, received <absent>',
    );
    expect(check.run(respondedExchange({ body: { pagination: {}, sites: 'x' } })).message).toBe(
      'Expected a sites array, received "x"',
    );
    expect(
      check.run(
        respondedExchange({ body: { pagination: { currentPage: { a: 1 }, totalRecords: null }, sites: [null] } }),
      ).outcome,
    ).toBe('fail');
    expect(check.run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
    expect(sitesV2Pagination({ pageNumber: 2, maxRecordsPerPage: 10 }).id).toBe(check.id);
  });
});
