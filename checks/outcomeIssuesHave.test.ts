import { describe, expect, it } from 'vitest';
import { outcomeIssuesHave } from './outcomeIssuesHave.ts';
import { respondedExchange } from './testing.ts';

const check = outcomeIssuesHave({ severity: 'error', code: 'exception' });
const lists = outcomeIssuesHave({ location: ['Coverage'], expression: [] });
const run = (c: typeof check, body: unknown) => c.run(respondedExchange({ status: 404, body }));

describe('outcomeIssuesHave', () => {
  it('passes when every issue carries the values', () => {
    const body = {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'exception', location: ['Coverage'], expression: [] }],
    };
    expect(run(check, body).outcome).toBe('pass');
    expect(run(lists, body).outcome).toBe('pass');
  });

  it('fails naming each issue member that differs or is absent', () => {
    const finding = run(check, {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'warning', code: 'exception' }, { severity: 'error' }],
    });
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toBe(
      'Expected severity = "error", code = "exception" on every issue, received issue[0].severity = "warning", issue[1].code = <absent>',
    );
    expect(
      run(lists, { resourceType: 'OperationOutcome', issue: [{ location: 'Coverage', expression: [''] }] }).outcome,
    ).toBe('fail');
  });

  it('fails without issues and never throws on hostile bodies', () => {
    expect(run(check, { resourceType: 'OperationOutcome', issue: [] }).outcome).toBe('fail');
    expect(run(check, { resourceType: 'OperationOutcome' }).outcome).toBe('fail');
    expect(run(check, { resourceType: 'OperationOutcome', issue: [null, 3] }).outcome).toBe('fail');
    expect(run(check, []).outcome).toBe('fail');
    expect(check.run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
    expect(lists.id).toBe(check.id);
  });
});
