import { describe, expect, test } from 'vitest';
import { ActiveFaults } from '../faults/catalog.ts';
import { createMemoryRepository } from '../repo/memoryRepository.ts';
import { ApiError } from './errors.ts';
import { CLEARING_PROFILE, SEARCH_PROFILE, comparator, dateRange, instantOf, isDate, minuteRange, readParameters, since } from './params.ts';
import type { SandboxContext } from './types.ts';

const ctx = (faults: string[] = []): SandboxContext => ({ repo: createMemoryRepository(), faults: new ActiveFaults(faults), baseUrl: 'http://x' });

function refusal(fn: () => unknown): [number, string] | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    if (e instanceof ApiError) return [e.status, e.code];
    throw e;
  }
}

describe('value parsers', () => {
  test('isDate accepts real calendar dates only', () => {
    expect(isDate('2024-02-29')).toBe(true);
    expect(isDate('2025-02-29')).toBe(false);
    expect(isDate('2025-1-01')).toBe(false);
  });

  test('instantOf reads values without an offset as UTC', () => {
    expect(instantOf('2026-01-01')).toBe(Date.UTC(2026, 0, 1));
    expect(instantOf('2026-01-01T10:00')).toBe(Date.UTC(2026, 0, 1, 10));
    expect(instantOf('2026-01-01T10:00:00+01:00')).toBe(Date.UTC(2026, 0, 1, 9));
  });

  test('comparator: le, ge, eq to the penny', () => {
    expect(comparator('le100')(100)).toBe(true);
    expect(comparator('le100')(100.01)).toBe(false);
    expect(comparator('ge99.99')(100)).toBe(true);
    expect(comparator('eq0.1')(0.1)).toBe(true);
  });

  test('minuteRange: a single minute, and inclusive ranges', () => {
    expect(minuteRange('2026-01-01T10:00')('2026-01-01T10:00:59+00:00')).toBe(true);
    expect(minuteRange('2026-01-01T10:00')('2026-01-01T10:01:00+00:00')).toBe(false);
    expect(minuteRange('2026-01-01T10:00_2026-01-01T11:00')('2026-01-01T11:00:30Z')).toBe(true);
  });

  test('dateRange and since', () => {
    expect(dateRange('2026-01-01_2026-01-31')('2026-01-31T23:00:00+00:00')).toBe(true);
    expect(dateRange('2026-01-01_2026-01-31')('2026-02-01')).toBe(false);
    expect(since('2026-01-01T00:00:00Z')('2026-01-01T00:00:00+00:00')).toBe(true);
    expect(since('2026-01-01T00:00:00Z')('2025-12-31T23:59:59+00:00')).toBe(false);
  });
});

describe('readParameters', () => {
  const summary = (fields: Record<string, string>, faults: string[] = []) =>
    readParameters(ctx(faults), { operationId: 'search-remittance-summary', profile: SEARCH_PROFILE, source: new URLSearchParams(fields) });

  test('keeps present, trimmed values and drops absent ones', () => {
    expect(summary({ insurerIdentifier: ' bup ', unknownField: 'x' })).toEqual({ insurerIdentifier: 'bup' });
  });

  test('refuses per the profile', () => {
    expect(refusal(() => summary({ insurerIdentifier: '' }))).toEqual([400, 'MSG_PARAM_EMPTY']);
    expect(refusal(() => summary({ insurerIdentifier: 'zzz' }))).toEqual([422, 'MSG_PARAM_INVALID']);
    expect(refusal(() => summary({ paymentAmount: 'ge1.001' }))).toEqual([422, 'MSG_INVALID_FORMAT']);
    expect(refusal(() => readParameters(ctx(), { operationId: 'search-bills', profile: CLEARING_PROFILE, source: new URLSearchParams() }))).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
  });

  test('the empty-param-accepted fault treats empty as absent', () => {
    expect(summary({ insurerIdentifier: '' }, ['empty-param-accepted'])).toEqual({});
  });
});
