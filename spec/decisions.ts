/**
 * The decision table (spec/decisions.md): one row per point the documents leave open. Runs record
 * the ids they applied; results.json carries the applied rows so the report needs nothing else.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Decision {
  /** `DEC-D1-01`, ... */
  id: string;
  documentSays: string;
  suiteDoes: string;
  level: string;
}

export const DECISIONS_MD_URL = new URL('./decisions.md', import.meta.url);

const ROW = /^\|\s*(DEC-[A-Z0-9]+-\d+)\s*\|(.*)\|\s*$/;

/**
 * Rows of the markdown tables whose first cell is a decision id. A row must have exactly four
 * cells (id, what the document says, what the suite does, level).
 *
 * @throws Error naming the line of a malformed or repeated row (a bug in the table).
 */
export function parseDecisions(markdown: string): Decision[] {
  const out: Decision[] = [];
  const seen = new Set<string>();
  markdown.split(/\r?\n/).forEach((line, i) => {
    const m = ROW.exec(line);
    if (!m) return;
    // A `|` inside a cell is written `\|` (as GitHub's tables need).
    const cells = m[2].split(/(?<!\\)\|/).map((c) => c.trim().replaceAll('\\|', '|'));
    if (cells.length !== 3)
      throw new Error(`decisions.md line ${i + 1}: expected 4 cells, received ${cells.length + 1}`);
    if (seen.has(m[1])) throw new Error(`decisions.md line ${i + 1}: ${m[1]} appears twice`);
    seen.add(m[1]);
    out.push({ id: m[1], documentSays: cells[0], suiteDoes: cells[1], level: cells[2] });
  });
  return out;
}

let cache: Decision[] | undefined;

/** Every decision of spec/decisions.md, in file order (read once). */
export function loadDecisions(): Decision[] {
  cache ??= parseDecisions(readFileSync(fileURLToPath(DECISIONS_MD_URL), 'utf8'));
  return cache;
}
