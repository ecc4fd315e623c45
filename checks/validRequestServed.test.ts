import { describe, expect, test } from 'vitest';
import { respondedExchange } from './testing.ts';
import { validRequestServed } from './validRequestServed.ts';

const outcome = (code: string) => ({
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code: 'exception', details: { coding: [{ code }] } }],
});

describe('validRequestServed', () => {
  test.each([200, 204, 404])('passes on HTTP %i', (status) => {
    expect(validRequestServed().run(respondedExchange({ status })).outcome).toBe('pass');
  });

  test('passes a data-dependent refusal (no match)', () => {
    const x = respondedExchange({ status: 400, body: outcome('NO_MATCH_FOUND') });
    expect(validRequestServed().run(x).outcome).toBe('pass');
  });

  test('fails a server error', () => {
    const f = validRequestServed().run(respondedExchange({ status: 503 }));
    expect(f.outcome).toBe('fail');
    expect(f.message).toBe('Expected a request of documented form to be served, received HTTP 503');
  });

  test.each(['MSG_PARAM_INVALID', 'MSG_INVALID_FORMAT', 'MSG_PARAM_EMPTY', 'MSG_MISSING_MANDATORY_PARAM'])(
    'fails a refusal of its parameters (%s)',
    (code) => {
      const f = validRequestServed().run(respondedExchange({ status: 400, body: outcome(code) }));
      expect(f.outcome).toBe('fail');
      expect(f.message).toContain(`${code} (a refusal of its parameters)`);
    },
  );

  test('passes a missing-field refusal where requiredness is left open (DEC-D1-18)', () => {
    const x = respondedExchange({ status: 400, body: outcome('MSG_MISSING_MANDATORY_PARAM') });
    expect(validRequestServed({ requiredOpen: true }).run(x).outcome).toBe('pass');
    const invalid = respondedExchange({ status: 422, body: outcome('MSG_PARAM_INVALID') });
    expect(validRequestServed({ requiredOpen: true }).run(invalid).outcome).toBe('fail');
  });

  test('passes any refusal of a value naming an unknown record, but never a server error', () => {
    const x = respondedExchange({ status: 422, body: outcome('MSG_PARAM_INVALID') });
    expect(validRequestServed({ unknownRecord: true }).run(x).outcome).toBe('pass');
    expect(validRequestServed({ unknownRecord: true }).run(respondedExchange({ status: 500 })).outcome).toBe('fail');
  });
});
