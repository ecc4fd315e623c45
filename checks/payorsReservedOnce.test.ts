import { describe, expect, it } from 'vitest';
import { payorsReservedOnce } from './payorsReservedOnce.ts';
import { bundle, respondedExchange } from './testing.ts';

const payor = (reference: string, id = reference) => ({
  resourceType: 'Contract',
  id: `C-${id}`,
  subject: [{ reference: 'Site/S1' }],
  authority: [{ id: 'payor', reference, display: reference.split('/')[1] }],
  subType: [{ coding: [{ code: 'I', display: 'FEE_SCHEDULE' }] }],
});
const run = (...contracts: unknown[]) => payorsReservedOnce.run(respondedExchange({ body: bundle(contracts) }));

describe('payorsReservedOnce', () => {
  it('passes when slf and na appear once each', () => {
    expect(
      run(payor('Organization/slf'), payor('Organization/na'), payor('Organization/bup'), payor('Person/slf')),
    ).toMatchObject({
      outcome: 'pass',
      message: 'slf and na once each among 4 payor Contracts',
    });
  });

  it('fails when one is missing or repeated', () => {
    expect(run(payor('Organization/slf'), payor('Organization/bup')).message).toBe(
      'Expected Organization/slf and Organization/na once each (DEC-D3-12), received slf once and na 0 times',
    );
    expect(run(payor('Organization/slf'), payor('Organization/na'), payor('Organization/na', 'na2')).message).toContain(
      'na 2 times',
    );
    expect(run().outcome).toBe('fail');
  });

  it('does not take contacts or non-Contracts for the reserved payors', () => {
    expect(run(payor('Person/slf'), payor('Organization/na')).outcome).toBe('fail');
    expect(run({ ...payor('Organization/slf'), resourceType: 'Organization' }, payor('Organization/na')).outcome).toBe(
      'fail',
    );
  });

  it('never throws on hostile bodies', () => {
    expect(payorsReservedOnce.run(respondedExchange({ body: payor('Organization/slf') })).message).toBe(
      'Expected a Bundle, received resourceType "Contract"',
    );
    expect(payorsReservedOnce.run(respondedExchange({ body: { resourceType: 'Bundle', entry: {} } })).outcome).toBe(
      'fail',
    );
    expect(payorsReservedOnce.run(respondedExchange({ body: '' })).outcome).toBe('fail');
    expect(payorsReservedOnce.run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
    expect(run(null, 1, { resourceType: 'Contract', authority: 'Organization/slf' }).outcome).toBe('fail');
  });
});

describe('payorsReservedOnce over pages', () => {
  it('finds slf and na on any page, and by asset context (DEC-D3-37)', () => {
    const page = (...contracts: unknown[]) => respondedExchange({ body: bundle(contracts) });
    const byContext = {
      resourceType: 'Contract',
      id: 'K1',
      term: [{ asset: [{ context: [{ reference: { reference: 'Payor/I-na' } }] }] }],
    };
    expect(
      payorsReservedOnce.run({ pages: [page(payor('Organization/bup')), page(payor('Organization/slf'), byContext)] })
        .outcome,
    ).toBe('pass');
    expect(
      payorsReservedOnce.run({
        pages: [page(payor('Organization/slf')), page(payor('Organization/slf', 's2'), byContext)],
      }).message,
    ).toContain('slf 2 times');
  });
});
