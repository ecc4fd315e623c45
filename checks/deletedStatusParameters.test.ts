import { describe, expect, it } from 'vitest';
import { deletedStatusParameters } from './deletedStatusParameters.ts';
import { respondedExchange } from './testing.ts';

const run = (body: unknown) => deletedStatusParameters.run(respondedExchange({ body }));

describe('deletedStatusParameters', () => {
  it('passes on Status DELETED, with or without resourceType', () => {
    expect(run({ resourceType: 'Parameters', parameter: [{ name: 'Status', valueString: 'DELETED' }] })).toMatchObject({
      outcome: 'pass',
      message: 'Status DELETED',
    });
    expect(
      run({
        parameter: [
          { name: 'Other', valueString: 'x' },
          { name: 'Status', valueString: 'DELETED' },
        ],
      }).outcome,
    ).toBe('pass');
  });

  it('fails on another status value or name spelling', () => {
    expect(run({ parameter: [{ name: 'Status', valueString: 'deleted' }] }).message).toBe(
      'Expected a parameter {name: "Status", valueString: "DELETED"}, received Status "deleted"',
    );
    expect(run({ parameter: [{ name: 'status', valueString: 'DELETED' }] }).message).toBe(
      'Expected a parameter {name: "Status", valueString: "DELETED"}, received no Status parameter among 1',
    );
    expect(run({ parameter: [{ name: 'Status', valueCode: 'DELETED' }] }).message).toContain(
      'received Status <absent>',
    );
  });

  it('fails on another resource or no parameter array', () => {
    expect(
      run({ resourceType: 'OperationOutcome', parameter: [{ name: 'Status', valueString: 'DELETED' }] }).message,
    ).toBe('Expected a Parameters resource, received resourceType "OperationOutcome"');
    expect(run({ resourceType: 'Parameters' }).message).toBe('Expected a parameter array, received <absent>');
    expect(run({ parameter: { name: 'Status', valueString: 'DELETED' } }).outcome).toBe('fail');
  });

  it('never throws on hostile bodies', () => {
    expect(run('').outcome).toBe('fail');
    expect(run({ parameter: [null, 1, 'Status', [], { name: { a: 1 } }] }).message).toContain(
      'no Status parameter among 5',
    );
    expect(deletedStatusParameters.run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
  });
});
