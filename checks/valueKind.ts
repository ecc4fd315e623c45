/**
 * Message and evidence support for values that must not be repeated in full: tokens (named by
 * their kind only) and untrusted target text (cut short before it is recorded).
 */
import { show } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';

/** The kind of a JSON value, never the value: `<absent>`, `null`, `an empty string`, `a string`, ... */
export function kindOf(value: unknown): string {
  if (value === undefined) return '<absent>';
  if (value === null) return 'null';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a Boolean';
  if (Array.isArray(value)) return 'an array';
  return isRecord(value) ? 'an object' : typeof value;
}

/** A target value fit for evidence: scalars as they are, long text and structures cut short. */
export function briefValue(value: unknown, max = 200): unknown {
  if (value === undefined || value === null || typeof value === 'boolean' || typeof value === 'number') return value;
  if (typeof value === 'string') return value.length > max ? `${value.slice(0, max - 1)}…` : value;
  return show(value, max);
}
