import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Decision, loadDecisions, parseDecisions } from './decisions.ts';
import { loadRequirements, type Requirement } from './requirements.ts';

describe('decisions table', () => {
  it('parses every DEC row of spec/decisions.md with its four cells', () => {
    const all = loadDecisions();
    expect(all.length).toBeGreaterThanOrEqual(197);
    for (const d of all) {
      expect(d.id).toMatch(/^DEC-[A-Z0-9]+-\d+$/);
      expect(d.documentSays.length).toBeGreaterThan(0);
      expect(d.suiteDoes.length).toBeGreaterThan(0);
      expect(d.level.length).toBeGreaterThan(0);
    }
  });

  it('ignores headers and prose, and rejects malformed or repeated rows', () => {
    const ok = '| id | a | b | c |\n|---|---|---|---|\n| DEC-X1-01 | says | does | MUST |\ntext';
    expect(parseDecisions(ok)).toEqual([{ id: 'DEC-X1-01', documentSays: 'says', suiteDoes: 'does', level: 'MUST' }]);
    expect(() => parseDecisions('| DEC-X1-01 | says | does |')).toThrow(/line 1: expected 4 cells, received 3/);
    expect(() => parseDecisions(`${ok}\n| DEC-X1-01 | a | b | c |`)).toThrow(/DEC-X1-01 appears twice/);
  });
});

describe('escaped bars', () => {
  it('keeps an escaped bar inside a cell', () => {
    expect(parseDecisions('| DEC-X1-02 | a `\\|` b | does | MUST |')[0]?.documentSays).toBe('a `|` b');
  });
});

/**
 * A decision rests on the documents' own words (issue 22): every quotation of three words or more
 * in its "document says" column stands verbatim in the documents (spec/documents/, a copy of
 * ../shared/spec; letter case, code marks and line breaks aside), so a decision never rests on a
 * sentence the documents do not say.
 */
