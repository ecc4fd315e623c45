import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addressOf } from '../server/router/addresses.ts';
import { TestSandbox } from '../server/testSupport.ts';
import { operation, operations } from '../spec/operations.ts';
import type { FeatureName, Operation, Parameter } from '../spec/types.ts';
import {
  answerAllowed,
  anyInvalidRequest,
  coveragePhase,
  type InvalidRequest,
  invalidRequests,
  type ParameterRequest,
  renderRequestTarget,
  validRequest,
} from './requestArbitrary.ts';

const ALL_FEATURES: readonly FeatureName[] = ['Advanced_Search_1_0', 'Advanced_Filtering_And_Sorting_1_0'];
const BUCKETS = ['path', 'query', 'form', 'multipart'] as const;
const generated = (op: Operation) => op.parameters.filter((p) => (BUCKETS as readonly string[]).includes(p.in));
const valuesOf = (r: ParameterRequest): Record<string, string> => Object.assign({}, ...BUCKETS.map((b) => r[b]));

// The oracle, written apart from the generators: the documented form of each format.
const realDate = (v: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const [y, m, d] = v.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
};
const minute = (v: string) => /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d$/.test(v) && realDate(v.slice(0, 10));
const COUNT_MAX = (p: Parameter) => (p.description.includes('1 to 1000') ? 1000 : 50);
function validForm(p: Parameter, v: string): boolean {
  switch (p.format) {
    case 'string':
      return /^[A-Za-z0-9]+$/.test(v);
    case 'enum':
      return (p.values ?? []).includes(v);
    case 'date':
      return realDate(v);
    case 'date-range': {
      const [a, b, ...more] = v.split('_');
      return more.length === 0 && realDate(a) && b !== undefined && realDate(b) && a <= b;
    }
    case 'datetime-range': {
      const [a, b, ...more] = v.split('_');
      return more.length === 0 && minute(a) && (b === undefined || (minute(b) && a <= b));
    }
    case 'date-time':
      return (
        realDate(v.slice(0, 10)) &&
        /^\d{4}-\d{2}-\d{2}(T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]\d{2}:\d{2}))?$/.test(v)
      );
    case 'comparator-decimal':
      return /^(le|ge|eq)\d+(\.\d{1,2})?$/.test(v);
    case 'boolean':
      return v === 'true' || v === 'false';
    case 'positive-integer': {
      if (!/^[1-9]\d*$/.test(v)) return false;
      const n = Number(v);
      if (p.name === 'page' || p.name === 'pageNumber') return n <= 5;
      if (p.name === 'count' || p.name === 'maxRecordsPerPage') return n <= COUNT_MAX(p);
      return n <= 1000;
    }
    case 'near': {
      const m = /^(-?\d+(?:\.\d+)?):(-?\d+(?:\.\d+)?):(\d+(?:\.\d+)?):(km|mi|m)$/.exec(v);
      return !!m && Math.abs(Number(m[1])) <= 90 && Math.abs(Number(m[2])) <= 180 && Number(m[3]) > 0;
    }
    case 'distance': {
      const m = /^(\d+(?:\.\d+)?)(km|mi|m)?$/.exec(v);
      return !!m && Number(m[1]) > 0;
    }
  }
}

/** Whether an invalid value really is invalid for the stated kind. */
function violates(p: Parameter, c: InvalidRequest): boolean {
  const sent = valuesOf(c.request)[p.name];
  switch (c.kind) {
    case 'missing':
      return p.required && sent === undefined;
    case 'empty':
      return sent === '';
    case 'format':
      return sent !== undefined && sent !== '' && !validForm(p, sent);
    case 'range':
      if (sent === undefined) return false;
      if (p.format === 'near') return /^(-?\d+(\.\d+)?):(-?\d+(\.\d+)?)/.test(sent) && !validForm(p, sent);
      return /^-?\d+$/.test(sent) && (Number(sent) < 1 || Number(sent) > COUNT_MAX(p));
    case 'enum':
      if (sent === undefined) return false;
      if (p.format === 'near') return !/:(km|mi|m)$/.test(sent);
      return !(p.values ?? []).some((v) => v.toLowerCase() === sent.toLowerCase());
  }
}

