import { describe, expect, it } from 'vitest';
import { errorStatusAndCode } from './errorStatusAndCode.ts';
import { respondedExchange } from './testing.ts';

const outcome = (code: string) => ({
  resourceType: 'OperationOutcome',
  issue: [
    {
      severity: 'error',
      code: 'exception',
      details: { coding: [{ system: 's', code, display: 'd' }] },
      diagnostics: 'x',
    },
  ],
});

describe('errorStatusAndCode', () => {
  const check = errorStatusAndCode({ status: 400, code: 'NO_MATCH_FOUND' });

  it('passes on the documented status and code', () => {
    expect(check.run(respondedExchange({ status: 400, body: outcome('NO_MATCH_FOUND') })).outcome).toBe('pass');
  });

  it('fails on the right code with the wrong status', () => {
    expect(check.run(respondedExchange({ status: 200, body: outcome('NO_MATCH_FOUND') })).message).toBe(
      'Expected HTTP 400 with code NO_MATCH_FOUND, received HTTP 200 with code NO_MATCH_FOUND',
    );
  });

  it('fails on a wrong code', () => {
    expect(check.run(respondedExchange({ status: 400, body: outcome('MULTIPLE_MATCH_FOUND') })).outcome).toBe('fail');
  });

  it('says <no code> for empty, non-JSON and code-less bodies', () => {
    for (const body of ['', '<html/>', { resourceType: 'OperationOutcome' }]) {
      expect(check.run(respondedExchange({ status: 400, body })).message).toBe(
        'Expected HTTP 400 with code NO_MATCH_FOUND, received HTTP 400 with code <no code>',
      );
    }
  });

  it('accepts any of several pairs', () => {
    const either = errorStatusAndCode([
      { status: 400, code: 'MSG_MISSING_MANDATORY_PARAM' },
      { status: 422, code: 'MSG_PARAM_INVALID' },
    ]);
    expect(either.run(respondedExchange({ status: 422, body: { code: 'MSG_PARAM_INVALID' } })).outcome).toBe('pass');
    const finding = either.run(respondedExchange({ status: 400, body: { code: 'MSG_PARAM_INVALID' } }));
    expect(finding.message).toBe(
      'Expected HTTP 400 with code MSG_MISSING_MANDATORY_PARAM or HTTP 422 with code MSG_PARAM_INVALID, received HTTP 400 with code MSG_PARAM_INVALID',
    );
    expect(either.id).toBe(check.id);
  });
});
