import { describe, expect, it } from 'vitest';
import { unmatchedValueGivesNothing } from './unmatchedValueGivesNothing.ts';
import { respondedExchange } from './testing.ts';

const bundle = (ids: string[]) => ({
  resourceType: 'Bundle',
  type: 'searchset',
  entry: ids.map((id) => ({ resource: { resourceType: 'Practitioner', id } })),
});

describe('unmatchedValueGivesNothing', () => {
  it('passes on an empty Bundle and on a 4xx refusal', () => {
    expect(unmatchedValueGivesNothing('profession=NONE').run(respondedExchange({ body: bundle([]) })).outcome).toBe(
      'pass',
    );
    expect(
      unmatchedValueGivesNothing('profession=NONE').run(
        respondedExchange({ status: 422, body: { resourceType: 'OperationOutcome' } }),
      ).outcome,
    ).toBe('pass');
  });

  it('fails when records come back', () => {
    const finding = unmatchedValueGivesNothing('profession=NONE').run(
      respondedExchange({ body: bundle(['BP-1', 'BP-2']) }),
    );
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toContain('received 2');
  });
});
