import { describe, expect, it } from 'vitest';
import { codeSetPageSizeBounded } from './codeSetPageSizeBounded.ts';
import { respondedExchange } from './testing.ts';

const valueSet = (n: number, total = n) =>
  respondedExchange({
    body: {
      resourceType: 'ValueSet',
      name: 'condition-code',
      expansion: {
        total,
        offset: 0,
        contains: Array.from({ length: n }, (_, i) => ({ system: 'ICD10', code: `C${i}`, display: 'x' })),
      },
    },
  });

describe('codeSetPageSizeBounded', () => {
  it('passes on a refusal and on a clamped page', () => {
    expect(
      codeSetPageSizeBounded('0').run(respondedExchange({ status: 400, body: { code: 'MSG_INVALID_FORMAT' } })).outcome,
    ).toBe('pass');
    expect(codeSetPageSizeBounded('0', 50).run(valueSet(1, 50)).outcome).toBe('pass');
    expect(codeSetPageSizeBounded('1001', 50).run(valueSet(50)).outcome).toBe('pass');
  });

  it('fails on an empty page of a set that has codes, and on more than 1,000 codes', () => {
    expect(codeSetPageSizeBounded('0', 50).run(valueSet(0, 50)).outcome).toBe('fail');
    expect(codeSetPageSizeBounded('0').run(valueSet(0, 50)).outcome).toBe('fail');
    expect(codeSetPageSizeBounded('1001').run(valueSet(1001, 2000)).outcome).toBe('fail');
  });

  it('passes an empty page of an empty set', () => {
    expect(codeSetPageSizeBounded('0', 0).run(valueSet(0, 0)).outcome).toBe('pass');
  });
});
