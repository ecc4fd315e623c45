import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { LoggedExchange } from '../../core/exchangeLog.ts';
import { Redactor } from '../../core/redact.ts';
import { compareLogs, type LogsToCompare } from './compareLogs.ts';
import { configuredNoise, pathMatches } from './noise.ts';
import { pairExchanges } from './pairExchanges.ts';
import { VOLATILE_MEMBERS } from './volatileMembers.ts';
import { exchangeOfRecord } from '../../test/support/loggedCalls.ts';

/** A logged call: an answer of the target at `origin` to a request of an operation. */
function call(
  origin: string,
  ordinal: number,
  path: string,
  body: unknown,
  options: { test?: string; operation?: string; status?: number; id?: string } = {},
): LoggedExchange {
  const text = JSON.stringify(body).replaceAll('{origin}', origin);
  return {
    suite: 'bills',
    test: options.test ?? 'search-bills > t',
    ordinal,
    id: options.id ?? `${origin}#${ordinal}`,
    exchange: {
      method: 'GET',
      url: `${origin}/claims${path}`,
      operation: options.operation ?? 'search-bills',
      startedAt: '2026-01-01T00:00:00.000Z',
      duration: 1,
      request: { headers: { accept: 'application/json' } },
      status: options.status ?? 200,
      response: {
        headers: { 'content-type': 'application/fhir+json; charset=utf-8' },
        body: text,
        size: text.length,
        truncated: false,
      },
    },
  };
}

const [REF, CAND, SECOND] = ['http://127.0.0.1:1001', 'http://127.0.0.1:2002', 'http://127.0.0.1:3003'];

const logs = (over: Partial<LogsToCompare>): LogsToCompare => ({
  reference: [],
  candidate: [],
  failures: new Map(),
  configured: [],
  mask: (x) => x,
  maskValue: (v) => v,
  replay: (op) => `conformance compare --only ${op}`,
  ...over,
});

const bundle = (type: string, extra: Record<string, unknown> = {}) => ({
  resourceType: 'Bundle',
  id: `b-${Math.random()}`,
  type,
  meta: { lastUpdated: new Date(Math.random() * 1e12).toISOString() },
  entry: [{ fullUrl: '{origin}/claims/claim/BILL-1', resource: { resourceType: 'Claim', id: 'BILL-1' } }],
  ...extra,
});

