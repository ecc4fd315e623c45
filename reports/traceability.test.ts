import { describe, expect, it } from 'vitest';
import type { CheckResult, RunResults } from '../core/results.ts';
import { parseCsv } from '../spec/requirements.ts';
import { loadFixture } from '../core/testSupport/resultsFixtures.ts';
import {
  COVERAGE_CSV_HEADER,
  coverageLabel,
  coverageOf,
  renderCoverageCsv,
  rowsOfOperation,
  traceability,
} from './traceability.ts';

const result = (
  requirements: string[],
  status: CheckResult['status'],
  check = 'c',
  operation = 'get-bill',
): CheckResult => ({
  check,
  summary: 's',
  operation,
  requirements,
  level: 'MUST',
  status,
  message: 'm',
});

function run(results: CheckResult[]): RunResults {
  const base = loadFixture('failing');
  return {
    ...base,
    operations: base.operations.filter((o) => o.id === 'get-bill'),
    results,
    requirements: [
      {
        id: 'R-1',
        document: 'D1',
        section: '4.12',
        text: 't1',
        level: 'MUST',
        operations: ['get-bill'],
        notTestedReason: '',
        party: 'server',
      },
      {
        id: 'R-2',
        document: 'D1',
        section: '4.12',
        text: 't2',
        level: 'MUST',
        operations: ['get-bill'],
        notTestedReason: 'needs the operator',
        party: 'server',
      },
      {
        id: 'R-3',
        document: 'D1',
        section: '4.11',
        text: 't3',
        level: 'SHOULD',
        operations: ['search-bills'],
        notTestedReason: '',
        party: 'server',
      },
      {
        id: 'R-4',
        document: 'D1',
        section: '4.12',
        text: 't4',
        level: 'MUST',
        operations: [],
        notTestedReason: '',
        party: 'server',
      },
      {
        id: 'R-5',
        document: 'D1',
        section: '4.12',
        text: 'a "quoted", text\nover lines',
        level: 'MUST',
        operations: ['get-bill'],
        notTestedReason: '',
        party: 'server',
      },
    ],
  };
}

describe('traceability', () => {
  it('takes the worst status of the results citing a requirement, per check and overall', () => {
    const rows = traceability(
      run([result(['R-1'], 'pass'), result(['R-1'], 'fail'), result(['R-1'], 'pass', 'd'), result(['R-5'], 'skip')]),
    );
    const r1 = rows[0]!;
    expect(r1.status).toBe('fail');
    expect(r1.counts).toMatchObject({ pass: 2, fail: 1 });
    expect(r1.checks).toEqual([
      { check: 'c', operation: 'get-bill', status: 'fail', count: 2 },
      { check: 'd', operation: 'get-bill', status: 'pass', count: 1 },
    ]);
    expect(rows[4]!.status).toBe('skip');
  });

  it('ranks error above warn above pass, and a pass above skip and omit', () => {
    const statusOf = (statuses: CheckResult['status'][]) =>
      traceability(run(statuses.map((s) => result(['R-1'], s))))[0]!.status;
    expect(statusOf(['pass', 'warn', 'error'])).toBe('error');
    expect(statusOf(['pass', 'warn'])).toBe('warn');
    expect(statusOf(['omit', 'pass', 'skip'])).toBe('pass');
    expect(statusOf(['omit', 'skip'])).toBe('skip');
  });

  it('gives the not-tested reason, or why a testable requirement has no result', () => {
    const rows = traceability(run([]));
    expect(rows.map((r) => r.status)).toEqual(['not-run', 'not-tested', 'not-run', 'not-run', 'not-run']);
    expect(rows[1]!.reason).toBe('needs the operator');
    expect(rows[2]!.reason).toBe('Its operations (search-bills) were not part of this run.');
    expect(rows[0]!.reason).toBe('No result of this run cites it.');
  });

  it('counts coverage over testable requirements with a judged result', () => {
    const rows = traceability(run([result(['R-1'], 'fail'), result(['R-5'], 'skip'), result(['R-2'], 'pass')]));
    // R-2 has a reason but a result verified it anyway: it counts as testable and verified.
    expect(coverageOf(rows)).toEqual({ testable: 5, verified: 2, notTestable: 0, total: 5 });
    expect(coverageLabel(coverageOf(rows))).toBe('40% (2/5)');
    expect(coverageOf(traceability(run([])))).toEqual({ testable: 4, verified: 0, notTestable: 1, total: 5 });
    expect(coverageLabel({ testable: 0, verified: 0, notTestable: 1, total: 1 })).toBe('n/a');
    expect(rowsOfOperation(rows, 'search-bills').map((r) => r.requirement.id)).toEqual(['R-3']);
  });
});

describe('requirements-coverage.csv', () => {
  it('has one row per requirement that a CSV reader reads back exactly', () => {
    const data = run([result(['R-1'], 'fail'), result(['R-1'], 'pass', 'd')]);
    const text = renderCoverageCsv(data);
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([...COVERAGE_CSV_HEADER]);
    expect(rows).toHaveLength(5);
    const col = (name: string) => COVERAGE_CSV_HEADER.indexOf(name as (typeof COVERAGE_CSV_HEADER)[number]);
    expect(rows[0]![col('status')]).toBe('fail');
    expect(rows[0]![col('checks')]).toBe('c@get-bill:fail; d@get-bill:pass');
    expect(rows[0]![col('fail')]).toBe('1');
    expect(rows[1]![col('reason')]).toBe('needs the operator');
    expect(rows[4]![col('text')]).toBe('a "quoted", text\nover lines');
  });

  it('covers every row of a real fixture', () => {
    const fixture = loadFixture('failing');
    expect(parseCsv(renderCoverageCsv(fixture)).length - 1).toBe(fixture.requirements.length);
  });
});
