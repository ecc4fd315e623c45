import { describe, expect, it } from 'vitest';
import { resultsDisjoint } from './resultsDisjoint.ts';

describe('resultsDisjoint', () => {
  it('passes when the results share nothing (or one is empty)', () => {
    expect(
      resultsDisjoint.run({ labels: ['read', 'unread'], sets: [new Set(['a', 'b']), new Set(['c'])] }).outcome,
    ).toBe('pass');
    expect(resultsDisjoint.run({ labels: ['read', 'unread'], sets: [new Set(), new Set(['c'])] }).outcome).toBe('pass');
  });

  it('fails on a shared record', () => {
    expect(
      resultsDisjoint.run({ labels: ['read', 'unread'], sets: [new Set(['a', 'b']), new Set(['b'])] }).message,
    ).toBe('Expected no record in both the read and unread results, received 1 (b)');
  });
});
