import { describe, expect, it } from 'vitest';
import { successStatus } from './index.ts';
import { respondedExchange } from './testing.ts';
import { evaluate } from '../core/judgement.ts';

describe('evaluate', () => {
  it('leaves a 406 to the Accept the suite chose unjudged, never failed (DEC-R-08)', () => {
    const x = respondedExchange({ status: 406, body: { resourceType: 'OperationOutcome' } });
    const judged = evaluate(x, successStatus(200));
    expect(judged.outcome).toBe('error');
    expect(judged.message).toMatch(/406 Not Acceptable.*DEC-R-08.*not judged/);
  });

  it('judges every other answer', () => {
    expect(evaluate(respondedExchange({ status: 500, body: {} }), successStatus(200)).outcome).toBe('fail');
    expect(evaluate(respondedExchange({ status: 200, body: {} }), successStatus(200)).outcome).toBe('pass');
  });
});
