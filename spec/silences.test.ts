/**
 * The register of silences stays whole (issue 30, item 2): every decision is classified exactly
 * once, every silence is proven by a named variant that cites it or is PENDING (a list that can only
 * shrink), and every HTTP freedom a real server uses is a silence of the register.
 */
import { describe, expect, it } from 'vitest';
import { CLIENT_CHOICES } from '../examples/reference-client/referenceClient.ts';
import { PACT_CHOICES } from '../pacts/check/pactChoices.ts';
import { VARIANTS } from '../server/variants/catalog.ts';
import { runCli } from '../test/support/cli.ts';
import { loadDecisions } from './decisions.ts';
import { HTTP_FREEDOMS, NO_FREEDOM, PENDING, SILENCES, silenceRegister, wordsOf } from './silences.ts';

/** Pinned: the pending list may only shrink (issue 30's goal is 0); lower it when a variant lands. */
const PENDING_AT_MOST = 0;

const decisions = loadDecisions();
const decisionIds = new Set(decisions.map((d) => d.id));
const byName = new Map(VARIANTS.map((v) => [v.name, v]));

describe('register of silences', () => {
  it('classifies every decision exactly once, as a silence or as no freedom of a server, and names no unknown decision', () => {
    const classified = [...SILENCES.map((s) => s.decision), ...NO_FREEDOM.map((n) => n.decision)];
    const twice = classified.filter((id, i) => classified.indexOf(id) !== i);
    expect(twice).toEqual([]);
    expect(classified.filter((id) => !decisionIds.has(id))).toEqual([]);
    expect(decisions.map((d) => d.id).filter((id) => !classified.includes(id))).toEqual([]);
  });

  it('gives every silence an id of its own decision and every decision without freedom a reason', () => {
    for (const s of SILENCES) {
      expect(s.id).toBe(s.decision.replace(/^DEC-/, 'SIL-'));
      expect(s.choice.trim()).not.toBe('');
    }
    for (const n of NO_FREEDOM) expect(n.reason.trim().length).toBeGreaterThan(10);
  });

  it('names for each sandbox silence only variants of the catalogue that cite its decision in allowedBy', () => {
    const wrong = SILENCES.filter((s) => !s.client).flatMap((s) =>
      s.variants.flatMap((name) => {
        const v = byName.get(name);
        if (v === undefined) return [`${s.id}: no variant ${name}`];
        return v.allowedBy.some((a) => a.trim() === s.decision) ? [] : [`${s.id}: ${name} does not cite ${s.decision}`];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it('names for each client silence only choices of the reference client that rest on its decision', () => {
    const choices: Readonly<Record<string, string>> = {
      ...CLIENT_CHOICES,
      ...Object.fromEntries(Object.entries(PACT_CHOICES).map(([name, c]) => [name, c.description])),
    };
    const wrong = SILENCES.filter((s) => s.client).flatMap((s) => {
      const decision = decisions.find((d) => d.id === s.decision);
      return s.variants.flatMap((name) => {
        const text = choices[name];
        if (text === undefined) return [`${s.id}: no client choice ${name}`];
        // The choice names the decision, or quotes the words the decision rests on.
        const quotes = [...(decision?.documentSays ?? '').matchAll(/"([^"]+)"/g)].map((m) => m[1]);
        return text.includes(s.decision) || quotes.some((q) => text.includes(q)) ? [] : [`${s.id}: ${name}`];
      });
    });
    expect(wrong).toEqual([]);
  });

  it('keeps every silence without a variant in PENDING, and only those, with what its variant would do', () => {
    const unproven = SILENCES.filter((s) => s.variants.length === 0).map((s) => s.decision);
    expect(Object.keys(PENDING).sort()).toEqual([...unproven].sort());
    for (const plan of Object.values(PENDING)) expect(plan.trim().length).toBeGreaterThan(10);
  });

  it('lets the pending list only shrink', () => {
    expect(Object.keys(PENDING).length).toBeLessThanOrEqual(PENDING_AT_MOST);
  });

  it('holds every HTTP freedom a real server uses, each once, on a decision of its own', () => {
    const held = SILENCES.flatMap((s) => (s.http === undefined ? [] : [s.http]));
    expect([...held].sort()).toEqual([...HTTP_FREEDOMS].sort());
  });

  it('reads the words of a silence from its decision, quotations first', () => {
    expect(wordsOf({ documentSays: '4.1: "a b c" and "x y"; "d e f g".' })).toBe('"a b c" "d e f g"');
    expect(wordsOf({ documentSays: 'not shown' })).toBe('not shown');
    const line = silenceRegister().find((l) => l.silence.decision === 'DEC-D1-03');
    expect(line?.words).toContain('"Success: exactly one match returns a Coverage resource."');
  });
});

describe('conformance variants --silences', () => {
  it('prints one line per silence with its decision, words and variants or NO VARIANT, then a summary', async () => {
    const { code, stdout } = await runCli(['variants', '--silences']);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(SILENCES.length + 1);
    const byId = new Map(lines.slice(0, -1).map((l) => [l.split('\t')[0], l.split('\t')]));
    for (const s of SILENCES) {
      const cells = byId.get(s.id);
      expect(cells?.[1]).toMatch(new RegExp(`^${s.decision}( |$)`));
      const shown = cells?.at(-1) ?? '';
      if (s.variants.length > 0) for (const v of s.variants) expect(shown).toContain(v);
      else expect(shown).toMatch(/^NO VARIANT \(pending: .+\)$/);
    }
    const proven = SILENCES.filter((s) => s.variants.length > 0).length;
    expect(lines.at(-1)).toBe(
      `${SILENCES.length} silences: ${proven} with a variant, ${SILENCES.length - proven} without (${Object.keys(PENDING).length} pending).`,
    );
  });
});
