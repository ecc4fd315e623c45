import { describe, expect, it } from 'vitest';
import { outcomeIssuesHaveWhenPresent } from './outcomeIssuesHaveWhenPresent.ts';
import { respondedExchange } from './testing.ts';

const check = outcomeIssuesHaveWhenPresent({ location: ['Coverage'], expression: [] });
const run = (body: unknown) => check.run(respondedExchange({ status: 400, body }));
const outcome = (...issue: unknown[]) => ({ resourceType: 'OperationOutcome', issue });

describe('outcomeIssuesHaveWhenPresent', () => {
  it('passes when every issue that carries a member has its value, and when none carries it', () => {
    expect(run(outcome({ severity: 'error', location: ['Coverage'], expression: [] })).outcome).toBe('pass');
    // FHIR JSON leaves an empty list out: an absent expression (and location) passes here.
    const bare = run(outcome({ severity: 'error', code: 'exception' }));
    expect([bare.outcome, bare.message]).toEqual(['pass', 'no issue carries location or expression']);
  });

  it('fails naming each issue member whose value differs', () => {
    const finding = run(outcome({ location: ['Coverage'] }, { location: ['Patient'], expression: ['Patient.name'] }));
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toBe(
      'Expected location = ["Coverage"], expression = [] where an issue carries them, received issue[1].location = ["Patient"], issue[1].expression = ["Patient.name"]',
    );
    expect(run(outcome({ location: 'Coverage' })).outcome).toBe('fail');
  });

  it('fails without issues and never throws on hostile bodies', () => {
    expect(run(outcome()).outcome).toBe('fail');
    expect(run({ resourceType: 'OperationOutcome' }).outcome).toBe('fail');
    expect(run(outcome(null, 3)).outcome).toBe('fail');
    expect(run([]).outcome).toBe('fail');
    expect(check.run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
  });
});
