import { describe, expect, test } from 'vitest';
import { exitCodeOf, verdictOf } from './results.ts';

describe('verdictOf', () => {
  test('a MUST failure makes the target not conformant, whatever else happened', () => {
    expect(
      verdictOf([
        { level: 'MUST', status: 'pass' },
        { level: 'MUST', status: 'fail' },
        { level: 'MUST', status: 'error' },
      ]),
    ).toBe('not-conformant');
  });
  test('a MUST error without failure is inconclusive; SHOULD and INFO never decide', () => {
    expect(
      verdictOf([
        { level: 'MUST', status: 'pass' },
        { level: 'MUST', status: 'error' },
      ]),
    ).toBe('inconclusive');
    expect(
      verdictOf([
        { level: 'MUST', status: 'pass' },
        { level: 'SHOULD', status: 'warn' },
        { level: 'INFO', status: 'error' },
      ]),
    ).toBe('conformant');
  });
  test('no MUST judged at all is inconclusive, not conformant', () => {
    expect(
      verdictOf([
        { level: 'MUST', status: 'skip' },
        { level: 'MUST', status: 'omit' },
      ]),
    ).toBe('inconclusive');
    expect(verdictOf([])).toBe('inconclusive');
  });
  test('exit codes follow the command contract', () => {
    expect([exitCodeOf('conformant'), exitCodeOf('not-conformant'), exitCodeOf('inconclusive')]).toEqual([0, 1, 3]);
  });
});
