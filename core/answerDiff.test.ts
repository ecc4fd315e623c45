import { describe, expect, test } from 'vitest';
import { type Answer, compareAnswers, groupDifferences, learnNoise, type PairedDifference } from './answerDiff.ts';

const answer = (body: unknown, status = 200, headers: Record<string, string> = {}): Answer => ({
  status,
  headers,
  body,
});

const bundle = (entries: { id: string; family: string }[], extra: Record<string, unknown> = {}) => ({
  resourceType: 'Bundle',
  type: 'searchset',
  total: entries.length,
  entry: entries.map((e) => ({ resource: { resourceType: 'Patient', id: e.id, name: [{ family: e.family }] } })),
  ...extra,
});

describe('two answers compared', () => {
  test('the same answer, members in another order: no difference', () => {
    const a = answer({ b: 1, a: { y: [1, 2], x: 'v' } });
    const b = answer({ a: { x: 'v', y: [1, 2] }, b: 1 });
    expect(compareAnswers(a, b)).toEqual([]);
  });

  test('status, named headers, a value, a type, a member gone and one new, each with its kind and path', () => {
    const ref = answer({ total: 2, meta: { tag: 'x' }, note: 'a' }, 200, {
      'content-type': 'application/json',
      date: 'd1',
    });
    const cand = answer({ total: '2', meta: { tag: 'y' }, extra: true }, 201, {
      'content-type': 'application/fhir+json',
      date: 'd2',
    });
    expect(compareAnswers(ref, cand, { headers: ['Content-Type'] })).toEqual([
      { kind: 'status-changed', path: 'status', abstractPath: 'status', reference: 200, candidate: 201 },
      {
        kind: 'header-changed',
        path: 'header:content-type',
        abstractPath: 'header:content-type',
        reference: 'application/json',
        candidate: 'application/fhir+json',
      },
      { kind: 'type-changed', path: '/total', abstractPath: '/total', reference: 2, candidate: '2' },
      { kind: 'value-changed', path: '/meta/tag', abstractPath: '/meta/tag', reference: 'x', candidate: 'y' },
      { kind: 'member-gone', path: '/note', abstractPath: '/note', reference: 'a' },
      { kind: 'member-new', path: '/extra', abstractPath: '/extra', candidate: true },
    ]);
  });

  test('an array whose order is not documented compares as a set; one whose order is, in order', () => {
    const ref = answer(
      bundle([
        { id: 'p1', family: 'A' },
        { id: 'p2', family: 'B' },
      ]),
    );
    const swapped = answer(
      bundle([
        { id: 'p2', family: 'B' },
        { id: 'p1', family: 'A' },
      ]),
    );
    expect(compareAnswers(ref, swapped)).toEqual([]);
    const ordered = compareAnswers(ref, swapped, { ordered: (p) => p === '/entry' });
    expect(ordered.map((d) => [d.kind, d.path])).toEqual([
      ['value-changed', '/entry/0/resource/id'],
      ['value-changed', '/entry/0/resource/name/*/family'.replace('*', '0')],
      ['value-changed', '/entry/1/resource/id'],
      ['value-changed', '/entry/1/resource/name/0/family'],
    ]);
  });

  test('set items with the same id pair member by member; the rest are gone or new', () => {
    const ref = answer(
      bundle([
        { id: 'p1', family: 'A' },
        { id: 'p2', family: 'B' },
      ]),
    );
    const cand = answer(
      bundle([
        { id: 'p3', family: 'C' },
        { id: 'p1', family: 'Z' },
      ]),
    );
    const d = compareAnswers(ref, cand);
    // p1 is the reference's first entry and the candidate's second: each answer's place is kept.
    expect(d).toContainEqual({
      kind: 'value-changed',
      path: '/entry/0/resource/name/0/family',
      candidatePath: '/entry/1/resource/name/0/family',
      abstractPath: '/entry/*/resource/name/*/family',
      reference: 'A',
      candidate: 'Z',
    });
    expect(d.filter((x) => x.kind === 'member-gone').map((x) => x.path)).toEqual(['/entry/1']);
    expect(d.filter((x) => x.kind === 'member-new').map((x) => x.path)).toEqual(['/entry/0']);
  });

  test('text bodies compare whole; no body on either side is no difference', () => {
    expect(compareAnswers(answer('plain'), answer('other'))[0]).toMatchObject({ kind: 'body-changed' });
    expect(compareAnswers(answer(undefined), answer(undefined))).toEqual([]);
  });
});

