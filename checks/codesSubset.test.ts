import { describe, expect, it } from 'vitest';
import { codesSubset } from './codesSubset.ts';
import { respondedExchange, valueSet } from './testing.ts';

const narrowed = (...items: unknown[]) => respondedExchange({ body: valueSet(items) });
const all = new Set(['SPEC|cardio', 'SPEC|derm', 'SPEC|ortho']);

describe('codesSubset', () => {
  it('passes on a subset and on an empty narrowed set', () => {
    expect(
      codesSubset.run({ narrowed: narrowed({ system: 'SPEC', code: 'cardio' }, { system: 'SPEC', code: 'derm' }), all })
        .message,
    ).toBe('2 codes, all in the un-narrowed set');
    expect(codesSubset.run({ narrowed: narrowed(), all }).message).toBe('no codes');
  });

  it('matches a system-less item on its code alone', () => {
    expect(codesSubset.run({ narrowed: narrowed({ code: 'ortho' }), all }).outcome).toBe('pass');
    expect(codesSubset.run({ narrowed: narrowed({ code: 'ortho' }), all: new Set(['ortho']) }).outcome).toBe('pass');
  });

  it('fails on codes outside the un-narrowed set, including another system', () => {
    const finding = codesSubset.run({
      narrowed: narrowed({ system: 'SPEC', code: 'cardio' }, { system: 'OTHER', code: 'derm' }, { code: 'neuro' }),
      all,
    });
    expect(finding.message).toBe(
      'Expected every narrowed code in the un-narrowed set, received 2 not in it: OTHER|derm, |neuro',
    );
  });

  it('compares codes exactly (no case folding)', () => {
    expect(codesSubset.run({ narrowed: narrowed({ system: 'SPEC', code: 'CARDIO' }), all }).outcome).toBe('fail');
  });

  it('skips when no item has a code, fails on a non-ValueSet', () => {
    expect(codesSubset.run({ narrowed: narrowed({ display: 'x' }, null), all }).outcome).toBe('skip');
    expect(codesSubset.run({ narrowed: respondedExchange({ body: 'x' }), all }).outcome).toBe('fail');
    expect(
      codesSubset.run({ narrowed: respondedExchange({ body: { resourceType: 'OperationOutcome' } }), all }).outcome,
    ).toBe('fail');
  });
});
