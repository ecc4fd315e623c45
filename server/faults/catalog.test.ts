import { describe, expect, test } from 'vitest';
import { operations } from '../../spec/operations.ts';
import { startSandbox } from '../http.ts';
import { ActiveFaults, FAULTS, FAULT_NAMES, faultInfo, isKnownFault } from './catalog.ts';

describe('fault catalogue', () => {
  test('28 uniquely named faults, in the order of FAULT_NAMES', () => {
    expect(FAULTS.map((f) => f.name)).toEqual([...FAULT_NAMES]);
    expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length);
    expect(FAULTS).toHaveLength(28);
  });

  test('every entry names real Document 1 operations and a kebab-case check', () => {
    const known = new Set(operations.filter((o) => o.document === 'D1').map((o) => o.id));
    for (const f of FAULTS) {
      expect(f.operations.length, f.name).toBeGreaterThan(0);
      for (const op of f.operations) expect(known.has(op), `${f.name}: ${op}`).toBe(true);
      expect(f.expectedCheck).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(f.kind && f.rule && f.description, f.name).toBeTruthy();
    }
  });

  test('auth-not-enforced concerns every Document 1 operation', () => {
    expect(faultInfo('auth-not-enforced')?.operations).toHaveLength(operations.filter((o) => o.document === 'D1').length);
  });

  test('isKnownFault and ActiveFaults', () => {
    expect(isKnownFault('ack-returns-204')).toBe(true);
    expect(isKnownFault('no-such-fault')).toBe(false);
    const active = new ActiveFaults(['count-ignored']);
    expect(active.on('count-ignored')).toBe(true);
    expect(active.on('count-ignored', 'search-authorisation')).toBe(true);
    expect(active.on('count-ignored', 'search-remittance-detail')).toBe(false);
    expect(active.on('ack-returns-204')).toBe(false);
    expect(active.list()).toEqual(['count-ignored']);
    expect(() => new ActiveFaults(['nope'])).toThrow('Unknown fault nope');
  });

  test('startSandbox refuses an unknown fault', async () => {
    await expect(startSandbox({ faults: ['made-up'] })).rejects.toThrow('Unknown fault made-up');
  });
});
