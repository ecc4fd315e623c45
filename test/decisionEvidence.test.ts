/**
 * Every "passes" clause of spec/decisions.md is executable: a decision whose "suite does" column
 * says a form passes, is accepted, or is recorded rather than failed is shown by a sandbox variant
 * that makes that choice (and the variant self-test proves the run stays conformant), or by a
 * valid schema example (core/schemaRegistry.test.ts proves it validates), or the evidence file says
 * why no answer form is involved (the clause is about what the suite sends).
 * Evidence lives in spec/evidence/*.json; a variant citing the decision in `allowedBy` suffices.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { VARIANTS } from '../server/variants/catalog.ts';
import { loadDecisions } from '../spec/decisions.ts';
import { ROOT } from './support/cli.ts';

interface Evidence {
  examples?: string[];
  variants?: string[];
  notAnAnswer?: string;
}

const PASSES = /\b(passes|pass|accepted|accepts|either form|either is|not failed|is allowed|are allowed)\b/i;
const evidenceDir = join(ROOT, 'spec', 'evidence');
const EVIDENCE: Record<string, Evidence> = Object.assign(
  {},
  ...readdirSync(evidenceDir)
    .filter((f) => f.endsWith('.json') && f !== 'power.json')
    .map((f) => JSON.parse(readFileSync(join(evidenceDir, f), 'utf8')) as Record<string, Evidence>),
);
const citedByVariant = new Set(
  VARIANTS.flatMap((v) => v.allowedBy.flatMap((a) => a.match(/DEC-[A-Z0-9]+-\d+/g) ?? [])),
);
const variantNames = new Set(VARIANTS.map((v) => v.name));

describe('decision evidence', () => {
  const decisions = loadDecisions();

  test('every decision with a "passes" clause has executable evidence', () => {
    const missing = decisions
      .filter((d) => !d.id.startsWith('DEC-R-') && PASSES.test(d.suiteDoes))
      .filter((d) => !citedByVariant.has(d.id) && EVIDENCE[d.id] === undefined)
      .map((d) => d.id);
    expect(
      missing,
      'decisions with a passes clause and neither a variant nor a valid example nor a reason (spec/evidence/*.json)',
    ).toEqual([]);
  });

  test('evidence names decisions, valid examples and variants that exist', () => {
    const ids = new Set(decisions.map((d) => d.id));
    const problems: string[] = [];
    for (const [id, e] of Object.entries(EVIDENCE)) {
      if (!ids.has(id)) problems.push(`${id}: no such decision`);
      if (!e.examples?.length && !e.variants?.length && !e.notAnAnswer) problems.push(`${id}: names no evidence`);
      for (const x of e.examples ?? []) {
        if (!/\.valid(-[a-z0-9-]+)?\.json$/.test(x)) problems.push(`${id}: ${x} is not a valid example`);
        else if (!existsSync(join(ROOT, 'schemas', 'examples', x))) problems.push(`${id}: ${x} does not exist`);
      }
      for (const v of e.variants ?? []) if (!variantNames.has(v)) problems.push(`${id}: no variant ${v}`);
    }
    expect(problems).toEqual([]);
  });
});