describe('validRequest', () => {
  test('every operation of the table has a valid arbitrary whose values all pass the oracle', () => {
    const anyOp = fc
      .constantFrom(...operations)
      .chain((op) =>
        fc
          .tuple(fc.constant(op), fc.boolean())
          .chain(([o, gated]) =>
            validRequest(o, { features: gated ? ALL_FEATURES : [] }).map((r) => ({ op: o, gated, r })),
          ),
      );
    fc.assert(
      fc.property(anyOp, ({ op, gated, r }) => {
        const values = valuesOf(r);
        for (const p of generated(op)) {
          const v = values[p.name];
          if (p.required) expect(v, `${op.id} ${p.name} required`).toBeDefined();
          if (!gated && p.features?.length) expect(v, `${op.id} ${p.name} gated`).toBeUndefined();
          if (v !== undefined) expect(validForm(p, v), `${op.id} ${p.name}=${v}`).toBe(true);
          if (p.name === '_sort' && v?.startsWith('distance:')) expect(values.near).toBeDefined();
        }
        expect(Object.keys(values).every((k) => generated(op).some((p) => p.name === k))).toBe(true);
        expect(r.operationId).toBe(op.id);
      }),
      { seed: 14, numRuns: 3000 },
    );
  });

  test('fixtures are mixed in at their weight, and a seed replays the same requests', () => {
    const op = operation('find-member-v2');
    const fixtures = { insurerIdentifier: 'ppp', lastName: 'Smith' };
    const sample = fc.sample(validRequest(op, { fixtures, fixtureWeight: 0.5 }), { seed: 3, numRuns: 400 });
    const smiths = sample.filter((r) => r.form.lastName === 'Smith').length;
    expect(smiths).toBeGreaterThan(120);
    expect(smiths).toBeLessThan(280);
    expect(
      fc
        .sample(validRequest(op, { fixtures, fixtureWeight: 1 }), { seed: 3, numRuns: 50 })
        .every((r) => r.form.lastName === 'Smith'),
    ).toBe(true);
    expect(fc.sample(validRequest(op, { fixtures }), { seed: 9, numRuns: 20 })).toEqual(
      fc.sample(validRequest(op, { fixtures }), { seed: 9, numRuns: 20 }),
    );
  });

  test('feature-gated parameters appear only when every feature is held', () => {
    const op = operation('search-remittance-summary');
    const seen = (features: readonly FeatureName[]) =>
      new Set(fc.sample(validRequest(op, { features }), { seed: 5, numRuns: 500 }).flatMap((r) => Object.keys(r.form)));
    const onlyAs = seen(['Advanced_Search_1_0']);
    expect(onlyAs.has('invoiceNumber')).toBe(true);
    expect(onlyAs.has('provider')).toBe(false); // needs both features
    expect(onlyAs.has('excludeExported')).toBe(false);
    expect(seen(ALL_FEATURES).has('provider')).toBe(true);
  });

  test('optional limits the optional parameters to those a property concerns; maxOptional caps how many', () => {
    const op = operation('search-remittance-summary');
    const only = fc.sample(validRequest(op, { features: ALL_FEATURES, optional: ['insurerIdentifier', 'count'] }), {
      seed: 8,
      numRuns: 300,
    });
    const keys = new Set(only.flatMap((r) => Object.keys(r.form)));
    expect([...keys].sort()).toEqual(['count', 'insurerIdentifier']);
    const capped = fc.sample(validRequest(op, { features: ALL_FEATURES, maxOptional: 2 }), { seed: 9, numRuns: 300 });
    expect(capped.every((r) => Object.keys(r.form).length <= 2)).toBe(true);
    expect(capped.some((r) => Object.keys(r.form).length === 2)).toBe(true);
    for (const r of capped)
      for (const [name, v] of Object.entries(r.form)) {
        const p = op.parameters.find((pp) => pp.name === name);
        expect(p && validForm(p, v), `${name}=${v}`).toBe(true);
      }
  });
});

