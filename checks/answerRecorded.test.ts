import { describe, expect, it } from 'vitest';
import { answerRecorded } from './answerRecorded.ts';
import { respondedExchange as exchange } from './testing.ts';

const check = answerRecorded({ success: 200, refusals: [{ status: 400, code: 'MSG_INVALID_FORMAT' }] });
const outcome = (code: string) => ({
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code: 'exception', details: { coding: [{ code }] } }],
});

describe('answerRecorded', () => {
  it('passes a served answer and a documented refusal, saying which', () => {
    expect(check.run(exchange({ status: 200, body: { resourceType: 'Bundle' } })).message).toBe('Served: HTTP 200');
    expect(check.run(exchange({ status: 400, body: outcome('MSG_INVALID_FORMAT') })).message).toBe(
      'Refused: HTTP 400 with code MSG_INVALID_FORMAT',
    );
  });

  it('fails another status or an undocumented code', () => {
    expect(check.run(exchange({ status: 400, body: outcome('MSG_OTHER') })).outcome).toBe('fail');
    expect(check.run(exchange({ status: 302, body: {} })).outcome).toBe('fail');
  });
});
