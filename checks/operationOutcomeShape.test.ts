import { describe, expect, it } from 'vitest';
import { operationOutcomeShape } from './operationOutcomeShape.ts';
import { respondedExchange } from './testing.ts';

const outcome = (code: unknown) => ({
  resourceType: 'OperationOutcome',
  issue: [
    {
      severity: 'error',
      code: 'exception',
      details: { coding: [{ system: 'https://x.example/codes', code, display: 'No match' }] },
      diagnostics: 'none',
      location: ['Coverage'],
      expression: [],
    },
  ],
});

describe('operationOutcomeShape', () => {
  it('passes a section 2.3 OperationOutcome', () => {
    const finding = operationOutcomeShape.run(respondedExchange({ status: 400, body: outcome('NO_MATCH_FOUND') }));
    expect(finding).toMatchObject({ outcome: 'pass', message: 'OperationOutcome with code NO_MATCH_FOUND' });
  });

  it('fails an empty code', () => {
    const finding = operationOutcomeShape.run(respondedExchange({ status: 400, body: outcome('') }));
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toMatch(/no issue\[\]\.details\.coding\[\]\.code$/);
  });

  it('reads the code in any coding of any issue (DEC-D1-46)', () => {
    const body = outcome('NO_MATCH_FOUND');
    const second = { severity: 'error', code: 'exception', details: { coding: [{ code: 'NO_MATCH_FOUND' }] } };
    const finding = operationOutcomeShape.run(
      respondedExchange({
        status: 400,
        body: { ...body, issue: [{ ...body.issue[0], details: { coding: [] } }, second] },
      }),
    );
    expect(finding.outcome).toBe('fail');
    expect(finding.message).not.toMatch(/no issue\[\]\.details\.coding\[\]\.code/);
  });

  it('fails a top-level code object', () => {
    const finding = operationOutcomeShape.run(respondedExchange({ status: 400, body: { code: 'MSG_PARAM_INVALID' } }));
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toMatch(
      /^Expected an OperationOutcome with an error code \(2\.3\), received .*no issue\[\]\.details\.coding\[\]\.code$/,
    );
  });

  it('fails odd shapes without throwing', () => {
    for (const body of [
      null,
      [],
      { resourceType: 'OperationOutcome', issue: 'x' },
      { resourceType: 'OperationOutcome', issue: [{ details: { coding: [null] } }] },
      outcome(42),
    ]) {
      expect(operationOutcomeShape.run(respondedExchange({ body: JSON.stringify(body) })).outcome).toBe('fail');
    }
  });

  it('fails empty and non-JSON bodies', () => {
    expect(operationOutcomeShape.run(respondedExchange({ body: '' })).outcome).toBe('fail');
    expect(operationOutcomeShape.run(respondedExchange({ body: 'Bad Request' })).outcome).toBe('fail');
  });
});