describe('noise learnt from two primaries', () => {
  test('paths that differ between two answers of one primary are left out of the comparison with the candidate', () => {
    const first = answer({ id: 'gen-1', meta: { lastUpdated: 't1' }, total: 1, entry: [{ id: 'e1', n: 1 }] });
    const second = answer({ id: 'gen-2', meta: { lastUpdated: 't2' }, total: 1, entry: [{ id: 'e1', n: 1 }] });
    const noise = learnNoise(first, second);
    expect([...noise].sort()).toEqual(['/id', '/meta/lastUpdated']);
    const candidate = answer({ id: 'gen-3', meta: { lastUpdated: 't3' }, total: 2, entry: [{ id: 'e1', n: 1 }] });
    expect(compareAnswers(first, candidate, { ignore: noise })).toEqual([
      { kind: 'value-changed', path: '/total', abstractPath: '/total', reference: 1, candidate: 2 },
    ]);
    // An ignored path ignores everything under it too.
    expect(
      compareAnswers(first, answer({ ...(candidate.body as object), meta: { lastUpdated: 5 } }), {
        ignore: new Set(['/meta']),
      }).map((d) => d.path),
    ).toEqual(['/id', '/total']);
  });
});

describe('what is left out', () => {
  test('rules given as a matcher leave out what they match, and set items that differ only there pair as equal', () => {
    const ref = answer({
      entry: [
        { n: 'a', meta: { lastUpdated: 't1' } },
        { n: 'b', meta: { lastUpdated: 't2' } },
      ],
    });
    const cand = answer({
      entry: [
        { n: 'b', meta: { lastUpdated: 't9' } },
        { n: 'a', meta: { lastUpdated: 't8' } },
      ],
    });
    // Without the rule the items name no id and differ: gone and new.
    expect(compareAnswers(ref, cand).map((d) => d.kind)).toEqual([
      'member-gone',
      'member-gone',
      'member-new',
      'member-new',
    ]);
    const volatile = { has: (p: string) => p.endsWith('/meta/lastUpdated') };
    expect(compareAnswers(ref, cand, { ignore: volatile })).toEqual([]);
  });

  test('the whole body left out leaves the status and the headers compared', () => {
    const d = compareAnswers(answer('a', 200), answer('b', 201), { ignore: new Set(['']) });
    expect(d.map((x) => x.kind)).toEqual(['status-changed']);
  });
});

describe('differences grouped like findings', () => {
  test('by operation, abstract path and kind, with a count and the first example, most frequent first', () => {
    const d = (operation: string, pair: number, path: string, abstractPath: string): PairedDifference => ({
      operation,
      pair,
      kind: 'value-changed',
      path,
      abstractPath,
      reference: 1,
      candidate: 2,
    });
    const groups = groupDifferences([
      d('get-bill', 0, '/total', '/total'),
      d('search-bills', 1, '/entry/0/x', '/entry/*/x'),
      d('search-bills', 2, '/entry/3/x', '/entry/*/x'),
    ]);
    expect(groups.map((g) => [g.operation, g.abstractPath, g.count, g.example.pair, g.pairs])).toEqual([
      ['search-bills', '/entry/*/x', 2, 1, [1, 2]],
      ['get-bill', '/total', 1, 0, [0]],
    ]);
  });
});