describe('decisions quote the documents verbatim', () => {
  const here = dirname(fileURLToPath(import.meta.url));
  const documentsDir = join(here, 'documents');
  const read = (dir: string) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')] as const);
  const normal = (t: string) => t.replace(/`/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
  const documents = normal(
    read(documentsDir)
      .map(([, text]) => text)
      .join('\n'),
  );

  it('every quotation in "document says" stands in the documents', () => {
    const missing = loadDecisions().flatMap((d) =>
      [...d.documentSays.matchAll(/"([^"]+)"/g)]
        .map((m) => m[1])
        .filter((q) => normal(q).split(' ').length >= 3 && !documents.includes(normal(q)))
        .map((q) => `${d.id}: "${q}"`),
    );
    expect(missing).toEqual([]);
  });

  /**
   * Issue 22, item 4: a decision that makes the suite stricter or more lenient than a literal
   * reading (its level names MUST or SHOULD) quotes the sentences it rests on. A report row
   * (DEC-R-) may rest on no sentence, and then says so in its "document says" cell.
   */
  const longQuotes = (says: string) =>
    [...says.matchAll(/"([^"]+)"/g)].map((m) => m[1]).filter((q) => normal(q).split(' ').length >= 3);
  const NO_SENTENCE = /rests on no sentence of the documents/i;

  it('every MUST or SHOULD decision quotes the documents at least once', () => {
    const unquoted = loadDecisions()
      .filter((d) => /\b(MUST|SHOULD)\b/.test(d.level))
      .filter((d) => longQuotes(d.documentSays).length === 0)
      .filter((d) => !(d.id.startsWith('DEC-R-') && NO_SENTENCE.test(d.documentSays)))
      .map((d) => d.id);
    expect(unquoted).toEqual([]);
  });

  it('a report row that rests on no sentence says why, and only report rows may', () => {
    for (const d of loadDecisions().filter((x) => NO_SENTENCE.test(x.documentSays))) {
      expect(d.id).toMatch(/^DEC-R-/);
      expect(d.documentSays).toMatch(/rests on no sentence of the documents: \S/i);
    }
  });

  it('double quotes in "document says" delimit quotations only: they pair, and even a short one is verbatim', () => {
    const odd = loadDecisions()
      .filter((d) => (d.documentSays.match(/"/g) ?? []).length % 2 !== 0)
      .map((d) => d.id);
    expect(odd).toEqual([]);
    const notQuoted = loadDecisions().flatMap((d) =>
      [...d.documentSays.matchAll(/"([^"]+)"/g)]
        .map((m) => m[1])
        .filter((q) => !documents.includes(normal(q)))
        .map((q) => `${d.id}: "${q}"`),
    );
    expect(notQuoted).toEqual([]);
  });

  it('the quotation rule can fail: a row without a quotation of three words is found', () => {
    expect(longQuotes('4.4: `_since` is a "Last-updated date-time".')).toEqual([]);
    expect(longQuotes('4.6: "The site is read from the token".')).toHaveLength(1);
  });

  it('the test can fail: a sentence the documents do not say is not found', () => {
    expect(documents.includes(normal('Version 1 is deprecated without sunset date'))).toBe(true);
    expect(documents.includes(normal('always clean up'))).toBe(false);
  });

  it('spec/documents is the copy of ../shared/spec (where that folder is present)', () => {
    const shared = join(here, '..', '..', 'shared', 'spec');
    if (!existsSync(shared)) return;
    expect(read(documentsDir)).toEqual(read(shared));
  });
});

/**
 * Issue 22, item 4: a decision never contradicts a sentence it quotes. Where a decision says the
 * documents give codes with no condition (a code tied to no request: D3 7's patient table,
 * DEC-D3-08, DEC-D3-53), no MUST row resting on it may require one code for a request: the rule
 * (refused, with a code of the table at its status) is MUST, the code whose name states the case
 * SHOULD at most.
 */
describe('decisions agree with the sentences they quote', () => {
  const UNTIED = /\bno conditions?\b|\btied to no\b|\bnone is tied\b/i;
  /** A row that ties a request to one status and code: "refused with HTTP 422 `CODE`", "answers HTTP 404 `CODE`". */
  const TIES_A_CODE = /\b(?:refused with|answers?|answered with) HTTP \d{3} `[A-Z_]+`/;
  const untiedRowsAtMust = (decisions: readonly Decision[], requirements: readonly Requirement[]) => {
    const untied = decisions.filter((d) => UNTIED.test(d.documentSays)).map((d) => d.id);
    return requirements
      .filter((r) => r.level === 'MUST' && untied.some((id) => r.text.includes(id)) && TIES_A_CODE.test(r.text))
      .map((r) => r.id);
  };

  it('no MUST row resting on a decision whose codes are tied to no request requires one code for it', () => {
    expect(
      loadDecisions()
        .filter((d) => UNTIED.test(d.documentSays))
        .map((d) => d.id),
    ).toEqual(expect.arrayContaining(['DEC-D3-08', 'DEC-D3-53']));
    expect(untiedRowsAtMust(loadDecisions(), loadRequirements())).toEqual([]);
  });

  it('the test can fail: the MUST row DEC-D3-08 once had is found', () => {
    const decision: Decision = {
      id: 'DEC-X9-01',
      documentSays: '7: codes with a status and no condition.',
      suiteDoes: 'x',
      level: 'MUST',
    };
    const row = (level: Requirement['level']): Requirement => ({
      ...loadRequirements()[0],
      id: 'D9-1-01',
      level,
      text: 'After a delete, get of the patient answers HTTP 404 `MSG_ENTITY_NOT_FOUND_IN_DATABASE` (DEC-X9-01).',
    });
    expect(untiedRowsAtMust([decision], [row('MUST')])).toEqual(['D9-1-01']);
    expect(untiedRowsAtMust([decision], [row('SHOULD')])).toEqual([]);
  });
});
