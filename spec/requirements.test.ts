import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { operations as operationTable } from './operations.ts';
import { operationsD2 } from './operationsD2.ts';
import { operationsD3 } from './operationsD3.ts';
import {
  REQUIREMENTS_CSV_URL,
  REQUIREMENTS_HEADER,
  loadRequirements,
  parseCsv,
  requirementById,
  toRequirements,
} from './requirements.ts';

const csvText = readFileSync(fileURLToPath(REQUIREMENTS_CSV_URL), 'utf8');
const decisionsText = readFileSync(fileURLToPath(new URL('./decisions.md', import.meta.url)), 'utf8');
const requirements = loadRequirements();
// spec/operations.ts may or may not include the Document 2 and 3 rows yet: read all tables, one row per id.
const operations = [...new Map([...operationTable, ...operationsD2, ...operationsD3].map((o) => [o.id, o])).values()];
const operationIds = new Set(operations.map((o) => o.id));

describe('parseCsv', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, CRLF and a missing final line break', () => {
    const text = 'a,b,c\r\n"x, y","say ""hi""",\n"two\nlines",,"z"';
    expect(parseCsv(text)).toEqual([
      ['a', 'b', 'c'],
      ['x, y', 'say "hi"', ''],
      ['two\nlines', '', 'z'],
    ]);
  });

  it('skips blank lines and keeps empty quoted fields', () => {
    expect(parseCsv('a,""\n\nb,c\n')).toEqual([
      ['a', ''],
      ['b', 'c'],
    ]);
  });

  it('throws a one-line message naming the line of an unclosed quote', () => {
    const text = 'id,text\nD1-1-01,"fine"\nD1-1-02,"never closed\n';
    expect(() => parseCsv(text)).toThrowError(/^CSV line 3: unclosed quoted field$/);
  });

  it('throws when a quoted field is followed by other text', () => {
    expect(() => parseCsv('a,"b"c\n')).toThrowError(/^CSV line 1: expected a comma or line end/);
  });

  it('throws on a stray quote inside an unquoted field', () => {
    expect(() => parseCsv('a,b\nab"c,d\n')).toThrowError(/^CSV line 2: stray quote/);
  });
});

describe('toRequirements', () => {
  it('refuses a header that differs from the documented one', () => {
    expect(() => toRequirements([['id', 'text']])).toThrowError(/^Expected header id,document,section/);
  });

  it('refuses a row binding neither the server nor the client', () => {
    const row = ['D1-1-01', 'D1', '1', 'text', 'MUST', '', '', 'proxy'];
    expect(() => toRequirements([[...REQUIREMENTS_HEADER], row])).toThrowError(
      /expected party server or client, received proxy/,
    );
  });

  it('refuses a row with an unknown level', () => {
    const row = ['D1-1-01', 'D1', '1', 'text', 'MAY', '', '', 'server'];
    expect(() => toRequirements([[...REQUIREMENTS_HEADER], row])).toThrowError(
      /expected level MUST, SHOULD or INFO, received MAY/,
    );
  });
});

