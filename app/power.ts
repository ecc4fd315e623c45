/**
 * Power per requirement, read back (issue 22, item 9): spec/evidence/power.json, written by
 * scripts/power.ts, says per testable MUST row (server party) which faults of the sandbox prove it
 * or why none does. `conformance faults --unproven` lists the rows no fault proves, with the reason.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadRequirements, type Requirement } from '../spec/requirements.ts';

export const POWER_EVIDENCE_URL = new URL('../spec/evidence/power.json', import.meta.url);

/** Why no fault proves a row (scripts/power.ts `UnprovenReason`), plus rows the file predates. */
export type UnprovenReason =
  | 'hole'
  | 'caught-without-citing'
  | 'presence-unchecked'
  | 'unobservable'
  | 'needs-hand-fault'
  | 'no-success-body'
  | 'not-computed';

export type PowerRow =
  | { proven: true; faults: string[]; more?: number }
  | {
      proven: false;
      reason: Exclude<UnprovenReason, 'not-computed'>;
      detail: string;
      faults?: string[];
      /** For `caught-without-citing`: the checks that caught the faults, with the rows they cited. */
      caughtBy?: string[];
    };

/** The part of spec/evidence/power.json this module reads. */
export interface PowerEvidence {
  generated: string;
  seed: number;
  runs: number;
  command: string;
  summary: { testableMustRows: number; proven: number; share: number } & Record<string, number>;
  rows: Record<string, PowerRow>;
}

export interface UnprovenRow {
  id: string;
  document: Requirement['document'];
  section: string;
  text: string;
  reason: UnprovenReason;
  /** One sentence: what the reason means for this row. */
  detail: string;
  /** Derived faults concerned (those missed, or caught without citing the row); at most five. */
  faults: string[];
  /** For `caught-without-citing`: the checks that caught them and the rows they cited; at most five. */
  caughtBy: string[];
}

/** The testable MUST rows a server is judged on: the rows power is computed for. */
export function testableMustRows(): Requirement[] {
  return loadRequirements('server').filter((r) => r.level === 'MUST' && r.notTestedReason === '');
}

export function readPowerEvidence(url: URL = POWER_EVIDENCE_URL): PowerEvidence {
  return JSON.parse(readFileSync(fileURLToPath(url), 'utf8')) as PowerEvidence;
}

const NOT_COMPUTED =
  'the row is newer than spec/evidence/power.json: recompute it (npx tsx scripts/power.ts) to know whether a fault proves it';

/**
 * Every testable MUST row that no fault is known to prove, in requirement-table order, with its
 * reason: as spec/evidence/power.json records it, or `not-computed` for a row the file predates.
 */
export function unprovenRows(
  evidence: PowerEvidence = readPowerEvidence(),
  rowFaultProofs: ReadonlyMap<string, readonly string[]> = new Map(),
): UnprovenRow[] {
  return testableMustRows().flatMap((r): UnprovenRow[] => {
    if (rowFaultProofs.has(r.id)) return [];
    const row = evidence.rows[r.id];
    const base = { id: r.id, document: r.document, section: r.section, text: r.text };
    if (row === undefined) return [{ ...base, reason: 'not-computed', detail: NOT_COMPUTED, faults: [], caughtBy: [] }];
    if (row.proven) return [];
    return [
      { ...base, reason: row.reason, detail: row.detail, faults: row.faults ?? [], caughtBy: row.caughtBy ?? [] },
    ];
  });
}

/**
 * The rows the row faults name (server/faults/rows/), each with the faults that name it. The fault
 * self-test (test/faults.test.ts) asserts on every `npm run test:full` (CI) that a MUST failure crediting such a
 * fault cites each row it names, so these rows are proven whether or not spec/evidence/power.json
 * has been recomputed since the fault was written.
 */
export function rowFaultProofs(faults: readonly { name: string; rows?: readonly string[] }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of faults) for (const row of f.rows ?? []) out.set(row, [...(out.get(row) ?? []), f.name]);
  return out;
}

/** Rows the evidence names that are no longer testable MUST rows (removed, or changed in level). */
export function staleRows(evidence: PowerEvidence = readPowerEvidence()): string[] {
  const current = new Set(testableMustRows().map((r) => r.id));
  return Object.keys(evidence.rows).filter((id) => !current.has(id));
}

/**
 * The listing of `conformance faults --unproven`: one tab-separated line per row, `id`, reason,
 * detail and the faults concerned (comma-separated, possibly empty), and for a row whose faults
 * were caught without citing it, the checks that caught them (`caught by ...; ...`); then one
 * summary line.
 */
export function formatUnproven(
  rows: readonly UnprovenRow[],
  evidence: PowerEvidence = readPowerEvidence(),
  byRowFaults = 0,
): string[] {
  const total = testableMustRows().length;
  const proven = total - rows.length;
  const rowFaultNote =
    byRowFaults > 0
      ? `; ${byRowFaults} of the proven rows by row faults, which the fault self-test proves on every npm run test:full`
      : '';
  return [
    ...rows.map((r) =>
      [
        r.id,
        r.reason,
        r.detail,
        r.faults.join(', '),
        ...(r.caughtBy.length > 0 ? [`caught by ${r.caughtBy.join('; ')}`] : []),
      ].join('\t'),
    ),
    `${rows.length} of ${total} testable MUST rows proven by no fault (${((proven / Math.max(1, total)) * 100).toFixed(1)}% proven; computed ${evidence.generated} by \`${evidence.command}\`${rowFaultNote})`,
  ];
}
