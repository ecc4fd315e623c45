import { describe, expect, it } from 'vitest';
import { operationRows, resultsOf } from './operationRows.ts';
import { loadFixture } from '../core/testSupport/resultsFixtures.ts';

describe('operationRows', () => {
  it('orders by document, then section as dotted numbers', () => {
    expect(operationRows(loadFixture('failing')).map((o) => `${o.document} ${o.section} ${o.id}`)).toEqual([
      'D1 4.2 find-member-v2',
      'D1 4.8 ack-remittance',
      'D1 4.10 search-hospital-claims',
      'D1 4.11 search-bills',
      'D1 4.12 get-bill',
    ]);
  });

  it('adds a row, last, for an operation that has results but no summary', () => {
    const run = loadFixture('failing');
    run.operations = run.operations.filter((o) => o.id !== 'search-bills');
    const rows = operationRows(run);
    expect(rows.map((o) => o.id)).toEqual([
      'find-member-v2',
      'ack-remittance',
      'search-hospital-claims',
      'get-bill',
      'search-bills',
    ]);
    expect(rows[4]).toEqual({
      id: 'search-bills',
      document: '',
      section: '',
      summary: '',
      counts: { pass: 0, fail: 1, warn: 1, skip: 0, omit: 0, error: 1 },
      verdict: 'not-conformant',
      known: false,
    });
    expect(resultsOf(run, 'search-bills')).toHaveLength(3);
  });
});