describe('spec/requirements.csv', () => {
  it('has exactly the documented header', () => {
    expect(parseCsv(csvText)[0]).toEqual([...REQUIREMENTS_HEADER]);
  });

  it('has eight fields on every row', () => {
    const bad = parseCsv(csvText).filter((r) => r.length !== REQUIREMENTS_HEADER.length);
    expect(bad).toEqual([]);
  });

  it('has unique ids of the form D<doc>-<section>-NN', () => {
    const ids = requirements.map((r) => r.id);
    expect(ids.filter((id) => !/^D[123]-[0-9.]+-[0-9]{2}$/.test(id))).toEqual([]);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it('has ids that agree with the document and section columns and number each section from 01 in order', () => {
    const next = new Map<string, number>();
    const mismatches: string[] = [];
    for (const r of requirements) {
      const key = `${r.document}-${r.section}`;
      const n = (next.get(key) ?? 0) + 1;
      next.set(key, n);
      const expected = `${key}-${String(n).padStart(2, '0')}`;
      if (r.id !== expected) mismatches.push(`Expected ${expected}, received ${r.id}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('uses only MUST, SHOULD and INFO', () => {
    expect(requirements.filter((r) => !['MUST', 'SHOULD', 'INFO'].includes(r.level)).map((r) => r.id)).toEqual([]);
  });

  it('has a statement on every row', () => {
    expect(requirements.filter((r) => r.text.trim() === '').map((r) => r.id)).toEqual([]);
  });

  it('names only operations of spec/operations.ts', () => {
    const unknown = requirements.flatMap((r) =>
      r.operations.filter((o) => !operationIds.has(o)).map((o) => `${r.id}: ${o}`),
    );
    expect(unknown).toEqual([]);
  });

  it('names only operations of the row’s own document', () => {
    const foreign = requirements.flatMap((r) =>
      r.operations
        .filter((o) => operations.find((op) => op.id === o)?.document !== r.document)
        .map((o) => `${r.id}: ${o}`),
    );
    expect(foreign).toEqual([]);
  });

  it('mentions only decision ids that exist in spec/decisions.md', () => {
    const known = new Set(decisionsText.match(/^\| (DEC-D[123]-\d+) \|/gm)?.map((m) => m.slice(2, -2)) ?? []);
    const missing = requirements.flatMap((r) =>
      [...`${r.text} ${r.notTestedReason}`.matchAll(/DEC-D[123]-\d+/g)]
        .map((m) => m[0])
        .filter((d) => !known.has(d))
        .map((d) => `${r.id}: ${d}`),
    );
    expect(missing).toEqual([]);
  });

  it('has at least one MUST row for every operation of each document it covers', () => {
    const documents = new Set(requirements.map((r) => r.document));
    const uncovered = operations
      .filter((o) => documents.has(o.document))
      .filter((o) => !requirements.some((r) => r.level === 'MUST' && r.operations.includes(o.id)))
      .map((o) => o.id);
    expect(uncovered).toEqual([]);
  });

  it('has at least one MUST row for every Document 1 operation', () => {
    const d1 = operations.filter((o) => o.document === 'D1');
    expect(d1.length).toBe(12);
    const uncovered = d1
      .filter((o) => !requirements.some((r) => r.level === 'MUST' && r.operations.includes(o.id)))
      .map((o) => o.id);
    expect(uncovered).toEqual([]);
  });
});

describe('spec/requirements.csv, Document 2', () => {
  const d2 = requirements.filter((r) => r.document === 'D2');

  it('has at least one MUST row for every Document 2 operation', () => {
    const ops = operations.filter((o) => o.document === 'D2');
    expect(ops.length).toBe(16);
    const uncovered = ops
      .filter((o) => !d2.some((r) => r.level === 'MUST' && r.operations.includes(o.id)))
      .map((o) => o.id);
    expect(uncovered).toEqual([]);
  });

  it('gives every INFO row a reason it is not judged as a requirement', () => {
    expect(d2.filter((r) => r.level === 'INFO' && r.notTestedReason.trim() === '').map((r) => r.id)).toEqual([]);
  });

  it('has a row for every error code of the register and booking tables, with its status', () => {
    const missing = operations
      .filter((o) => o.document === 'D2')
      .flatMap((o) => o.errors.filter((e) => e.code !== '').map((e) => ({ op: o.id, ...e })))
      .filter(
        (e) =>
          !d2.some((r) => r.section === '7' && r.text.includes(`\`${e.code}\``) && r.text.includes(`HTTP ${e.status}`)),
      )
      .map((e) => `${e.op}: ${e.status} ${e.code}`);
    expect(missing).toEqual([]);
  });
});

describe('spec/requirements.csv, Document 3', () => {
  const d3 = requirements.filter((r) => r.document === 'D3');

  it('has at least one MUST row for every Document 3 operation', () => {
    const ops = operations.filter((o) => o.document === 'D3');
    expect(ops.length).toBe(36);
    const uncovered = ops
      .filter((o) => !d3.some((r) => r.level === 'MUST' && r.operations.includes(o.id)))
      .map((o) => o.id);
    expect(uncovered).toEqual([]);
  });

  it('gives every INFO row a reason it is not judged as a requirement', () => {
    expect(d3.filter((r) => r.level === 'INFO' && r.notTestedReason.trim() === '').map((r) => r.id)).toEqual([]);
  });

  it('has a section 7 row for every documented error of each operation, naming the operation, the message or code and its status', () => {
    const missing = operations
      .filter((o) => o.document === 'D3')
      .flatMap((o) => o.errors.filter((e) => e.code !== '').map((e) => ({ op: o.id, ...e })))
      .filter(
        (e) =>
          !d3.some(
            (r) =>
              r.section === '7' &&
              r.operations.includes(e.op) &&
              r.text.includes(`\`${e.code}\``) &&
              r.text.includes(`HTTP ${e.status}`),
          ),
      )
      .map((e) => `${e.op}: ${e.status} ${e.code}`);
    expect(missing).toEqual([]);
  });

  it("has a section 7 MUST row for the diary lists' 401 without body", () => {
    const lists = operations
      .filter((o) => o.document === 'D3' && o.errors.some((e) => e.status === 401 && e.code === ''))
      .map((o) => o.id);
    expect(lists.length).toBeGreaterThan(0);
    const uncovered = lists.filter(
      (id) =>
        !d3.some(
          (r) => r.section === '7' && r.level === 'MUST' && r.operations.includes(id) && r.text.includes('HTTP 401'),
        ),
    );
    expect(uncovered).toEqual([]);
  });

  it('cites only Document 3 decisions or the shared paging decision DEC-D1-12', () => {
    const foreign = d3.flatMap((r) =>
      [...`${r.text} ${r.notTestedReason}`.matchAll(/DEC-D([123])-\d+/g)]
        .filter((m) => m[1] !== '3' && m[0] !== 'DEC-D1-12')
        .map((m) => `${r.id}: ${m[0]}`),
    );
    expect(foreign).toEqual([]);
  });
});

describe('spec/decisions.md', () => {
  it('has unique decision ids', () => {
    const ids: string[] = [...(decisionsText.match(/^\| (DEC-D[123]-\d+) \|/gm) ?? [])];
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });
});

describe('requirementById', () => {
  it('finds a row by id', () => {
    const first = requirements[0];
    expect(requirementById(first.id)).toEqual(first);
  });

  it('returns undefined for an unknown id', () => {
    expect(requirementById('D9-0-00')).toBeUndefined();
  });
});
