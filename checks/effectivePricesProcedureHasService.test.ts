import { describe, expect, it } from 'vitest';
import { effectivePricesProcedureHasService } from './effectivePricesProcedureHasService.ts';
import { bundle, respondedExchange } from './testing.ts';

const PROC = 'https://ref.example/procedure';
const item = (system: string, code: string, net?: number) => ({
  entityCodeableConcept: { coding: [{ system, code, display: code }] },
  ...(net === undefined ? {} : { net: { value: net } }),
});
const contract = (id: string, ...assets: unknown[][]) => ({
  resourceType: 'Contract',
  id,
  term: [
    { asset: assets.map((valuedItem) => ({ type: [{ coding: [{ code: 'PriceGroupAssignment' }] }], valuedItem })) },
  ],
});
const run = (...resources: unknown[]) =>
  effectivePricesProcedureHasService.run(respondedExchange({ body: bundle(resources) }));

describe('effectivePricesProcedureHasService', () => {
  it('passes when each Contract with procedures holds a service', () => {
    expect(
      run(contract('c1', [item('ISC', 'S1'), item(PROC, 'P1', 10)]), contract('c2', [item('ISC', 'S2', 5)])),
    ).toMatchObject({
      outcome: 'pass',
      message: '1 Contract holds procedure codes, each with a service code',
    });
  });

  it('finds the service in another asset, another term or a nested group', () => {
    expect(run(contract('c1', [item(PROC, 'P1')], [item('ISC', 'S1')])).outcome).toBe('pass');
    const split = {
      resourceType: 'Contract',
      id: 'c1',
      term: [
        { asset: [{ valuedItem: [item(PROC, 'P1')] }] },
        { group: [{ asset: [{ valuedItem: [item('ISC', 'S1')] }] }] },
      ],
    };
    expect(run(split).outcome).toBe('pass');
  });

  it('passes on an empty Bundle and on Contracts without procedures', () => {
    expect(run().message).toBe('0 Contracts, no procedure codes');
    expect(run(contract('c1', [item('ISC', 'S1')])).message).toBe('1 Contract, no procedure codes');
  });

  it('fails on a procedure without a service in the same Contract', () => {
    expect(run(contract('c1', [item(PROC, 'P1', 10)]), contract('c2', [item('ISC', 'S1')])).message).toBe(
      'Expected every Contract with a procedure code to hold a service code (system ISC) too, received 1 of 1 without one: Contract/c1 (https://ref.example/procedure|P1)',
    );
    expect(run(contract('c1', [item(PROC, 'P1'), item('isc', 'S1'), item('https://x/ISC', 'S2')])).outcome).toBe(
      'fail',
    );
  });

  it('never throws on hostile bodies', () => {
    const odd = {
      resourceType: 'Contract',
      term: [
        null,
        { asset: 'x' },
        { asset: [{ valuedItem: [null, { entityCodeableConcept: { coding: [{ system: 5 }] } }] }] },
      ],
    };
    expect(
      run(odd, null, { resourceType: 'Patient', term: [{ asset: [{ valuedItem: [item(PROC, 'P')] }] }] }).outcome,
    ).toBe('pass');
    const depth = 3000;
    const deep = `{"resourceType":"Bundle","entry":[{"resource":{"resourceType":"Contract","term":[${'{"group":['.repeat(depth)}{"asset":[{"valuedItem":[${JSON.stringify(item(PROC, 'P'))}]}]}${']}'.repeat(depth)}]}}]}`;
    expect(effectivePricesProcedureHasService.run(respondedExchange({ body: deep })).outcome).toBe('pass');
    expect(
      effectivePricesProcedureHasService.run(respondedExchange({ body: contract('c1', [item(PROC, 'P')]) })).message,
    ).toBe('Expected a Bundle, received resourceType "Contract"');
    expect(effectivePricesProcedureHasService.run(respondedExchange({ body: '{', truncated: true })).outcome).toBe(
      'skip',
    );
  });
});
