/**
 * `conformance faults` through the real command (issue 30): the families listing names every
 * derived behavioural fault, and `--unproven` counts the rows row faults prove.
 */
import { describe, expect, test } from 'vitest';
import { familyFaults } from '../server/faults/families.ts';
import { runCli } from './support/cli.ts';

describe('conformance faults', () => {
  test('--families lists every family fault, one tab-separated line each, then a count', async () => {
    const r = await runCli(['faults', '--families']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(familyFaults().length + 1);
    expect(lines.at(-1)).toMatch(new RegExp(`^${familyFaults().length} family faults over \\d+ operations$`));
    expect(lines[0]).toMatch(/^family:[a-z0-9-]+:[a-z0-9-]+(:\S+)?\t.+\t.+$/);
  });

  test('--unproven ends with the summary that counts the rows the row faults prove', async () => {
    const r = await runCli(['faults', '--unproven']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').at(-1)).toMatch(
      /^\d+ of \d+ testable MUST rows proven by no fault \(.*; \d+ of the proven rows by row faults, which the fault self-test proves on every npm run test:full\)$/,
    );
    // The case: Find Member answering another member's Coverage is proven (D1-1-01).
    expect(r.stdout).not.toMatch(/^D1-1-01\t/m);
  });
});
