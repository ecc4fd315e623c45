import { describe, expect, test } from 'vitest';
import type { AllowedAnswers } from '../generators/parameterValueInvalid.ts';
import { invalidRequestAnswered } from './invalidRequestAnswered.ts';
import { respondedExchange } from './testing.ts';

const outcome = (code: string) => ({
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code: 'exception', details: { coding: [{ code }] } }],
});
const table = [
  { status: 400, code: 'MSG_PARAM_EMPTY', meaning: 'empty' },
  { status: 422, code: 'MSG_PARAM_INVALID', meaning: 'invalid' },
];
const documented: AllowedAnswers = { refusal: 'documented-code', errors: table, mayServe: false, basis: ['D1 7'] };
const any4xx: AllowedAnswers = { refusal: 'any-4xx', errors: [], mayServe: false, basis: ['D3 7'] };
const byStatus: AllowedAnswers = {
  refusal: 'status',
  errors: [{ status: 400, code: '', meaning: 'absent' }],
  mayServe: false,
  basis: ['D2 7'],
};

describe('invalidRequestAnswered', () => {
  test('passes a documented code at its status, whichever of the table', () => {
    expect(
      invalidRequestAnswered(documented).run(respondedExchange({ status: 422, body: outcome('MSG_PARAM_INVALID') }))
        .outcome,
    ).toBe('pass');
    expect(
      invalidRequestAnswered(documented).run(respondedExchange({ status: 400, body: outcome('MSG_PARAM_EMPTY') }))
        .outcome,
    ).toBe('pass');
  });

  test('fails a documented code at another status, an undocumented code, a success and a server error', () => {
    for (const x of [
      respondedExchange({ status: 400, body: outcome('MSG_PARAM_INVALID') }),
      respondedExchange({ status: 400, body: outcome('SOMETHING_ELSE') }),
      respondedExchange({ status: 200, body: {} }),
      respondedExchange({ status: 500 }),
    ]) {
      const f = invalidRequestAnswered(documented).run(x);
      expect(f.outcome).toBe('fail');
      expect(f.message).toMatch(/^Expected HTTP 400 MSG_PARAM_EMPTY or HTTP 422 MSG_PARAM_INVALID, received HTTP \d+/);
    }
  });

  test('any 4xx where the table names nothing; a success only where refusing is left open', () => {
    expect(invalidRequestAnswered(any4xx).run(respondedExchange({ status: 404 })).outcome).toBe('pass');
    expect(invalidRequestAnswered(any4xx).run(respondedExchange({ status: 200 })).outcome).toBe('fail');
    expect(invalidRequestAnswered({ ...any4xx, mayServe: true }).run(respondedExchange({ status: 200 })).outcome).toBe(
      'pass',
    );
  });

  test('a status tied without a code accepts any body at that status', () => {
    expect(invalidRequestAnswered(byStatus).run(respondedExchange({ status: 400, body: 'x' })).outcome).toBe('pass');
    expect(invalidRequestAnswered(byStatus).run(respondedExchange({ status: 422 })).outcome).toBe('fail');
  });

  test('reads the documented text of an accounts or token-details error from `message`', () => {
    const tied: AllowedAnswers = {
      refusal: 'documented-code',
      errors: [{ status: 400, code: 'redirect_uri is required', meaning: 'missing' }],
      mayServe: false,
      basis: [],
    };
    const x = respondedExchange({
      status: 400,
      body: { status: 'fail', message: 'redirect_uri is required', code: 400 },
    });
    expect(invalidRequestAnswered(tied).run(x).outcome).toBe('pass');
  });
});
