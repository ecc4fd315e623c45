import { describe, expect, test } from 'vitest';
import { operation } from '../../spec/operations.ts';
import { CROSS_SUITE_CALLS, suiteMayCall } from '../../spec/suiteCoupling.ts';
import { batchFaults, suiteGroups } from './faultBatches.ts';

describe('suite coupling read from spec/suiteCoupling.ts', () => {
  test('a declared cross-suite call joins the two suites in one group; others stand alone', () => {
    const groups = suiteGroups();
    expect(groups.get('sign-on')).toBe(groups.get(operation('introspect').suite));
    expect(groups.get('sign-on')).toBe('accounts+sign-on');
    expect(groups.get('diary')).toBe('diary');
  });

  test('a suite may call its own operations and the declared ones only', () => {
    expect(suiteMayCall('sign-on', 'introspect', 'accounts')).toBe(true);
    expect(suiteMayCall('accounts', 'introspect', 'accounts')).toBe(true);
    expect(suiteMayCall('diary', 'introspect', 'accounts')).toBe(false);
    for (const ids of Object.values(CROSS_SUITE_CALLS)) for (const id of ids) expect(() => operation(id)).not.toThrow();
  });

  test('faults of coupled suites never share a batch; faults of uncoupled suites may', () => {
    const batches = batchFaults(
      [
        { name: 'a', operations: ['introspect'] },
        { name: 'b', operations: ['revoke-token'] },
        { name: 'c', operations: ['diary-post-auth'] },
      ],
      suiteGroups(),
    );
    const batchOf = (name: string) => batches.find((b) => b.faults.some((f) => f.name === name))?.index;
    expect(batchOf('a')).not.toBe(batchOf('b'));
    expect(batches.length).toBe(2);
  });
});

describe('faults caught at discovery', () => {
  test('share a batch with each other, never an operation, and keep apart from suite-judged faults of their groups', () => {
    const discovery = 'discovery-key-present';
    const batches = batchFaults(
      [
        { name: 'list-hidden', operations: ['list-pending-remittances'], expectedCheck: discovery },
        { name: 'get-hidden', operations: ['get-remittance-details'], expectedCheck: discovery },
        { name: 'list-hidden-too', operations: ['list-pending-remittances'], expectedCheck: discovery },
        { name: 'get-state', operations: ['get-remittance-details'], expectedCheck: 'batch-still-listed' },
      ],
      suiteGroups(),
    );
    const batchOf = (name: string) => batches.find((b) => b.faults.some((f) => f.name === name))?.index;
    expect(batchOf('list-hidden')).toBe(batchOf('get-hidden'));
    expect(batchOf('list-hidden-too')).not.toBe(batchOf('list-hidden'));
    expect(batchOf('get-state')).not.toBe(batchOf('list-hidden'));
    expect(batchOf('get-state')).not.toBe(batchOf('list-hidden-too'));
  });
});