describe('calls paired step by step', () => {
  test('by request within a test, whatever the origin and the order they were started in', () => {
    const r = [call(REF, 0, '/claim/search?insurerid=bup', {}), call(REF, 1, '/claim/search?insurerid=ppp', {})];
    const c = [call(CAND, 0, '/claim/search?insurerid=ppp', {}), call(CAND, 1, '/claim/search?insurerid=bup', {})];
    const p = pairExchanges(r, c);
    expect(p.pairs.map((x) => [x.reference.ordinal, x.candidate.ordinal])).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  test('then by operation in order (a record the candidate numbered its own way); the rest by one run only', () => {
    const r = [
      call(REF, 0, '/claim/P-1', {}, { operation: 'get-bill' }),
      call(REF, 1, '/claim/search', {}),
      call(REF, 0, '/claim/search', {}, { test: 'search-bills > other' }),
    ];
    const c = [call(CAND, 0, '/claim/X-9', {}, { operation: 'get-bill' }), call(CAND, 1, '/claim/search', {})];
    const p = pairExchanges(r, c);
    expect(p.pairs.map((x) => x.candidate.exchange.url)).toEqual([
      `${CAND}/claims/claim/X-9`,
      `${CAND}/claims/claim/search`,
    ]);
    expect(p.referenceOnly.map((x) => x.test)).toEqual(['search-bills > other']);
    expect(p.candidateOnly).toEqual([]);
  });
});

describe('answers compared beyond noise', () => {
  test('without a second reference: the documented volatile members and the target address are left out', () => {
    const r = [call(REF, 0, '/claim/search', bundle('searchset'))];
    const c = [call(CAND, 0, '/claim/search', bundle('searchset'))];
    const out = compareLogs(logs({ reference: r, candidate: c }));
    expect(out.groups).toEqual([]);
    expect(out.summary.suppressed).toBe(2);
    const used = out.noise.filter((n) => n.suppressed > 0).map((n) => [n.path, n.source]);
    expect(used).toEqual([
      ['**/meta/lastUpdated', 'documented'],
      ['/id', 'documented'],
    ]);
  });

  test('a difference is grouped by operation, path and kind, and breaks the rows the candidate failed on its exchange', () => {
    const r = [0, 1, 2].map((i) => call(REF, i, `/claim/search?n=${i}`, bundle('searchset')));
    const c = [0, 1, 2].map((i) => call(CAND, i, `/claim/search?n=${i}`, bundle('collection')));
    const failures = new Map([
      [
        `${CAND}#2`,
        [
          {
            requirement: 'D1-4.11-05',
            level: 'MUST' as const,
            check: 'matches-schema',
            message: '/type must be searchset',
          },
        ],
      ],
    ]);
    const out = compareLogs(logs({ reference: r, candidate: c, failures }));
    expect(out.groups.map((g) => [g.id, g.operation, g.path, g.kind, g.count, g.pairs])).toEqual([
      ['d1', 'search-bills', '/type', 'value-changed', 3, 3],
    ]);
    const g = out.groups[0];
    expect(g?.breaks.map((b) => b.requirement)).toEqual(['D1-4.11-05']);
    // The example is the pair whose candidate exchange is the failure's evidence.
    expect(g?.example).toMatchObject({ pair: 2, path: '/type', reference: 'searchset', candidate: 'collection' });
    expect(g?.example.curl.candidate).toContain(`${CAND}/claims/claim/search?n=2`);
    expect(g?.replay).toBe('conformance compare --only search-bills');
  });

  test('with a second reference the noise is learnt: what the two references answer otherwise, per operation', () => {
    const r = [call(REF, 0, '/claim/search', { total: 1, stamp: 'r1', note: 'x' })];
    const s = [call(SECOND, 0, '/claim/search', { total: 1, stamp: 's1', note: 'x' })];
    const c = [call(CAND, 0, '/claim/search', { total: 2, stamp: 'c1', note: 'x' })];
    const out = compareLogs(logs({ reference: r, candidate: c, second: s }));
    expect(out.groups.map((g) => g.path)).toEqual(['/total']);
    expect(out.noise).toEqual([
      {
        source: 'learned',
        operation: 'search-bills',
        path: '/stamp',
        why: 'the two references answered 1 of 1 requests otherwise here',
        suppressed: 1,
        example: { reference: 'r1', second: 's1' },
      },
    ]);
  });

  test("the config's compare.ignore leaves a path out on the operations it names, with its reason", () => {
    const r = [call(REF, 0, '/claim/search', { total: 1 })];
    const c = [call(CAND, 0, '/claim/search', { total: 2 })];
    const configured = configuredNoise(
      [{ path: '/total', operations: ['search-bills'], reason: 'counted otherwise' }],
      'c.json',
    );
    const out = compareLogs(logs({ reference: r, candidate: c, configured }));
    expect(out.groups).toEqual([]);
    expect(out.noise.find((n) => n.source === 'config')).toMatchObject({
      path: '/total',
      why: 'c.json compare.ignore: counted otherwise',
      suppressed: 1,
    });
  });

  test('a call only one run made is a difference of its operation', () => {
    const r = [call(REF, 0, '/claim/search', {})];
    const c = [call(CAND, 0, '/claim/search', {}), call(CAND, 1, '/claim/search?page=2', {})];
    const out = compareLogs(logs({ reference: r, candidate: c }));
    expect(out.groups.map((g) => [g.kind, g.path, g.example.candidate])).toEqual([
      ['exchange-new', 'exchange', `GET ${CAND}/claims/claim/search?page=2`],
    ]);
    expect(out.summary).toMatchObject({ pairs: 1, candidateOnly: 1, referenceOnly: 0 });
  });
});

describe('what the comparison writes', () => {
  const asExchange = exchangeOfRecord;
  const patient = (family: string) => ({ resourceType: 'Patient', id: 'P-1', name: [{ family, given: ['Jo'] }] });

  test('personal data is masked in the example pair and in the values shown, unless evidence is full; it still compares', () => {
    const r = [call(REF, 0, '/patient/P-1', patient('Smithson'), { operation: 'get-patient' })];
    const c = [call(CAND, 0, '/patient/P-1', patient('Smythe'), { operation: 'get-patient' })];
    const masked = (evidence: 'masked' | 'full') => {
      const redactor = Redactor.forRun({ secrets: [], evidence, fixtures: {} });
      return compareLogs(
        logs({
          reference: r,
          candidate: c,
          mask: (x) => redactor.exchange(asExchange(x)),
          maskValue: (v) => redactor.value(v),
        }),
      );
    };
    const hidden = masked('masked');
    expect(hidden.groups.map((g) => [g.path, g.kind])).toEqual([['/name/*/family', 'value-changed']]);
    const text = JSON.stringify(hidden.groups);
    expect(text).not.toContain('Smithson');
    expect(text).not.toContain('Smythe');
    const shown = masked('full').groups[0]?.example;
    expect([shown?.reference, shown?.candidate]).toEqual(['Smithson', 'Smythe']);
  });
});

describe('noise paths', () => {
  test('`**` stands for any number of members; `*` is an array index; status and headers match whole', () => {
    expect(pathMatches('**/meta/lastUpdated', '/entry/*/resource/meta/lastUpdated')).toBe(true);
    expect(pathMatches('**/meta/lastUpdated', '/meta/lastUpdated')).toBe(true);
    expect(pathMatches('/entry/*/id', '/entry/*/id')).toBe(true);
    expect(pathMatches('/entry/*/id', '/entry/*/resource/id')).toBe(false);
    expect(pathMatches('status', 'status')).toBe(true);
    expect(pathMatches('header:content-type', 'header:etag')).toBe(false);
  });

  test('each documented volatile member quotes its document verbatim', () => {
    const docs = [
      '01-membership-authorisation-remittance-claims',
      '02-reference-data-address-practitioners',
      '03-accounts-signon-diary-patient-contracts',
    ];
    const text = (doc: string) => readFileSync(new URL(`../../spec/documents/${doc}.md`, import.meta.url), 'utf8');
    for (const m of VOLATILE_MEMBERS) {
      const doc = docs[Number(m.source.slice(1, 2)) - 1] as string;
      expect(text(doc), `${m.path}: ${m.quote}`).toContain(m.quote);
    }
  });
});
