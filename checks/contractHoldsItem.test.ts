import { describe, expect, it } from 'vitest';
import { contractHoldsItem } from './contractHoldsItem.ts';
import { respondedExchange } from './testing.ts';

const item = (system: string, code: string, net?: unknown) => ({
  entityCodeableConcept: { coding: [{ system, code, display: code }] },
  ...(net === undefined ? {} : { net: { value: net, currency: 'GBP' } }),
});
const contract = (...valuedItem: unknown[]) => ({
  resourceType: 'Contract',
  id: 'K1',
  term: [{ asset: [{ valuedItem }] }],
});
const run = (check: ReturnType<typeof contractHoldsItem>, body: unknown) => check.run(respondedExchange({ body }));

const SERVICE = contractHoldsItem({ system: 'ISC', code: 'CONF-SVC-1' });
const PROCEDURE = contractHoldsItem({ system: 'https://ref.example/procedure', code: 'CONF-PROC-1' });
const PRICE = contractHoldsItem({ system: 'https://ref.example/procedure', code: 'CONF-PROC-1', net: 123.45 });

describe('contractHoldsItem', () => {
  it('passes on the stored service', () => {
    expect(run(SERVICE, contract(item('ISC', 'CONF-SVC-1')))).toMatchObject({
      outcome: 'pass',
      message: 'valued item ISC|CONF-SVC-1',
    });
  });

  it('compares systems by their last segment', () => {
    expect(
      run(PROCEDURE, contract(item('ISC', 'CONF-SVC-1'), item('https://target.example/ref/procedure', 'CONF-PROC-1')))
        .outcome,
    ).toBe('pass');
    expect(run(SERVICE, contract(item('https://target.example/ISC', 'CONF-SVC-1'))).outcome).toBe('pass');
    expect(run(PROCEDURE, contract(item('https://ref.example/procedures', 'CONF-PROC-1'))).outcome).toBe('fail');
    expect(run(PROCEDURE, contract(item('ISC', 'CONF-PROC-1'))).outcome).toBe('fail');
  });

  it('checks the fee to the cent', () => {
    expect(run(PRICE, contract(item('https://ref.example/procedure', 'CONF-PROC-1', 123.45))).message).toBe(
      'valued item https://ref.example/procedure|CONF-PROC-1 with net.value 123.45',
    );
    expect(run(PRICE, contract(item('https://ref.example/procedure', 'CONF-PROC-1', 123.449999))).outcome).toBe('pass');
    expect(
      run(
        PRICE,
        contract(
          item('https://ref.example/procedure', 'CONF-PROC-1'),
          item('https://ref.example/procedure', 'CONF-PROC-1', 123.45),
        ),
      ).outcome,
    ).toBe('pass');
    expect(run(PRICE, contract(item('https://ref.example/procedure', 'CONF-PROC-1', 123.4))).message).toBe(
      'Expected a valued item https://ref.example/procedure|CONF-PROC-1 with net.value 123.45, received it with net.value 123.4',
    );
    expect(run(PRICE, contract(item('https://ref.example/procedure', 'CONF-PROC-1', '123.45'))).outcome).toBe('fail');
    expect(run(PRICE, contract(item('https://ref.example/procedure', 'CONF-PROC-1'))).message).toContain(
      'received it with net.value <absent>',
    );
  });

  it('fails when the item is missing', () => {
    expect(run(SERVICE, contract(item('ISC', 'OTHER')))).toMatchObject({
      outcome: 'fail',
      message: 'Expected a valued item ISC|CONF-SVC-1, received none coded ISC|CONF-SVC-1 among 1 valued item',
    });
    expect(run(SERVICE, { resourceType: 'Contract' }).message).toContain('among 0 valued items');
  });

  it('never throws on hostile bodies', () => {
    expect(
      run(SERVICE, { resourceType: 'Bundle', entry: [{ resource: contract(item('ISC', 'CONF-SVC-1')) }] }).message,
    ).toBe('Expected a Contract, received resourceType "Bundle"');
    expect(run(SERVICE, { resourceType: 'Contract', term: { asset: [] } }).outcome).toBe('fail');
    expect(
      run(
        PRICE,
        contract(null, 4, { entityCodeableConcept: { coding: [{ system: null, code: 'CONF-PROC-1' }] }, net: 123.45 }),
      ).outcome,
    ).toBe('fail');
    expect(
      run(PRICE, {
        ...contract(item('https://ref.example/procedure', 'CONF-PROC-1')),
        term: [{ asset: [{ valuedItem: [{ ...item('https://ref.example/procedure', 'CONF-PROC-1'), net: [1] }] }] }],
      }).outcome,
    ).toBe('fail');
    expect(run(SERVICE, '').outcome).toBe('fail');
    expect(SERVICE.run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
    expect(PRICE.id).toBe(SERVICE.id);
  });
});
