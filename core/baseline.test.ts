import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyBaseline,
  BaselineError,
  baselineMarks,
  diffRuns,
  exitCodeUnderBaseline,
  formatDiff,
  readBaseline,
} from './baseline.ts';
import type { CheckResult, RunResults } from './results.ts';

const fail = (check: string, operation: string, message: string): CheckResult => ({
  check,
  summary: check,
  operation,
  requirements: ['R1'],
  level: 'MUST',
  status: 'fail',
  message,
});

/** A run that judged `judged` (default op-a and op-b, both runs' scope), with these results. */
function run(results: CheckResult[], over: Partial<RunResults> = {}, judged = ['op-a', 'op-b']): RunResults {
  return {
    suite: { name: 's', version: '1.0.0' },
    target: 'http://t',
    configDigest: 'c1',
    attestation: {},
    evidence: 'masked',
    seed: 1,
    runs: 1,
    allowDestructive: false,
    startedAt: '2026-11-26T00:00:00Z',
    finishedAt: '2026-11-26T00:01:00Z',
    verdict: results.some((r) => r.status === 'fail') ? 'not-conformant' : 'conformant',
    summary: { pass: 0, fail: 0, warn: 0, skip: 0, omit: 0, error: 0 },
    operations: judged.map((id) => ({
      id,
      document: 'D1',
      section: '4',
      summary: id,
      counts: { pass: 0, fail: 1, warn: 0, skip: 0, omit: 0, error: 0 },
      verdict: results.some((r) => r.operation === id && r.status === 'fail') ? 'not-conformant' : 'conformant',
    })),
    results,
    exchanges: [],
    decisions: [],
    appliedDecisions: [],
    requirements: [],
    ...over,
  } as RunResults;
}

const paging = (page: number) =>
  fail('paging-tags-present', 'op-a', `Expected digit text, received the number ${page}`);
const invalidId = fail('invalid-id-answer', 'op-b', 'Expected a 4xx status, received HTTP 200');

describe('baseline', () => {
  const base = run([paging(1), paging(2)]);
  const later = run([paging(3), invalidId]);

  it("marks findings new or still failing, and the baseline's others fixed", () => {
    const record = applyBaseline(later, base, 'base/', 'new');
    expect(record.new).toHaveLength(1);
    expect(record.still).toHaveLength(1);
    expect(record.fixed).toEqual([]);
    expect(exitCodeUnderBaseline(later, record, 1)).toBe(1);
    const itself = applyBaseline(base, base, 'base/', 'new');
    expect([itself.new, itself.fixed]).toEqual([[], []]);
    expect(exitCodeUnderBaseline(base, itself, 1)).toBe(0);
    // Without --fail-on new, the exit code follows the verdict.
    expect(exitCodeUnderBaseline(base, { ...itself, failOn: 'any' }, 1)).toBe(1);
    // A baseline never excuses what was not judged.
    expect(exitCodeUnderBaseline(base, itself, 3)).toBe(3);
  });

  it('the same cause newly failing on another operation is a new finding, and --fail-on new exits 1 (issue 30, item 6)', () => {
    const onB = fail('paging-tags-present', 'op-b', 'Expected digit text, received the number 4');
    const regressed = run([paging(3), onB]);
    const record = applyBaseline(regressed, base, 'base/', 'new');
    expect(record.new).toHaveLength(1);
    expect(record.still).toEqual([]);
    expect(record.newOn).toEqual({ [record.new[0]]: ['op-b'] });
    expect(exitCodeUnderBaseline(regressed, record, 1)).toBe(1);
    expect(baselineMarks(record).get(record.new[0])).toBe('new on op-b');
    // The other way round, the cause is fixed on op-b only and still failing on op-a.
    const back = applyBaseline(base, regressed, 'later/', 'new');
    expect([back.new, back.fixed.map((f) => f.operations)]).toEqual([[], [['op-b']]]);
    expect(exitCodeUnderBaseline(base, back, 1)).toBe(0);
  });

  it('refuses a baseline of another suite version, target or config, saying why', () => {
    expect(() => applyBaseline(later, { ...base, suite: { name: 's', version: '0.9.0' } }, 'b', 'new')).toThrow(
      /suite version 0\.9\.0, this is 1\.0\.0/,
    );
    expect(() => applyBaseline(later, { ...base, target: 'http://other' }, 'b', 'new')).toThrow(
      /judged http:\/\/other/,
    );
    expect(() => applyBaseline(later, { ...base, configDigest: 'c2' }, 'b', 'new')).toThrow(/another config/);
    expect(() => applyBaseline(later, { ...base, configDigest: 'c2' }, 'b', 'new')).toThrow(BaselineError);
  });

  it('reads a report folder or a results.json, and refuses anything else in one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'baseline-'));
    writeFileSync(join(dir, 'results.json'), JSON.stringify(base));
    expect(readBaseline(dir).target).toBe('http://t');
    expect(readBaseline(join(dir, 'results.json')).target).toBe('http://t');
    expect(() => readBaseline(join(dir, 'nope'))).toThrow(/does not exist/);
    const empty = mkdtempSync(join(tmpdir(), 'baseline-'));
    expect(() => readBaseline(empty)).toThrow(/holds no results\.json/);
    writeFileSync(join(empty, 'x.json'), '{"a":1}');
    expect(() => readBaseline(join(empty, 'x.json'))).toThrow(/not a run's results\.json/);
  });

  it('a run that judged fewer operations reports the others as not compared, never fixed (issue 32)', () => {
    const shard = run([paging(3)], {}, ['op-a']);
    const record = applyBaseline(shard, later, 'whole/', 'new');
    expect(record.fixed).toEqual([]);
    expect(record.notCompared?.map((f) => [f.check, f.operations])).toEqual([['invalid-id-answer', ['op-b']]]);
    expect(exitCodeUnderBaseline(shard, record, 1)).toBe(0);
    const d = diffRuns(later, 'whole', shard, 'shard');
    expect([d.findings.fixed, d.findings.notCompared.map((f) => f.check)]).toEqual([[], ['invalid-id-answer']]);
    expect(formatDiff(d).join('\n')).toContain('Findings: 0 new, 0 fixed, 1 still failing, 1 not compared');
  });

  it('diffs two runs both ways: what is new in one is fixed in the other', () => {
    const forward = diffRuns(base, 'A', later, 'B');
    expect(forward.findings.new.map((f) => f.check)).toEqual(['invalid-id-answer']);
    expect(forward.findings.fixed).toEqual([]);
    expect(forward.operations).toEqual([{ id: 'op-b', a: 'conformant', b: 'not-conformant' }]);
    const back = diffRuns(later, 'B', base, 'A');
    expect(back.findings.fixed.map((f) => f.check)).toEqual(['invalid-id-answer']);
    expect(formatDiff(back).join('\n')).toContain('Findings: 0 new, 1 fixed, 1 still failing');
  });
});
