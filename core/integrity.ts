/**
 * Integrity of results.json: a SHA-256 digest of its canonical content (every member but
 * `integrity`, object keys sorted, no insignificant white space). It shows that the files were not
 * altered after the run; it is not a signature (anyone can recompute it), which the report says.
 */
import { createHash } from 'node:crypto';
import type { Integrity, RunResults } from './results.ts';

/** JSON with object keys sorted at every level; `undefined` members left out as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && typeof v !== 'function')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/**
 * Feeds the canonical JSON of a value into a sink piece by piece, the same text `canonicalJson`
 * gives, without ever holding it whole (a run's results.json can be tens of megabytes).
 */
export function writeCanonicalJson(value: unknown, write: (piece: string) => void): void {
  if (value === null || typeof value !== 'object') {
    write(JSON.stringify(value) ?? 'null');
    return;
  }
  if (Array.isArray(value)) {
    write('[');
    value.forEach((v, i) => {
      if (i > 0) write(',');
      if (v === undefined) write('null');
      else writeCanonicalJson(v, write);
    });
    write(']');
    return;
  }
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && typeof v !== 'function')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  write('{');
  entries.forEach(([k, v], i) => {
    write(`${i > 0 ? ',' : ''}${JSON.stringify(k)}:`);
    writeCanonicalJson(v, write);
  });
  write('}');
}

/** The digest of a results value, ignoring any `integrity` member it carries (hashed as it is written). */
export function digestOf(results: Omit<RunResults, 'integrity'> & { integrity?: unknown }): string {
  const { integrity: _ignored, ...content } = results;
  const hash = createHash('sha256');
  let buffered = '';
  writeCanonicalJson(content, (piece) => {
    buffered += piece;
    if (buffered.length >= 65536) {
      hash.update(buffered, 'utf8');
      buffered = '';
    }
  });
  return hash.update(buffered, 'utf8').digest('hex');
}

/** The results with their integrity member set. */
export function sealed(results: RunResults): RunResults {
  const integrity: Integrity = { algorithm: 'sha256', canonicalization: 'json-sorted-keys', digest: digestOf(results) };
  return { ...results, integrity };
}

export type IntegrityState =
  | { state: 'intact'; digest: string }
  | { state: 'altered'; stored: string; actual: string }
  | { state: 'missing'; actual: string };

/** Whether the stored digest matches the content. */
export function integrityOf(results: RunResults): IntegrityState {
  const actual = digestOf(results);
  const stored = results.integrity?.digest;
  if (stored === undefined) return { state: 'missing', actual };
  return stored === actual ? { state: 'intact', digest: actual } : { state: 'altered', stored, actual };
}
