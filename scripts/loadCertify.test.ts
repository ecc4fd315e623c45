/**
 * The load script's self-test (issue 13 item 5), with small numbers and no timing assertion: the
 * figures are computed and the invariants hold against the clean sandbox, and a sandbox that
 * forgets its deletes is caught (two winners per race, lost writes).
 */
import { describe, expect, test } from 'vitest';
import type { ActiveModifiers, Modifier } from '../server/router/types.ts';
import { formatFigures, runLoad, verdictLine } from './loadCertify.ts';

/** A store that answers every delete and acknowledgement as done but keeps the patient and the batch. */
const forgetfulDeletes = (): ActiveModifiers => {
  const modifier: Modifier = {
    repo: (repo) => ({ ...repo, removePatient: async () => true, removeBatch: async () => true }),
  };
  return { for: () => [modifier], list: () => ['forgetful-deletes'] };
};

describe('loadCertify', () => {
  test('6 clients over 2 workspaces: no 5xx, no lost write, one winner per race, isolation held', async () => {
    const f = await runLoad({ clients: 6, seconds: 2, workspaces: 2, raceSize: 5 });
    expect(f.requests).toBeGreaterThan(0);
    expect(f.requestsPerSecond).toBeGreaterThan(0);
    expect(f.latencyMs.p50).toBeLessThanOrEqual(f.latencyMs.p99);
    expect(f.operations['create patient'].requests).toBeGreaterThan(0);
    expect(f.serverErrors).toBe(0);
    expect(f.transportErrors).toBe(0);
    expect(f.unexpectedSamples).toEqual([]);
    expect(f.writes.created).toBeGreaterThan(0);
    expect(f.writes.lost).toBe(0);
    expect(f.writes.duplicated).toBe(0);
    expect(f.writes.staleReads).toBe(0);
    expect(f.writes.verifiedPresent + f.writes.verifiedGone).toBe(f.writes.created);
    expect(f.races).toHaveLength(4);
    expect(f.races.map((r) => [r.winners, r.refusals])).toEqual(Array(4).fill([1, 4]));
    expect(f.oneWinnerPerRace).toBe(true);
    expect(f.isolation).toMatchObject({ foreignRequests: 0, crossCredentialsRefused: 2, crossTokensRefused: 2 });
    expect(f.isolation.held).toBe(true);
    expect(f.hardStopped).toBe(false);
    expect(f.ok).toBe(true);
    expect(verdictLine(f)).toBe(
      '0 5xx, 0 lost writes, 0 duplicated writes, one winner in every race (4 races), isolation held',
    );
    expect(formatFigures(f)).toContain('one winner per race: yes');
  });

  test('a sandbox that forgets its deletes: races with several winners and lost writes are caught', async () => {
    // 40 steps a client whatever the machine's load: at seed 1 each client deletes some of its patients.
    const f = await runLoad({
      clients: 4,
      seconds: 1,
      minSteps: 40,
      workspaces: 2,
      raceSize: 4,
      modifiers: forgetfulDeletes,
    });
    expect(f.oneWinnerPerRace).toBe(false);
    expect(f.races.every((r) => r.winners === 4 && !r.gone)).toBe(true);
    expect(f.writes.lost).toBeGreaterThan(0);
    expect(f.ok).toBe(false);
    expect(formatFigures(f)).toContain('NOT one winner in every race');
  });
});
