import { describe, expect, it } from 'vitest';
import { failedMembers, matchesSchema } from './matchesSchema.ts';
import { respondedExchange } from './testing.ts';

const outcome = {
  resourceType: 'OperationOutcome',
  issue: [
    {
      severity: 'error',
      code: 'exception',
      details: { coding: [{ system: 'https://x.example/codes', code: 'NO_MATCH_FOUND', display: 'No match' }] },
      diagnostics: 'none',
      location: ['Coverage'],
      expression: [],
    },
  ],
};

describe('matchesSchema', () => {
  const check = matchesSchema('operation-outcome.schema.json');

  it('passes a valid body', () => {
    const finding = check.run(respondedExchange({ status: 400, body: outcome }));
    expect(finding.message).toBe('valid against operation-outcome.schema.json');
    expect(finding.outcome).toBe('pass');
  });

  it('leads with the cause and names the failing members; the alternatives stay in the evidence (issue 24)', () => {
    const bundle = matchesSchema('bundle.schema.json');
    const body = { resourceType: 'Bundle', type: 'searchset', total: 0, meta: { tag: [{ code: 'page', display: 1 }] } };
    const finding = bundle.run(respondedExchange({ body }));
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toBe(
      'Expected a body valid against bundle.schema.json, received /meta/tag/0/display must be string, received 1',
    );
    expect(finding.members).toEqual(['/meta/tag/0/display']);
    expect(String(finding.evidence?.errors)).toContain('anyOf');
  });

  it('names a missing required member below its parent', () => {
    expect(
      failedMembers(["/ must have required property 'issue'", "/entry/0 must have required property 'resource'"]),
    ).toEqual(['/issue', '/entry/0/resource']);
  });

  it('fails an invalid body, listing schema errors', () => {
    const finding = check.run(respondedExchange({ body: { resourceType: 'OperationOutcome', issue: [] } }));
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toMatch(
      /^Expected a body valid against operation-outcome\.schema\.json, received \/issue /,
    );
  });

  it('shows at most five errors', () => {
    const finding = matchesSchema('coverage.schema.json').run(
      respondedExchange({ body: { resourceType: 'Coverage' } }),
    );
    expect(finding.outcome).toBe('fail');
    const listed = finding.message
      .replace(/^Expected .*?, received /, '')
      .replace(/; and \d+ more$/, '')
      .split('; ');
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.length).toBeLessThanOrEqual(5);
    expect(finding.message).not.toContain('\n');
  });

  it('fails empty and non-JSON bodies', () => {
    expect(check.run(respondedExchange({ body: '' })).message).toBe('Expected a JSON body, received an empty body');
    expect(check.run(respondedExchange({ body: '<html>' })).message).toBe('Expected a JSON body, received "<html>"');
  });

  it('fails wrong types without throwing', () => {
    for (const body of [
      null,
      [],
      'str',
      1e308,
      { resourceType: 'OperationOutcome', issue: [null, 'x', { details: null }] },
    ]) {
      expect(check.run(respondedExchange({ body: JSON.stringify(body) })).outcome).toBe('fail');
    }
  });

  it('throws for an unknown schema file (a suite bug)', () => {
    expect(() => matchesSchema('nope.schema.json').run(respondedExchange({ body: {} }))).toThrow();
  });

  it('keeps one id across schema files', () => {
    expect(matchesSchema('coverage.schema.json').id).toBe(check.id);
  });
});
