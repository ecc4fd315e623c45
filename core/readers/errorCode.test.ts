import { describe, expect, it } from 'vitest';
import { carriesErrorCode, errorCodeOf, errorCodesOf, outcomeCodesOf } from './errorCode.ts';

const outcome = (...codes: string[]) => ({
  resourceType: 'OperationOutcome',
  issue: [
    {
      severity: 'error',
      code: 'exception',
      details: { coding: codes.map((code) => ({ system: 's', code, display: 'd' })) },
      diagnostics: 'x',
    },
  ],
});

describe('errorCodesOf', () => {
  it('reads OperationOutcome codings and top-level code / error', () => {
    expect(errorCodesOf(outcome('NO_MATCH_FOUND'))).toEqual(['NO_MATCH_FOUND']);
    expect(errorCodesOf({ code: 'InvalidId', type: 'id' })).toEqual(['InvalidId']);
    expect(errorCodesOf({ error: 'MSG_PARAM_EMPTY' })).toEqual(['MSG_PARAM_EMPTY']);
    expect(errorCodesOf({ error: { code: 'MSG_PARAM_EMPTY', message: 'x' } })).toEqual(['MSG_PARAM_EMPTY']);
  });

  it('reads any coding of any issue, not only the first', () => {
    const body = {
      resourceType: 'OperationOutcome',
      issue: [
        { severity: 'warning', code: 'informational', details: { coding: [{ system: 'other' }] } },
        {
          severity: 'error',
          code: 'exception',
          details: { coding: [{ system: 'x', code: 'LOCAL' }, { code: 'NO_MATCH_FOUND' }] },
        },
      ],
    };
    expect(errorCodesOf(body)).toEqual(['LOCAL', 'NO_MATCH_FOUND']);
    expect(outcomeCodesOf(body)).toEqual(['LOCAL', 'NO_MATCH_FOUND']);
    expect(carriesErrorCode(body, ['NO_MATCH_FOUND'])).toBe(true);
  });

  it('reads InvalidId in every form D1 7 allows: a code, a member object, a text', () => {
    expect(errorCodesOf({ InvalidId: { type: 'id', id: 'B-1' } })).toEqual(['InvalidId']);
    expect(errorCodesOf({ InvalidId: 'B-1' })).toEqual(['InvalidId']);
    expect(errorCodesOf('InvalidId')).toEqual(['InvalidId']);
    expect(errorCodesOf(undefined, 'InvalidId: no batch B-1')).toEqual(['InvalidId']);
    expect(errorCodeOf({ type: 'id', id: 'B-1', error: 'InvalidId' })).toBe('InvalidId');
    expect(errorCodesOf({ resourceType: 'OperationOutcome', issue: [{ diagnostics: 'InvalidId B-1' }] })).toEqual([
      'InvalidId',
    ]);
  });

  it('never throws on odd shapes, and takes no word for a code', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const body of [
      undefined,
      null,
      42,
      'a text with words',
      [],
      { issue: null },
      { issue: [null, { details: { coding: 'x' } }] },
      { code: 7 },
      cyclic,
    ]) {
      expect(errorCodesOf(body)).toEqual([]);
    }
    expect(errorCodesOf(undefined, 'an InvalidIdentifier is not InvalidId-free')).toEqual(['InvalidId']);
    expect(errorCodesOf(undefined, 'InvalidIdentifier')).toEqual([]);
  });

  it('does not take the issue type for an error code', () => {
    expect(errorCodesOf({ resourceType: 'OperationOutcome', issue: [{ code: 'exception' }] })).toEqual([]);
  });
});
