import { STATUSES, emptyCounts, type CheckResult, type Status, type Verdict } from '../../core/results.ts';
import type { Level } from '../../spec/types.ts';
import { esc } from './escape.ts';

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  return `${n} bytes (${(n / 1024).toFixed(1)} KB)`;
}

/** Milliseconds as a short human duration: 850 ms, 12.3 s, 4 min 05 s. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return 'unknown';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const min = Math.floor(s / 60);
  const rest = Math.round(s - min * 60);
  return `${min} min ${String(rest).padStart(2, '0')} s`;
}

export function showValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

export const VERDICT_LABEL: Record<Verdict, string> = {
  conformant: 'Conformant',
  'not-conformant': 'Not conformant',
  inconclusive: 'Inconclusive',
};

export const VERDICT_EXPLANATION: Record<Verdict, string> = {
  conformant: 'Every MUST requirement that was judged passed.',
  'not-conformant': 'At least one MUST requirement failed.',
  inconclusive: 'A MUST requirement could not be judged (error), or no MUST requirement was judged at all.',
};

export const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'INFO'];

export function statusBadge(status: Status): string {
  return `<span class="badge status-${esc(status)}">${esc(status)}</span>`;
}

export function verdictBadge(verdict: Verdict): string {
  return `<span class="badge verdict-${verdict}">${esc(VERDICT_LABEL[verdict])}</span>`;
}

export function countsOf(results: readonly CheckResult[]): Record<Status, number> {
  const counts = emptyCounts();
  for (const r of results) counts[r.status] += 1;
  return counts;
}

export function countCells(counts: Record<Status, number>): string {
  return STATUSES.map((s) => `<td class="num${counts[s] > 0 ? ` has-${s}` : ''}">${counts[s]}</td>`).join('');
}

export const statusHeaders = (): string => STATUSES.map((s) => `<th scope="col" class="num">${s}</th>`).join('');
