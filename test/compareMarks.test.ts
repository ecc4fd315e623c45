/**
 * The member that differs, marked in each answer of a pair (compare.html and report.html's
 * comparison section): where an array is compared as a set, an item of the reference pairs with an
 * item of the candidate at another index, and the path may run through nested arrays
 * (`/entry/*\/resource/identifier/*\/value`). Each side is marked at its own place, and a side
 * that does not hold the member (gone from the candidate, new in it) is marked nowhere: its place
 * at the other side's path is another item's.
 */
import { describe, expect, test } from 'vitest';
import type { LoggedExchange } from '../core/exchangeLog.ts';
import { compareLogs } from '../app/compare/compareLogs.ts';
import { renderCompareHtml } from '../reports/compareHtml.ts';
import type { Comparison } from '../reports/compareModel.ts';
import { loggedCall } from './support/loggedCalls.ts';

const [REF, CAND] = ['http://127.0.0.1:1001', 'http://127.0.0.1:2002'];

const call = (origin: string, body: unknown): LoggedExchange =>
  loggedCall(origin, { body, path: '/patients/search', operation: 'search-patients', test: 'lookup > t' });

const patient = (id: string, identifier: object[]) => ({
  fullUrl: `urn:${id}`,
  resource: { resourceType: 'Patient', id, identifier },
});

/** compare.html of the two answers compared (no noise: their bodies hold none). */
function page(reference: unknown, candidate: unknown): { html: string; comparison: Comparison } {
  const compared = compareLogs({
    reference: [call(REF, reference)],
    candidate: [call(CAND, candidate)],
    failures: new Map(),
    configured: [],
    mask: (x) => x,
    maskValue: (v) => v,
    replay: (op) => `conformance compare --only ${op}`,
  });
  const comparison: Comparison = {
    suite: { name: 'suite', version: '0' },
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z',
    seed: 1,
    runs: 1,
    allowDestructive: false,
    evidence: 'masked',
    failOn: 'any',
    noiseFrom: 'documents',
    targets: [],
    summary: compared.summary,
    outcome: 'different',
    exitCode: 1,
    operations: compared.operations,
    noise: compared.noise,
    groups: compared.groups,
  };
  return { html: renderCompareHtml(comparison), comparison };
}

/** The marked text in one side's answer of the first group's pair. */
function marks(html: string, side: 'reference' | 'candidate'): string[] {
  const article = html.slice(html.indexOf('<article class="difference'));
  const start = article.indexOf(`<section class="answer answer-${side}"`);
  const answer = article.slice(start, article.indexOf('</section>', start));
  return [...answer.matchAll(/<mark>([\s\S]*?)<\/mark>/g)].map((m) =>
    (m[1] ?? '')
      .replace(/<[^>]+>/g, '')
      .replaceAll('&quot;', '"')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

// Two patients each with two identifiers; the candidate lists the patients and A's identifiers in
// another order (a set: no order is documented), and A's second identifier differs.
const reference = {
  resourceType: 'Bundle',
  entry: [
    patient('A', [
      { system: 's1', value: 'A-1' },
      { system: 's2', value: 'A-2' },
    ]),
    patient('B', [
      { system: 's1', value: 'B-1' },
      { system: 's2', value: 'B-2' },
    ]),
  ],
};

describe('the member that differs is marked at its own place in each answer', () => {
  test('a value changed under two arrays compared as sets: each side marks its own item', () => {
    const candidate = {
      resourceType: 'Bundle',
      entry: [
        reference.entry[1],
        patient('A', [
          { system: 's2', value: 'A-2-changed' },
          { system: 's1', value: 'A-1' },
        ]),
      ],
    };
    const { html, comparison } = page(reference, candidate);
    expect(comparison.groups.map((g) => [g.path, g.kind])).toEqual([
      ['/entry/*/resource/identifier/*/value', 'value-changed'],
    ]);
    expect(comparison.groups[0]?.example).toMatchObject({
      path: '/entry/0/resource/identifier/1/value',
      candidatePath: '/entry/1/resource/identifier/0/value',
      reference: 'A-2',
      candidate: 'A-2-changed',
    });
    expect(marks(html, 'reference')).toEqual(['"value": "A-2"']);
    expect(marks(html, 'candidate')).toEqual(['"value": "A-2-changed"']);
  });

  test("a member gone from an item the candidate lists elsewhere: nothing of another item is marked on the candidate's side", () => {
    const candidate = {
      resourceType: 'Bundle',
      entry: [reference.entry[1], patient('A', [{ system: 's1', value: 'A-1' }, { system: 's2' }])],
    };
    const { html, comparison } = page(reference, candidate);
    const example = comparison.groups[0]?.example;
    expect(comparison.groups.map((g) => [g.path, g.kind])).toEqual([
      ['/entry/*/resource/identifier/*/value', 'member-gone'],
    ]);
    // The reference's place: in the candidate's answer, /entry/0/resource/identifier/1/value is B's "B-2".
    expect(example?.path).toBe('/entry/0/resource/identifier/1/value');
    expect(example?.reference).toBe('A-2');
    expect(example?.candidate).toBeUndefined();
    expect(marks(html, 'reference')).toEqual(['"value": "A-2"']);
    expect(marks(html, 'candidate')).toEqual([]);
    expect(html).not.toContain('<mark>"value": "B-2"</mark>');
  });

  test("an item new in the candidate's set: marked there, and nothing of another item on the reference's side", () => {
    const candidate = {
      resourceType: 'Bundle',
      entry: [
        reference.entry[1],
        patient('A', [
          { system: 's3', value: 'A-3' },
          { system: 's1', value: 'A-1' },
          { system: 's2', value: 'A-2' },
          { system: 's4', value: 'A-4' },
        ]),
      ],
    };
    const { html, comparison } = page(reference, candidate);
    expect(comparison.groups.map((g) => [g.path, g.kind, g.count])).toEqual([
      ['/entry/*/resource/identifier/*', 'member-new', 2],
    ]);
    const example = comparison.groups[0]?.example;
    // The candidate's place; in the reference's answer, /entry/1/resource/identifier/0 is B's first identifier.
    expect(example?.path).toBe('/entry/1/resource/identifier/0');
    expect(example?.reference).toBeUndefined();
    expect(example?.candidate).toEqual({ system: 's3', value: 'A-3' });
    expect(marks(html, 'reference')).toEqual([]);
    expect(marks(html, 'candidate')).toEqual(['{ "system": "s3", "value": "A-3" }']);
  });
});
