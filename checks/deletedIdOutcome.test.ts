import { describe, expect, it } from 'vitest';
import { deletedIdOutcome } from './deletedIdOutcome.ts';
import { respondedExchange } from './testing.ts';

const issue = (patch: Record<string, unknown> = {}) => ({
  severity: 'information',
  code: 'informational',
  details: { coding: [{ system: 'https://ref.example/codes', code: 'MSG_DELETED_ID', display: 'Deleted' }] },
  diagnostics: 'Deleted id CONF-1',
  location: ['CONTRACTS'],
  expression: [],
  ...patch,
});
const run = (body: unknown) => deletedIdOutcome.run(respondedExchange({ body }));
const outcome = (...issues: unknown[]) => ({ resourceType: 'OperationOutcome', issue: issues });

describe('deletedIdOutcome', () => {
  it('passes on the documented answer', () => {
    const finding = run(outcome(issue()));
    expect(finding).toMatchObject({
      outcome: 'pass',
      message: 'information / informational, MSG_DELETED_ID at CONTRACTS',
    });
    expect(finding.evidence).toMatchObject({ diagnostics: 'Deleted id CONF-1', expression: '[]' });
  });

  it('accepts location as text and an absent expression (recorded)', () => {
    const finding = run(outcome(issue({ location: 'CONTRACTS', expression: undefined })));
    expect(finding.outcome).toBe('pass');
    expect(finding.evidence?.expression).toBe('absent');
  });

  it('judges only the first issue', () => {
    expect(run(outcome(issue({ severity: 'error' }), issue())).message).toContain('received severity "error"');
    expect(run(outcome(issue(), { severity: 'fatal' })).outcome).toBe('pass');
  });

  it('fails on each wrong member, naming them all', () => {
    const finding = run(
      outcome(
        issue({
          severity: 'error',
          code: 'processing',
          details: { coding: [{ code: 'MSG_ERROR' }] },
          location: ['PATIENTS'],
          expression: ['Contract.id'],
        }),
      ),
    );
    expect(finding.message).toBe(
      'Expected an issue with severity "information", code "informational", detail code MSG_DELETED_ID, diagnostics text, location CONTRACTS and an empty expression (4.5), received severity "error"; code "processing"; detail codes ["MSG_ERROR"]; location ["PATIENTS"]; expression ["Contract.id"]',
    );
    expect(run(outcome(issue({ details: undefined }))).message).toContain('detail codes <none>');
    expect(run(outcome(issue({ location: 'contracts' }))).outcome).toBe('fail');
    expect(run(outcome(issue({ expression: '' }))).outcome).toBe('pass');
    expect(run(outcome(issue({ diagnostics: undefined }))).outcome).toBe('fail');
  });

  it('fails on another resource or no issue', () => {
    expect(run({ resourceType: 'Parameters' }).message).toBe(
      'Expected an OperationOutcome, received resourceType "Parameters"',
    );
    expect(run(outcome()).message).toBe('Expected issue[0], received no issue');
    expect(run({ resourceType: 'OperationOutcome', issue: 'x' }).message).toBe('Expected issue[0], received issue "x"');
    expect(run(outcome(null)).message).toBe('Expected issue[0], received issue[0] null');
  });

  it('never throws on hostile bodies', () => {
    expect(run('').outcome).toBe('fail');
    expect(run(outcome(issue({ details: { coding: [null, 5, { code: { x: 1 } }] }, location: [null] }))).outcome).toBe(
      'fail',
    );
    expect(deletedIdOutcome.run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
  });
});
