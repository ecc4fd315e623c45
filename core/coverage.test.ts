import { describe, expect, test } from 'vitest';
import type { Requirement } from '../spec/requirements.ts';
import { coverageShortfall, mustCoverage, reasonsLabel, shareLabel } from './coverage.ts';
import type { CheckResult } from './results.ts';

const req = (id: string, operations: string[], extra: Partial<Requirement> = {}): Requirement => ({
  id,
  document: 'D1',
  section: '1',
  text: id,
  level: 'MUST',
  operations,
  notTestedReason: '',
  party: 'server',
  ...extra,
});
const res = (check: string, operation: string, requirements: string[], status: CheckResult['status']) => ({
  check,
  operation,
  requirements,
  status,
  message: '',
});

const REQS = [
  req('A', ['op1']), // judged
  req('B', ['op1']), // fixture missing: counts against
  req('C', ['op1']), // destructive omit: left out
  req('D', ['op2']), // feature lacking: left out
  req('E', ['op2']), // no result: counts against
  req('F', ['op1', 'op2']), // judged on op2 only: judged for both
  req('G', ['op3']), // operation not selected: out of scope
  req('H', ['op1'], { level: 'SHOULD' }), // not MUST
  req('I', ['op1'], { notTestedReason: 'cannot be seen' }), // not testable
];
const RESULTS = [
  res('c', 'op1', ['A'], 'pass'),
  res('fixture-configured', 'op1', ['B'], 'skip'),
  res('destructive-step', 'op1', ['C'], 'omit'),
  res('feature-available', 'op2', ['D'], 'skip'),
  res('c', 'op2', ['F'], 'fail'),
];

describe('mustCoverage', () => {
  const c = mustCoverage(REQS, ['op1', 'op2'], RESULTS, 0.9);

  test('counts judged requirements over the testable MUST ones in scope, overall', () => {
    expect(c.overall).toEqual({
      inScope: 4,
      judged: 2,
      notJudged: { 'fixture not configured': 1, 'no result cites it': 1 },
      leftOut: { 'needs --allow-destructive': 1, 'a feature the config says its credentials lack': 1 },
    });
    expect(shareLabel(c.overall)).toBe('50% (2/4)');
  });

  test('per operation, a shared requirement judged on one operation counts for both', () => {
    expect(c.operations.op1).toMatchObject({ inScope: 3, judged: 2 });
    expect(c.operations.op2).toMatchObject({ inScope: 2, judged: 1, notJudged: { 'no result cites it': 1 } });
  });

  test('below the minimum the shortfall names the share, the minimum and the reasons', () => {
    expect(coverageShortfall(c)).toBe(
      'only 50% (2/4) of the testable MUST requirements in scope were judged, below the minimum of 90% (--min-coverage); not judged: 1 fixture not configured, 1 no result cites it',
    );
    expect(coverageShortfall(mustCoverage(REQS, ['op1', 'op2'], RESULTS, 0.5))).toBeUndefined();
  });

  test('an operation the config omits is left out, not counted against', () => {
    const omitted = mustCoverage(REQS, ['op1', 'op2'], [...RESULTS, res('operation-in-scope', 'op2', [], 'omit')], 0.9);
    expect(omitted.operations.op2).toMatchObject({ inScope: 0, leftOut: { 'operation omitted by the config': 3 } });
    expect(reasonsLabel({ b: 1, a: 3 })).toBe('3 a, 1 b');
  });

  test('a fixture the target does not hold counts against the share, with its own reason', () => {
    const notHeld = mustCoverage([req('K', ['op1'])], ['op1'], [res('fixture-held', 'op1', ['K'], 'skip')], 0.9);
    expect(notHeld.overall).toMatchObject({
      inScope: 1,
      judged: 0,
      notJudged: { 'fixture not held by the target': 1 },
    });
    expect(coverageShortfall(notHeld)).toMatch(/not judged: 1 fixture not held by the target$/);
  });

  test('nothing in scope claims nothing and falls short of nothing', () => {
    const none = mustCoverage(REQS, ['op9'], [], 0.9);
    expect(shareLabel(none.overall)).toBe('n/a');
    expect(coverageShortfall(none)).toBeUndefined();
  });
});