describe('invalidRequests', () => {
  const families = operations.flatMap((op) => invalidRequests(op, { features: ALL_FEATURES }));

  test('every parameter of every operation has an invalid family, required ones a missing case', () => {
    for (const op of operations) {
      const own = invalidRequests(op);
      for (const p of generated(op)) {
        const kinds = own.filter((f) => f.parameter === p.name).map((f) => f.kind);
        expect(kinds.length, `${op.id} ${p.name}`).toBeGreaterThan(0);
        if (p.required && p.in !== 'path') expect(kinds).toContain('missing');
        if (p.format === 'enum') expect(kinds).toContain('enum');
        if (p.format === 'positive-integer') expect(kinds).toEqual(expect.arrayContaining(['format', 'range']));
      }
      expect(anyInvalidRequest(op) === undefined).toBe(generated(op).length === 0);
    }
  });

  test('every invalid case violates its stated reason, and the rest of the request is valid', () => {
    const anyCase = fc.constantFrom(...families).chain((f) => f.arbitrary);
    fc.assert(
      fc.property(anyCase, (c) => {
        const op = operation(c.operationId);
        const p = op.parameters.find((x) => x.name === c.parameter)!;
        expect(violates(p, c), `${c.operationId} ${c.parameter} ${c.kind} ${c.value}`).toBe(true);
        const values = valuesOf(c.request);
        for (const o of generated(op)) {
          if (o.name === p.name) continue;
          if (o.required) expect(values[o.name]).toBeDefined();
          if (values[o.name] !== undefined) expect(validForm(o, values[o.name])).toBe(true);
        }
      }),
      { seed: 41, numRuns: 3000 },
    );
  });

  test('a failing invalid case shrinks to the smallest request invalid for the same reason', () => {
    const op = operation('search-remittance-summary');
    const family = invalidRequests(op, { features: ALL_FEATURES }).find(
      (f) => f.parameter === 'dateCreated' && f.kind === 'format',
    )!;
    const run = fc.check(
      fc.property(family.arbitrary, () => false),
      { seed: 8 },
    );
    expect(run.failed).toBe(true);
    const shrunk = run.counterexample?.[0] as InvalidRequest;
    expect(shrunk.kind).toBe('format');
    expect(shrunk.value).toBe('2026-01-01'); // the first, smallest malformed range
    expect(valuesOf(shrunk.request)).toEqual({ dateCreated: '2026-01-01' });
    // The oracle can fail: a valid range is not a format violation.
    expect(
      violates(op.parameters.find((p) => p.name === 'dateCreated')!, {
        ...shrunk,
        request: { ...shrunk.request, form: { dateCreated: '2026-01-01_2026-02-01' } },
      }),
    ).toBe(false);
  });

  test('the allowed answers follow the decisions (never cry wolf)', () => {
    const allowed = (id: string, parameter: string, kind: string) =>
      invalidRequests(operation(id)).find((f) => f.parameter === parameter && f.kind === kind)!.allowed;
    // DEC-D1-17: an empty required Find Member field, any Find Member code at its status.
    const empty = allowed('find-member-v2', 'lastName', 'empty');
    expect(answerAllowed(empty, 422, 'MSG_PARAM_INVALID')).toBe(true);
    expect(answerAllowed(empty, 400, 'MSG_MISSING_MANDATORY_PARAM')).toBe(true);
    expect(answerAllowed(empty, 422, 'MSG_MISSING_MANDATORY_PARAM')).toBe(false);
    expect(answerAllowed(empty, 200)).toBe(false);
    // DEC-D1-17 is about required fields: an empty optional version 1 field ("depends on insurer")
    // keeps the general rule, so a served answer passes (the soak's false alarm at seed 591817066).
    expect(answerAllowed(allowed('find-member-v1', 'firstInitial', 'empty'), 201)).toBe(true);
    // DEC-D1-19: an unknown insurer may be NO_MATCH_FOUND.
    expect(answerAllowed(allowed('find-member-v2', 'insurerIdentifier', 'enum'), 400, 'NO_MATCH_FOUND')).toBe(true);
    // DEC-D1-24: a bad comparator, any of the four codes at its status; MSG_INVALID_FORMAT expected.
    const comparator = allowed('search-remittance-summary', 'paymentAmount', 'format');
    expect(answerAllowed(comparator, 400, 'MSG_PARAM_EMPTY')).toBe(true);
    expect(answerAllowed(comparator, 400, 'MSG_INVALID_FORMAT')).toBe(false);
    expect(comparator.expected?.code).toBe('MSG_INVALID_FORMAT');
    // DEC-D2-07, -31: the lookup's missing text is HTTP 400, any body.
    expect(allowed('lookup-practitioners', 'text', 'missing').refusal).toBe('status');
    expect(answerAllowed(allowed('lookup-practitioners', 'text', 'missing'), 422)).toBe(false);
    // DEC-D1-13: the table's code for a missing insurerid is not shown: any 4xx.
    expect(allowed('search-bills', 'insurerid', 'missing').refusal).toBe('any-4xx');
    // DEC-D2-03: count above 1000 may be served clamped.
    expect(allowed('get-code-set', 'count', 'range').mayServe).toBe(true);
    // DEC-D2-30: an empty register value must be refused (the table names "null or empty").
    expect(allowed('search-register-practitioners', 'family', 'empty').mayServe).toBe(false);
    // DEC-R-03: the booking table names no emptiness, so an empty booking value may be served.
    expect(allowed('search-booking-practitioners', 'family', 'empty').mayServe).toBe(true);
    // DEC-D3-43: a missing user-info code, any 4xx ('Secret code not found' is another trigger).
    expect(allowed('get-user-info', 'code', 'missing').refusal).toBe('any-4xx');
    // Document 3, 7: 'redirect_uri is required' names its trigger, when the identity provider is one
    // the target holds; with an unknown one, it may be refused first (no order of checking is documented).
    const heldIdp = invalidRequests(operation('get-idp-token-details'), { fixtures: { idp: 'okta' } }).find(
      (f) => f.parameter === 'redirect_uri' && f.kind === 'missing',
    )!;
    expect(heldIdp.allowed.errors.map((e) => e.code)).toEqual(['redirect_uri is required']);
    const unknownIdp = allowed('get-idp-token-details', 'redirect_uri', 'missing');
    expect(unknownIdp.refusal).toBe('any-4xx');
    expect(answerAllowed(unknownIdp, 404)).toBe(true);
    // Empty is not absent: an empty postcode may be validated as false (D2 4.8), not tied to the absence code.
    const emptyPostcode = allowed('validate-postcode', 'postcode', 'empty');
    expect(emptyPostcode.mayServe).toBe(true);
    expect(allowed('validate-postcode', 'postcode', 'missing').mayServe).toBe(false);
    expect(allowed('retrieve-address', 'id', 'empty').mayServe).toBe(true);
  });

  test('an invalid request is invalid for one reason: every other record it names is held', () => {
    const op = operation('get-idp-token-details');
    const families = invalidRequests(op, { fixtures: { idp: ['okta', 'azure'] } });
    const redirect = families.find((f) => f.parameter === 'redirect_uri' && f.kind === 'missing')!;
    for (const c of fc.sample(redirect.arbitrary, { seed: 7, numRuns: 200 }))
      expect(['okta', 'azure']).toContain(c.request.path.idp);
    // An optional id without a fixture is left out of another parameter's invalid request.
    const bills = invalidRequests(operation('search-bills'), { fixtures: { insurerid: 'bup' } });
    const missing = bills.find((f) => f.parameter === 'membershipNumber' && f.kind === 'empty')!;
    for (const c of fc.sample(missing.arbitrary, { seed: 3, numRuns: 200 })) {
      expect(c.request.query.insurerid).toBe('bup');
      expect(c.request.query.cuid).toBeUndefined();
    }
  });
});

