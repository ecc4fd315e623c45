import { describe, expect, it } from 'vitest';
import { loadRequirements } from '../spec/requirements.ts';
import { causeOf, findingsOf, findingKey } from './findings.ts';
import type { CheckResult } from './results.ts';

const result = (r: Partial<CheckResult> & Pick<CheckResult, 'check' | 'operation' | 'message'>): CheckResult => ({
  summary: `${r.check} summary`,
  requirements: [],
  level: 'MUST',
  status: 'fail',
  ...r,
});

const paging = (op: string, page: number) =>
  result({
    check: 'paging-tags-present',
    operation: op,
    requirements: ['D1-2.1-04', 'D1-2.1-06'],
    message: `Expected paging tags page, count, maxCount as digit text, received page is the number ${page}, not text; count is the number 5, not text; maxCount is the number 30, not text`,
  });
const invalidId = (op: string) =>
  result({
    check: 'invalid-id-answer',
    operation: op,
    requirements: ['D1-3-06'],
    message: 'Expected a 4xx status with InvalidId in the body, received HTTP 200 with body "{}"',
  });

describe('causeOf', () => {
  it('abstracts values, indexes and counts but keeps HTTP statuses, 4xx and requirement ids', () => {
    expect(causeOf('Expected HTTP 200, received HTTP 404 for id "abc-1" at /entry/3/resource/id')).toBe(
      'Expected HTTP 200, received HTTP 404 for id "…" at /entry/*/resource/id',
    );
    expect(causeOf('Expected a 4xx status (D1-2.1-04, DEC-D1-75), received 3 of 57 on 2024-01-31')).toBe(
      'Expected a 4xx status (D1-2.1-04, DEC-D1-75), received N of N on <date>',
    );
    expect(causeOf('received authorisation-bundle.schema.json')).toBe('received <schema>');
  });
});

describe('findingsOf', () => {
  const requirements = loadRequirements();
  const results = [
    paging('search-authorisation', 1),
    paging('search-authorisation', 2),
    invalidId('get-remittance-details'),
    paging('search-remittance-summary', 7),
    invalidId('ack-remittance'),
    result({
      check: 'success-status',
      operation: 'search-authorisation',
      level: 'INFO',
      status: 'warn',
      message: 'Expected HTTP 200, received HTTP 400',
    }),
    result({ check: 'success-status', operation: 'search-authorisation', status: 'pass', message: 'HTTP 200' }),
  ];
  const findings = findingsOf({ results, requirements });

  it('groups repetitions of one cause across operations, worst and widest first', () => {
    expect(findings.map((f) => [f.check, f.level, f.results, f.operations])).toEqual([
      ['paging-tags-present', 'MUST', [0, 1, 3], ['search-authorisation', 'search-remittance-summary']],
      ['invalid-id-answer', 'MUST', [2, 4], ['get-remittance-details', 'ack-remittance']],
      ['success-status', 'INFO', [5], ['search-authorisation']],
    ]);
  });

  it('keys a cause stably and apart from the values that vary', () => {
    expect(findingKey(results[0] as CheckResult)).toBe(findingKey(results[3] as CheckResult));
    expect(findingKey(results[0] as CheckResult)).not.toBe(findingKey(results[2] as CheckResult));
    expect(findings[0]?.key).toMatch(/^[0-9a-f]{12}$/);
  });

  it("says what to change, from the expectation and the row it cites in the documents' words", () => {
    expect(findings[1]?.change).toBe(
      'Change get-remittance-details, ack-remittance so that invalid-id-answer sees a 4xx status with InvalidId in the body (D1-3-06: “Get with an unknown id gives the error `InvalidId` (DEC-D1-11).”).',
    );
    expect(findings[0]?.change).toMatch(
      /^Change search-authorisation, search-remittance-summary so that paging-tags-present sees paging tags page, count, maxCount as digit text \(D1-2\.1-04: “/,
    );
    expect(findings[2]?.change).toMatch(/^Look at search-authorisation so that success-status sees HTTP 200/);
  });

  it('never asks the server to change for what was not judged: a load refusal asks for a slower run', () => {
    const refusal = result({
      check: 'success-status',
      operation: 'get-code-set',
      status: 'error',
      message: 'the target was still refusing for load (HTTP 429) after 3 retries (budget spent); not judged',
    });
    const [f] = findingsOf({ results: [refusal], requirements });
    expect(f?.change).toMatch(/^Nothing to change in the answers: the target refused for load/);
  });

  it("names a row of the failing command's operation for a state sequence (issue 30, item 5)", () => {
    const sequence = result({
      check: 'state-sequence-holds',
      operation: 'update-patient',
      requirements: ['D3-4.4-04', 'D3-4.4-08', 'D3-4.4-12', 'D3-4.4-17', 'D3-3-05', 'D3-3-06'],
      message: 'Expected update of patient P-1 to succeed with a 2xx status, received HTTP 500',
    });
    const [f] = findingsOf({ results: [sequence], requirements });
    // A row listing update-patient (D3-4.4-12 or D3-3-06), never create's D3-4.4-04 that comes first.
    expect(f?.change).toMatch(/^Change update-patient so that .* \((D3-4\.4-12|D3-3-06): /);
  });

  it("takes a schema failure's change from its first cause", () => {
    const schema = result({
      check: 'matches-schema',
      operation: 'search-authorisation',
      requirements: ['D1-1-02', 'D1-2.1-04'],
      message:
        'Expected a body valid against authorisation-bundle.schema.json, received /meta/tag/0/display must be string, received 1',
    });
    const [f] = findingsOf({ results: [schema], requirements });
    expect(f?.change).toMatch(/^Change search-authorisation so that \/meta\/tag\/\*\/display is string \(D1-2\.1-04: /);
  });
});

describe('a finding that repeats another cause', () => {
  it('is folded into it: the coverage phase repeating a schema failure is one finding', () => {
    const schema = (n: number): CheckResult => ({
      check: 'matches-schema',
      summary: 's',
      operation: 'search-bills',
      requirements: ['D1-4-01'],
      level: 'MUST',
      status: 'fail',
      message: `Expected a body valid against bill-bundle.schema.json, received /type must be equal to constant "searchset", received "collection${n}"`,
    });
    const phase: CheckResult = {
      check: 'coverage-phase-served',
      summary: 'c',
      operation: 'search-bills',
      requirements: ['D1-4-04'],
      level: 'MUST',
      status: 'fail',
      message:
        'Expected every request of the coverage phase to be answered as the documents allow, received 4 of 10 not: required parameters only: Expected a body valid against bill-bundle.schema.json, received /type must be equal to constant "searchset", received "collection"',
    };
    const found = findingsOf({ results: [schema(1), phase, schema(2)], requirements: [] });
    expect(found.map((f) => [f.check, f.results, f.requirements])).toEqual([
      ['matches-schema', [0, 1, 2], ['D1-4-01', 'D1-4-04']],
    ]);
    // Another cause in the coverage phase stays a finding of its own.
    const other = {
      ...phase,
      message: phase.message.replace(/Expected a body[\s\S]*$/, 'Expected HTTP 200, received HTTP 500'),
    };
    expect(
      findingsOf({ results: [schema(1), other], requirements: [] })
        .map((f) => f.check)
        .sort(),
    ).toEqual(['coverage-phase-served', 'matches-schema']);
  });
});
