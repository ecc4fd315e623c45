/**
 * The requirement table (spec/requirements.csv): one row per testable statement of the documents.
 * Suites bind checks to these ids; the coverage report joins results to them. Later documents add
 * rows to the same file, so nothing here is specific to Document 1.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import type { DocumentId, Level } from './types.ts';

/** One row of spec/requirements.csv. */
export interface Requirement {
  /** `D<doc>-<section>-NN`, e.g. `D1-4.2-03`. */
  id: string;
  document: DocumentId;
  /** Section of the document, e.g. `4.2` or `7`. */
  section: string;
  /** The statement, close to the document's words. */
  text: string;
  level: Level;
  /** Operation ids of spec/operations.ts the statement concerns; empty when none specifically. */
  operations: string[];
  /** Why a black-box check cannot verify the statement; empty when it can. */
  notTestedReason: string;
  /**
   * Whom the statement binds: `server` (judged by `conformance run` and `pact verify`) or `client`
   * (judged by `conformance certify-client` and `pact check`). Each kind of run counts only its own
   * party's rows for coverage.
   */
  party: Party;
}

export type Party = 'server' | 'client';
const PARTIES: readonly Party[] = ['server', 'client'];

/** The exact header row of spec/requirements.csv. */
export const REQUIREMENTS_HEADER = [
  'id',
  'document',
  'section',
  'text',
  'level',
  'operations',
  'notTestedReason',
  'party',
] as const;

/** Where the table lives: next to this module. */
export const REQUIREMENTS_CSV_URL = new URL('./requirements.csv', import.meta.url);

/**
 * Parses RFC 4180 CSV text into records of fields. Fields may be quoted with double quotes; a
 * doubled quote inside a quoted field is one quote; quoted fields may hold commas and line breaks.
 * Lines end in LF or CRLF; a final line break is optional; blank lines are skipped.
 *
 * @throws Error with a one-line message naming the 1-based line number when a quote is left
 *   unclosed or a quoted field is followed by anything other than a comma or line end.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  // True once the current record has content (a character, a comma or a quoted field).
  let hasContent = false;
  let line = 1;
  let i = 0;

  const isLineEnd = (at: number): boolean => text[at] === '\n' || (text[at] === '\r' && text[at + 1] === '\n');

  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      if (field !== '') throw new Error(`CSV line ${line}: stray quote inside an unquoted field`);
      const openedAt = line;
      hasContent = true;
      i += 1;
      for (;;) {
        if (i >= text.length) throw new Error(`CSV line ${openedAt}: unclosed quoted field`);
        const d = text[i];
        if (d === '"' && text[i + 1] === '"') {
          field += '"';
          i += 2;
        } else if (d === '"') {
          i += 1;
          break;
        } else {
          if (d === '\n') line += 1;
          field += d;
          i += 1;
        }
      }
      if (i < text.length && text[i] !== ',' && !isLineEnd(i)) {
        throw new Error(
          `CSV line ${line}: expected a comma or line end after a quoted field, received ${JSON.stringify(text[i])}`,
        );
      }
    } else if (c === ',') {
      record.push(field);
      field = '';
      hasContent = true;
      i += 1;
    } else if (isLineEnd(i)) {
      if (hasContent) {
        record.push(field);
        records.push(record);
      }
      record = [];
      field = '';
      hasContent = false;
      line += 1;
      i += c === '\r' ? 2 : 1;
    } else {
      field += c;
      hasContent = true;
      i += 1;
    }
  }
  if (hasContent) {
    record.push(field);
    records.push(record);
  }
  return records;
}

const DOCUMENTS: readonly DocumentId[] = ['D1', 'D2', 'D3'];
const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'INFO'];

/**
 * Turns parsed CSV records (header first) into requirements.
 *
 * @throws Error when the header differs from {@link REQUIREMENTS_HEADER}, a row has the wrong
 *   number of fields, or a document or level value is unknown (a bug in the table, not a target fault).
 */
export function toRequirements(records: string[][]): Requirement[] {
  const [header, ...rows] = records;
  if (!header || header.join(',') !== REQUIREMENTS_HEADER.join(',')) {
    throw new Error(`Expected header ${REQUIREMENTS_HEADER.join(',')}, received ${header?.join(',') ?? '<none>'}`);
  }
  return rows.map((r, index) => {
    const row = index + 2;
    if (r.length !== REQUIREMENTS_HEADER.length) {
      throw new Error(`Requirement row ${row}: expected ${REQUIREMENTS_HEADER.length} fields, received ${r.length}`);
    }
    const [id, document, section, text, level, operations, notTestedReason, party] = r;
    if (!PARTIES.includes(party as Party)) {
      throw new Error(`Requirement row ${row} (${id}): expected party server or client, received ${party}`);
    }
    if (!DOCUMENTS.includes(document as DocumentId)) {
      throw new Error(`Requirement row ${row} (${id}): expected document D1, D2 or D3, received ${document}`);
    }
    if (!LEVELS.includes(level as Level)) {
      throw new Error(`Requirement row ${row} (${id}): expected level MUST, SHOULD or INFO, received ${level}`);
    }
    return {
      id,
      document: document as DocumentId,
      section,
      text,
      level: level as Level,
      operations: operations.split(/\s+/).filter((o) => o !== ''),
      notTestedReason,
      party: party as Party,
    };
  });
}

let cache: Requirement[] | undefined;

/**
 * The requirements of spec/requirements.csv, in file order (read once, then cached): every row, or
 * only those binding one party (a server run counts the server's rows, a client certification the
 * client's).
 */
export function loadRequirements(party?: Party): Requirement[] {
  cache ??= toRequirements(parseCsv(readFileSync(fileURLToPath(REQUIREMENTS_CSV_URL), 'utf8')));
  return party === undefined ? cache : cache.filter((r) => r.party === party);
}

/** The requirement with this id, or undefined when the table has none. */
export function requirementById(id: string): Requirement | undefined {
  return loadRequirements().find((r) => r.id === id);
}