describe('coveragePhase', () => {
  test('lists every enum value and every boundary of every operation, deterministically', () => {
    for (const op of operations) {
      const entries = coveragePhase(op);
      expect(entries.length).toBeGreaterThan(0);
      expect(coveragePhase(op)).toEqual(entries);
      for (const p of generated(op)) {
        const mine = entries.filter((e) => e.parameter === p.name);
        expect(mine.length, `${op.id} ${p.name}`).toBeGreaterThan(0);
        for (const v of p.values ?? []) expect(mine.map((e) => e.value)).toContain(v);
        if (p.name === 'count') expect(mine.map((e) => e.value)).toEqual(['1', String(COUNT_MAX(p))]);
        if (p.name === 'page') expect(mine.map((e) => e.aspect)).toEqual(['page-first', 'page-past-the-last']);
        if (p.features?.length) expect(mine.map((e) => e.aspect)).toContain('feature-without');
      }
      for (const e of entries) {
        const values = valuesOf(e.request);
        for (const p of generated(op)) if (p.required) expect(values[p.name]).toBeDefined();
      }
    }
    const roles = coveragePhase(operation('search-register-practitioner-roles'));
    const nears = roles.filter((e) => e.parameter === 'near').map((e) => e.value);
    for (const u of ['km', 'mi', 'm'])
      expect(nears.filter((v) => v?.endsWith(`:${u}`)).length).toBeGreaterThanOrEqual(2);
    const distance = roles.find((e) => e.value === 'distance:asc')!;
    expect(distance.request.query.near).toBeDefined();
    const gated = coveragePhase(operation('search-remittance-summary')).find((e) => e.parameter === 'provider')!;
    expect(gated.features).toEqual(ALL_FEATURES);
  });

  test('a new enum value in a table row is picked up without touching a suite', () => {
    const base = operation('list-insurers');
    const cloned: Operation = {
      ...base,
      parameters: base.parameters.map((p) => (p.name === 'type' ? { ...p, values: [...(p.values ?? []), 'nhs'] } : p)),
    };
    expect(coveragePhase(cloned).map((e) => e.value)).toContain('nhs');
    const sent = fc.sample(validRequest(cloned), { seed: 2, numRuns: 300 }).map((r) => r.query.type);
    expect(sent).toContain('nhs');
    const enumCases = invalidRequests(cloned).find((f) => f.kind === 'enum')!;
    expect(fc.sample(enumCases.arbitrary, { seed: 2, numRuns: 50 }).every((c) => c.value !== 'nhs')).toBe(true);
  });
});

