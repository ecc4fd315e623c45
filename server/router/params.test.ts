import { describe, expect, test } from 'vitest';
import { createMemoryRepository } from '../repo/memoryRepository.ts';
import { ApiError } from './errors.ts';
import {
  BOOKING_PROFILE,
  CLEARING_PROFILE,
  CODE_SET_PROFILE,
  LOOKUP_PROFILE,
  QUERY_PAGING,
  REGISTER_PROFILE,
  SEARCH_PROFILE,
  comparator,
  dateRange,
  instantOf,
  isDate,
  minuteRange,
  readParameters,
  since,
} from './params.ts';
import { servedOperation } from './operationTable.ts';
import type { SandboxContext } from './types.ts';

const ctx = (): SandboxContext => ({
  repo: createMemoryRepository(),
  served: servedOperation,
  baseUrl: 'http://x',
  faultNames: [],
});

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
  const summary = (fields: Record<string, string>) =>
    readParameters(ctx(), {
      operationId: 'search-remittance-summary',
      profile: SEARCH_PROFILE,
      source: new URLSearchParams(fields),
    });

  test('keeps present, trimmed values and drops absent ones', () => {
    expect(summary({ insurerIdentifier: ' bup ', unknownField: 'x' })).toEqual({ insurerIdentifier: 'bup' });
  });

  test('refuses per the profile', () => {
    expect(refusal(() => summary({ insurerIdentifier: '' }))).toEqual([400, 'MSG_PARAM_EMPTY']);
    expect(refusal(() => summary({ insurerIdentifier: 'zzz' }))).toEqual([422, 'MSG_PARAM_INVALID']);
    expect(refusal(() => summary({ paymentAmount: 'ge1.001' }))).toEqual([422, 'MSG_INVALID_FORMAT']);
    expect(
      refusal(() =>
        readParameters(ctx(), {
          operationId: 'search-bills',
          profile: CLEARING_PROFILE,
          source: new URLSearchParams(),
        }),
      ),
    ).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
  });
});

describe('readParameters: Document 2 profiles', () => {
  const read = (
    operationId: string,
    profile: Parameters<typeof readParameters>[1]['profile'],
    fields: Record<string, string>,
    extra = {},
  ) => readParameters(ctx(), { operationId, profile, source: new URLSearchParams(fields), ...extra });

  test('lookups: an absent or empty text is 400 MSG_MISSING_MANDATORY_PARAM (DEC-D2-07)', () => {
    expect(refusal(() => read('lookup-practitioners', LOOKUP_PROFILE, {}))).toEqual([
      400,
      'MSG_MISSING_MANDATORY_PARAM',
    ]);
    expect(refusal(() => read('lookup-locations', LOOKUP_PROFILE, { text: ' ' }))).toEqual([
      400,
      'MSG_MISSING_MANDATORY_PARAM',
    ]);
    expect(read('lookup-locations', LOOKUP_PROFILE, { text: ' London ', type: 'P' })).toEqual({
      text: 'London',
      type: 'P',
    });
  });

  test('code sets: an unknown set name is 404 MSG_NOT_FOUND; formats replaced by name', () => {
    const path = (set_name: string) => ({ path: { set_name } });
    expect(refusal(() => read('get-code-set', CODE_SET_PROFILE, {}, path('nope')))).toEqual([404, 'MSG_NOT_FOUND']);
    const upTo3 = { formats: { count: { test: (v: string) => Number(v) <= 3, text: 'at most 3' } } };
    expect(read('get-code-set', CODE_SET_PROFILE, { count: '3' }, { ...path('service-type'), ...upTo3 })).toEqual({
      set_name: 'service-type',
      count: '3',
    });
    expect(
      refusal(() => read('get-code-set', CODE_SET_PROFILE, { count: '4' }, { ...path('service-type'), ...upTo3 })),
    ).toEqual([400, 'MSG_INVALID_FORMAT']);
  });

  test('register: empty is MSG_PARAM_EMPTY, bad near / Boolean / enum MSG_INVALID_FORMAT (DEC-D2-30, -58)', () => {
    const roles = (fields: Record<string, string>) =>
      read('search-register-practitioner-roles', REGISTER_PROFILE, fields);
    expect(refusal(() => roles({ gender: '' }))).toEqual([400, 'MSG_PARAM_EMPTY']);
    expect(refusal(() => roles({ near: 'north:west' }))).toEqual([400, 'MSG_INVALID_FORMAT']);
    expect(refusal(() => roles({ near: '51.5:-0.1:5:ft' }))).toEqual([400, 'MSG_INVALID_FORMAT']);
    expect(refusal(() => roles({ 'is-onlinebooking-available': 'yes' }))).toEqual([400, 'MSG_INVALID_FORMAT']);
    expect(refusal(() => roles({ _sort: 'name' }))).toEqual([400, 'MSG_INVALID_FORMAT']);
    expect(roles({ near: '51.5:-0.1:5:mi', _sort: 'distance:desc' })).toEqual({
      near: '51.5:-0.1:5:mi',
      _sort: 'distance:desc',
    });
  });

  test('extra parameters: page and count read beside the operation row', () => {
    const roles = (fields: Record<string, string>) =>
      read('search-register-practitioner-roles', REGISTER_PROFILE, fields, { extraParameters: QUERY_PAGING });
    expect(roles({ page: '2', count: '5' })).toEqual({ page: '2', count: '5' });
    expect(refusal(() => roles({ count: 'ten' }))).toEqual([400, 'MSG_INVALID_FORMAT']);
    expect(read('search-register-practitioner-roles', REGISTER_PROFILE, { page: 'x' })).toEqual({});
  });

  test('booking: empty is MSG_INVALID_FORMAT, a bad _since 422 MSG_DATE_FORMAT (DEC-D2-22, -30)', () => {
    expect(refusal(() => read('search-booking-practitioners', BOOKING_PROFILE, { family: '' }))).toEqual([
      400,
      'MSG_INVALID_FORMAT',
    ]);
    expect(refusal(() => read('search-booking-practitioners', BOOKING_PROFILE, { _since: 'yesterday' }))).toEqual([
      422,
      'MSG_DATE_FORMAT',
    ]);
    expect(refusal(() => read('search-booking-practitioner-roles', BOOKING_PROFILE, { _since: '2026-02-30' }))).toEqual(
      [422, 'MSG_DATE_FORMAT'],
    );
    expect(refusal(() => read('search-booking-practitioners', BOOKING_PROFILE, { near: 'x' }))).toEqual([
      400,
      'MSG_INVALID_FORMAT',
    ]);
  });
});
