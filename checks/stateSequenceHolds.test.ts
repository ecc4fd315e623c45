import { describe, expect, it } from 'vitest';
import { stateSequenceHolds } from './stateSequenceHolds.ts';

describe('stateSequenceHolds', () => {
  it('passes when every generated sequence kept the state', () => {
    const f = stateSequenceHolds.run({ machine: 'batch-cycle', ok: true, sequences: 25 });
    expect(f).toMatchObject({
      outcome: 'pass',
      message: '25 generated batch-cycle sequences kept the documented state',
    });
  });

  it('fails naming the shortest failing sequence and why its last command failed', () => {
    const f = stateSequenceHolds.run({
      machine: 'batch-cycle',
      ok: false,
      sequences: 25,
      counterexample: ['ack pending[0]', 'list'],
      failure:
        'list: Expected acknowledged B1 gone from the pending list, received it listed\n  DELETE /claims/claimresponse/$batch/B1 -> 200',
    });
    expect(f.outcome).toBe('fail');
    expect(f.message).toBe(
      'Expected every batch-cycle sequence to keep the documented state, received the shortest failing sequence (2 commands: ack pending[0] ; list) where list: Expected acknowledged B1 gone from the pending list, received it listed',
    );
    expect(f.evidence).toMatchObject({ counterexample: ['ack pending[0]', 'list'] });
    expect(String(f.evidence?.failure)).toContain('DELETE /claims/claimresponse/$batch/B1 -> 200');
  });
});