describe('against the sandbox', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await TestSandbox.start();
  });
  afterAll(async () => {
    await sb.close();
  });

  async function send(op: Operation, r: ParameterRequest) {
    const token = await sb.token();
    const headers: Record<string, string> = {};
    for (const h of op.headers)
      headers[h.name.toLowerCase()] = h.value
        .replace('{token}', token)
        .replace('{siteId}', 'SITE001')
        .replace('{version}', op.apiVersion ?? '');
    const path = addressOf(op.service, op.discoveryKey) + renderRequestTarget(op, r);
    const body = Object.keys(r.form).length > 0 ? new URLSearchParams(r.form).toString() : undefined;
    return sb.request(op.method, path, { headers, body });
  }
  const codeOf = (json: unknown): string | undefined => {
    const j = json as { issue?: { details?: { coding?: { code?: string }[] } }[]; code?: unknown };
    const c = j?.issue?.[0]?.details?.coding?.[0]?.code ?? j?.code;
    return typeof c === 'string' ? c : undefined;
  };
  const SAMPLED = [
    'find-member-v2',
    'search-authorisation',
    'search-remittance-summary',
    'get-code-set',
    'lookup-practitioners',
    'list-insurers',
    'search-register-practitioners',
    'search-booking-practitioners',
  ];
  // Data-dependent outcomes the documents give to a well-formed search (Document 1, 7).
  const DATA_DEPENDENT = new Set(['NO_MATCH_FOUND', 'MULTIPLE_MATCH_FOUND']);

  test('valid requests of several operations are served (no 4xx beyond the data-dependent ones)', async () => {
    for (const id of SAMPLED) {
      const op = operation(id);
      const fixtures = { insurerIdentifier: 'ppp', lastName: 'Smith' };
      for (const r of fc.sample(validRequest(op, { features: ALL_FEATURES, fixtures }), { seed: 21, numRuns: 12 })) {
        const a = await send(op, r);
        const ok = a.status < 400 || (a.status < 500 && DATA_DEPENDENT.has(codeOf(a.json) ?? ''));
        expect(ok, `${id} ${JSON.stringify(r)} -> ${a.status} ${a.text.slice(0, 200)}`).toBe(true);
      }
    }
  });

  test('invalid requests are answered as the documents allow', async () => {
    for (const id of SAMPLED) {
      const op = operation(id);
      for (const f of invalidRequests(op, { features: ALL_FEATURES })) {
        const [c] = fc.sample(f.arbitrary, { seed: 5, numRuns: 1 });
        const a = await send(op, c.request);
        expect(
          answerAllowed(c.allowed, a.status, codeOf(a.json)),
          `${id} ${c.parameter} ${c.kind} ${c.value} -> ${a.status} ${a.text.slice(0, 200)}`,
        ).toBe(true);
      }
    }
  });
});
