import { describe, expect, test } from 'vitest';
import { type CoveragePhaseEntry, coveragePhaseServed } from './coveragePhaseServed.ts';

const entry = (over: Partial<CoveragePhaseEntry>): CoveragePhaseEntry => ({
  label: 'count=1 (minimum)',
  aspect: 'count-minimum',
  parameter: 'count',
  level: 'MUST',
  outcome: 'pass',
  status: 200,
  ...over,
});

describe('coveragePhaseServed', () => {
  test('passes when every sent entry passed, and lists every entry without its level', () => {
    const f = coveragePhaseServed.run({
      entries: [entry({}), entry({ label: 'page=1', outcome: 'not-sent', why: 'needs feature X', level: undefined })],
    });
    expect(f.outcome).toBe('pass');
    expect(f.message).toBe('1 requests answered as allowed, 1 not sent');
    const listed = ((f.evidence as { coveragePhase: unknown }).coveragePhase as { entries: Record<string, unknown>[] })
      .entries;
    expect(listed).toHaveLength(2);
    expect(listed[0]).not.toHaveProperty('level');
  });

  test('fails on an entry that failed at MUST, naming it', () => {
    const f = coveragePhaseServed.run({
      entries: [entry({}), entry({ label: 'count=1000 (maximum)', outcome: 'fail', status: 500, why: 'server error' })],
    });
    expect(f.outcome).toBe('fail');
    expect(f.message).toBe(
      'Expected every request of the coverage phase to be answered as the documents allow, received 1 of 2 not: count=1000 (maximum): server error',
    );
  });

  test('a failed SHOULD entry is listed as a warning and does not fail the phase', () => {
    const f = coveragePhaseServed.run({ entries: [entry({ outcome: 'fail', level: 'SHOULD', why: 'refused' })] });
    expect(f.outcome).toBe('pass');
    expect(f.message).toBe('1 requests answered as allowed, 1 warned');
    const listed = ((f.evidence as { coveragePhase: unknown }).coveragePhase as { entries: { outcome: string }[] })
      .entries;
    expect(listed[0].outcome).toBe('warn');
  });

  test('skips when nothing could be sent', () => {
    expect(
      coveragePhaseServed.run({ entries: [entry({ outcome: 'not-sent', why: 'needs --allow-destructive' })] }).outcome,
    ).toBe('skip');
  });
});
