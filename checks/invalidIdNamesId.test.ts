import { describe, expect, it } from 'vitest';
import { invalidIdNamesId } from './invalidIdNamesId.ts';
import { respondedExchange } from './testing.ts';

describe('invalidIdNamesId', () => {
  it('passes when the body names the id', () => {
    expect(
      invalidIdNamesId('batch-42').run(respondedExchange({ status: 404, body: { code: 'InvalidId', id: 'batch-42' } }))
        .outcome,
    ).toBe('pass');
  });

  it('finds a JSON-escaped id', () => {
    const id = 'a"b';
    expect(invalidIdNamesId(id).run(respondedExchange({ status: 404, body: { id } })).outcome).toBe('pass');
  });

  it('fails when the id is not there', () => {
    expect(invalidIdNamesId('batch-42').run(respondedExchange({ status: 404, body: 'InvalidId' })).message).toBe(
      'Expected the body to name the id "batch-42", received "InvalidId"',
    );
    expect(invalidIdNamesId('batch-42').run(respondedExchange({ status: 404 })).message).toBe(
      'Expected the body to name the id "batch-42", received an empty body',
    );
  });
});
