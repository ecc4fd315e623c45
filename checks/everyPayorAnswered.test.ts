import { describe, expect, it } from 'vitest';
import { everyPayorAnswered } from './everyPayorAnswered.ts';
import { bundle, respondedExchange } from './testing.ts';

const byContext = (p: string) => ({
  resourceType: 'Contract',
  id: `C-${p}`,
  term: [{ asset: [{ context: [{ reference: { reference: `Payor/I-${p}` } }] }] }],
});
const byAuthority = (p: string) => ({
  resourceType: 'Contract',
  id: `K-${p}`,
  authority: [{ reference: `Organization/${p}` }],
});

describe('everyPayorAnswered', () => {
  it('passes when every payor is named by some Contract (context, authority or id)', () => {
    expect(
      everyPayorAnswered(['bup', 'slf', 'X9']).run(
        respondedExchange({
          body: bundle([byContext('bup'), byAuthority('slf'), { resourceType: 'Contract', id: 'X9' }]),
        }),
      ).outcome,
    ).toBe('pass');
  });
  it('fails when a payor of the list is missing', () => {
    const f = everyPayorAnswered(['bup', 'slf']).run(respondedExchange({ body: bundle([byContext('bup')]) }));
    expect(f.outcome).toBe('fail');
    expect(f.message).toContain('slf');
  });
});
