import { describe, expect, it } from 'vitest';
import { contractItemSystems } from './contractItemSystems.ts';
import { bundle, respondedExchange } from './testing.ts';

const contract = (...systems: string[]) => ({
  resourceType: 'Contract',
  id: 'C1',
  term: [
    {
      asset: [
        {
          valuedItem: systems.map((system, i) => ({ entityCodeableConcept: { coding: [{ system, code: `X${i}` }] } })),
        },
      ],
    },
  ],
});

describe('contractItemSystems', () => {
  it('passes on ISC and {ref_url}/procedure, whatever the prefix', () => {
    expect(
      contractItemSystems.run(
        respondedExchange({
          body: bundle([
            contract('ISC', 'https://ref.example/procedure'),
            contract('isc', 'https://other.example/fhir/procedure'),
          ]),
        }),
      ).outcome,
    ).toBe('pass');
  });
  it('fails on another system and names it', () => {
    const f = contractItemSystems.run(respondedExchange({ body: contract('ISC', 'https://ref.example/service') }));
    expect(f.outcome).toBe('fail');
    expect(f.message).toContain('https://ref.example/service|X1');
  });
  it('skips when there is nothing to judge', () => {
    expect(contractItemSystems.run(respondedExchange({ body: bundle([]) })).outcome).toBe('skip');
  });
});
