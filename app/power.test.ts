import { describe, expect, test } from 'vitest';
import { FAULTS } from '../server/faults/catalog.ts';
import {
  formatUnproven,
  rowFaultProofs,
  type PowerEvidence,
  readPowerEvidence,
  staleRows,
  testableMustRows,
  unprovenRows,
} from './power.ts';

const REASONS = [
  'hole',
  'caught-without-citing',
  'presence-unchecked',
  'unobservable',
  'needs-hand-fault',
  'no-success-body',
];

describe('spec/evidence/power.json', () => {
  const evidence = readPowerEvidence();

  test('is consistent with the current requirement rows: each testable MUST row proven or listed with a reason', () => {
    const rows = testableMustRows();
    expect(rows.length).toBeGreaterThan(500);
    // A row newer than the file is proven all the same when a row fault names it (the self-test asserts it).
    const byRowFaults = rowFaultProofs(FAULTS);
    const missing = rows.filter((r) => evidence.rows[r.id] === undefined && !byRowFaults.has(r.id)).map((r) => r.id);
    expect(missing, 'rows newer than the evidence: recompute it with npx tsx scripts/power.ts').toEqual([]);
    expect(staleRows(evidence), 'rows the evidence names that are no longer testable MUST rows').toEqual([]);
    for (const [id, row] of Object.entries(evidence.rows)) {
      if (row.proven) expect(row.faults.length, id).toBeGreaterThan(0);
      else {
        expect(REASONS, id).toContain(row.reason);
        expect(row.detail, id).not.toBe('');
      }
    }
  });

  test('its summary agrees with its rows', () => {
    const proven = Object.values(evidence.rows).filter((r) => r.proven).length;
    expect(evidence.summary.proven).toBe(proven);
    expect(evidence.summary.testableMustRows).toBe(Object.keys(evidence.rows).length);
    expect(evidence.summary.share).toBeCloseTo(proven / evidence.summary.testableMustRows, 3);
  });

  test('D2-2.2-04 (each code-set item carries `display`) is proven by the derived fault that drops it', () => {
    const row = evidence.rows['D2-2.2-04'];
    expect(row?.proven).toBe(true);
  });
});

describe('unprovenRows and formatUnproven', () => {
  const [first, second, third] = testableMustRows();
  const evidence: PowerEvidence = {
    generated: '2026-11-26',
    seed: 1,
    runs: 1,
    command: 'npx tsx scripts/power.ts --seed 1 --runs 1',
    summary: { testableMustRows: 2, proven: 1, share: 0.5 },
    rows: {
      [first.id]: { proven: true, faults: ['ack-returns-204'] },
      [second.id]: {
        proven: false,
        reason: 'hole',
        detail: 'a derived fault breaking this member is not caught',
        faults: ['shape:x:/a:missing'],
      },
    },
  };

  test('lists the unproven rows with their reason, and the rows the file predates as not computed', () => {
    const rows = unprovenRows(evidence);
    expect(rows[0]).toMatchObject({ id: second.id, reason: 'hole', faults: ['shape:x:/a:missing'], text: second.text });
    expect(rows[1]).toMatchObject({ id: third.id, reason: 'not-computed', faults: [] });
    expect(rows.map((r) => r.id)).not.toContain(first.id);
    expect(rows).toHaveLength(testableMustRows().length - 1);
  });

  test('a row whose faults were caught without citing it names the checks that caught them', () => {
    const caught: PowerEvidence = {
      ...evidence,
      rows: {
        ...evidence.rows,
        [second.id]: {
          proven: false,
          reason: 'caught-without-citing',
          detail: 'caught, but by checks that do not cite this row',
          faults: ['shape:x:/a:type'],
          caughtBy: ['matches-schema on x citing D9-1-01'],
        },
      },
    };
    const rows = unprovenRows(caught);
    expect(rows[0]).toMatchObject({ id: second.id, caughtBy: ['matches-schema on x citing D9-1-01'] });
    expect(rows[1]?.caughtBy).toEqual([]);
    expect(formatUnproven(rows, caught)[0]).toBe(
      `${second.id}\tcaught-without-citing\tcaught, but by checks that do not cite this row\tshape:x:/a:type\tcaught by matches-schema on x citing D9-1-01`,
    );
  });

  test('a row a row fault names is proven (the fault self-test asserts its citation), whatever the file says', () => {
    const proofs = rowFaultProofs([
      { name: 'f-1', rows: [second.id] },
      { name: 'f-2', rows: [second.id, 'D9-9-99'] },
    ]);
    expect(proofs.get(second.id)).toEqual(['f-1', 'f-2']);
    const rows = unprovenRows(evidence, proofs);
    expect(rows.map((r) => r.id)).not.toContain(second.id);
    expect(rows).toHaveLength(testableMustRows().length - 2);
    expect(formatUnproven(rows, evidence, 1).at(-1)).toMatch(
      /; 1 of the proven rows by row faults, which the fault self-test proves on every npm run test:full\)$/,
    );
  });

  test('one tab-separated line per row, then a summary line', () => {
    const lines = formatUnproven(unprovenRows(evidence), evidence);
    expect(lines[0]).toBe(`${second.id}\thole\ta derived fault breaking this member is not caught\tshape:x:/a:missing`);
    expect(lines[lines.length - 1]).toMatch(
      /^\d+ of \d+ testable MUST rows proven by no fault \(\d+\.\d% proven; computed 2026-11-26 by `npx tsx scripts\/power\.ts --seed 1 --runs 1`\)$/,
    );
  });
});
