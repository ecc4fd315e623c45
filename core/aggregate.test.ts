import { describe, expect, test } from 'vitest';
import { aggregate } from './aggregate.ts';
import type { WorkerEvent } from './events.ts';
import type { ExchangeRecord } from './results.ts';
import { formatSummary } from './summary.ts';

const exchange = (url: string): ExchangeRecord => ({
  method: 'GET',
  url,
  startedAt: '2026-01-01T00:00:00Z',
  duration: 1,
  request: { headers: {} },
  status: 200,
});
const base = {
  suite: { name: 's', version: '1' },
  target: 'http://t',
  configDigest: 'd',
  attestation: {},
  evidence: 'masked' as const,
  seed: 1,
  runs: 2,
  allowDestructive: false,
  startedAt: '2026-01-01T00:00:00Z',
  finishedAt: '2026-01-01T00:00:01Z',
  operations: ['get-bill', 'search-bills'],
};

describe('aggregate', () => {
  const events: WorkerEvent[] = [
    { type: 'exchange-recorded', id: 'x1', exchange: exchange('http://t/a') },
    {
      type: 'check-evaluated',
      result: {
        check: 'c1',
        summary: 's',
        operation: 'search-bills',
        requirements: ['R'],
        level: 'MUST',
        status: 'pass',
        message: 'ok',
        exchange: 'x1',
      },
    },
    {
      type: 'check-evaluated',
      result: {
        check: 'c2',
        summary: 's',
        operation: 'get-bill',
        requirements: ['R'],
        level: 'MUST',
        status: 'fail',
        message: 'Expected a, received b',
        exchange: 'x2',
      },
    },
    { type: 'exchange-recorded', id: 'x2', exchange: exchange('http://t/b') },
    { type: 'decision-applied', decision: 'DEC-D1-02' },
    { type: 'decision-applied', decision: 'DEC-D1-02' },
  ];
  const results = aggregate({ ...base, events, runnerExchanges: new Map(), runnerResults: [], minCoverage: 0 });

  test('turns exchange ids into indices and orders results by the operation table', () => {
    expect(results.results.map((r) => r.operation)).toEqual(['get-bill', 'search-bills']);
    expect(results.exchanges[results.results[0].exchange!].url).toBe('http://t/b');
    expect(results.exchanges[results.results[1].exchange!].url).toBe('http://t/a');
  });

  test('carries the requirement table and the rows of the applied decisions', () => {
    expect(results.requirements.length).toBeGreaterThan(800);
    expect(results.appliedDecisions.map((d) => d.id)).toEqual(['DEC-D1-02']);
    expect(results.appliedDecisions[0]!.suiteDoes).toMatch(/maxRecords/);
  });

  test('counts, per-operation verdicts, run verdict and decisions', () => {
    expect(results.summary).toMatchObject({ pass: 1, fail: 1 });
    expect(results.operations.map((o) => [o.id, o.verdict])).toEqual([
      ['get-bill', 'not-conformant'],
      ['search-bills', 'conformant'],
    ]);
    expect(results.verdict).toBe('not-conformant');
    expect(results.decisions).toEqual(['DEC-D1-02']);
  });

  test('the summary names the verdict, each operation and the MUST failures', () => {
    const lines = formatSummary(results, '/r/report.html');
    expect(lines[0]).toMatch(/^Verdict: NOT CONFORMANT/);
    expect(lines.some((l) => l.startsWith('get-bill') && l.endsWith('not-conformant'))).toBe(true);
    const text = lines.join('\n');
    expect(text).toContain('MUST findings: 1 cause of 1 failure or error:');
    expect(text).toContain(
      '  1. FAIL c2 once on get-bill [R]\n     get-bill: Expected a, received b\n     what to change: Change get-bill so that c2 sees a',
    );
    expect(lines.slice(-2)).toEqual([
      'Report: /r/report.html',
      'Also: results.json, junit.xml, requirements-coverage.csv beside it',
    ]);
  });
});
