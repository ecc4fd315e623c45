import { describe, expect, test } from 'vitest';
import { documentedCodeHasItsStatus } from './documentedCodeHasItsStatus.ts';
import { respondedExchange } from './testing.ts';

const table = [
  { status: 400, code: 'MSG_PARAM_EMPTY' },
  { status: 422, code: 'MSG_INVALID_FORMAT' },
];
const outcome = (code: string) => ({
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code: 'exception', details: { coding: [{ code }] } }],
});
const check = documentedCodeHasItsStatus(table);

describe('documentedCodeHasItsStatus', () => {
  test('passes when the documented code comes with its status', () => {
    expect(check.run(respondedExchange({ status: 422, body: outcome('MSG_INVALID_FORMAT') })).outcome).toBe('pass');
  });
  test('fails when a documented code comes with another status', () => {
    const f = check.run(respondedExchange({ status: 400, body: outcome('MSG_INVALID_FORMAT') }));
    expect(f.outcome).toBe('fail');
    expect(f.message).toBe('Expected MSG_INVALID_FORMAT with HTTP 422, received HTTP 400');
  });
  test('skips answers without a documented code, including hostile bodies', () => {
    expect(check.run(respondedExchange({ status: 500, body: outcome('SOMETHING_ELSE') })).outcome).toBe('skip');
    expect(check.run(respondedExchange({ status: 400, body: '<html>' })).outcome).toBe('skip');
    expect(check.run(respondedExchange({ status: 400, body: { issue: 'not-a-list', code: 42 } })).outcome).toBe('skip');
  });
});
