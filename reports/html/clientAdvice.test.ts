import { describe, expect, test } from 'vitest';
import { CHECK_REGISTRY } from '../../checks/registry.ts';
import { CLIENT_ADVICE } from './clientAdvice.ts';

describe('client advice', () => {
  test('every client check has a sentence for the partner who must change their client', () => {
    const clientChecks = [...CHECK_REGISTRY.keys()].filter((id) => id.startsWith('client-'));
    expect(clientChecks.length).toBeGreaterThan(15);
    expect(clientChecks.filter((id) => CLIENT_ADVICE[id] === undefined)).toEqual([]);
  });

  test('no advice names a server run setting or speaks to an API operation', () => {
    expect(Object.values(CLIENT_ADVICE).filter((a) => /http\.timeoutMs|the target answers/.test(a))).toEqual([]);
  });
});
