import { describe, expect, it } from 'vitest';
import { loadDecisions, parseDecisions } from './decisions.ts';

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
