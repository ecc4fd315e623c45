import { fail, pass, type Check } from '../core/check.ts';
import { codingLabel, codingsOf, valuedItemsOf } from './contract.ts';
import { listBrief } from './listBrief.ts';
import { readBundle } from './readJson.ts';
import { resourceLabel } from './resourceKey.ts';

const isProcedure = (system: unknown): boolean => typeof system === 'string' && system.endsWith('/procedure');

/**
 * In effective prices a procedure code comes with its service code (document 3, 4.5: "a
 * procedure code entry comes with its service code entry"; DEC-D3-15): every Contract of the
 * Bundle that has a valued item coded in a system ending `/procedure` also has, in any of its
 * terms or assets, a valued item coded in system `ISC` (a service). Contracts without procedures
 * and an empty Bundle pass; resources other than Contracts are left out.
 */
export const effectivePricesProcedureHasService: Check = {
  id: 'effective-prices-procedure-has-service',
  summary: 'Every Contract holding a procedure code also holds a service code (4.5)',
  run: (x) => {
    const read = readBundle(x);
    if (!read.ok) return read.finding;
    const contracts = read.value.resources.filter((r) => r.resourceType === 'Contract');
    const offending: string[] = [];
    let withProcedures = 0;
    let procedures = 0;
    contracts.forEach((contract, index) => {
      const codings = valuedItemsOf(contract).flatMap(codingsOf);
      const procedureCodings = codings.filter((c) => isProcedure(c.system));
      if (procedureCodings.length === 0) return;
      withProcedures += 1;
      procedures += procedureCodings.length;
      if (!codings.some((c) => c.system === 'ISC')) {
        offending.push(`${resourceLabel(contract, index)} (${listBrief(procedureCodings.map(codingLabel), 2)})`);
      }
    });
    const evidence = { contracts: contracts.length, withProcedures, procedures, offending: offending.length };
    if (offending.length === 0) {
      if (withProcedures === 0)
        return pass(
          `${contracts.length} ${contracts.length === 1 ? 'Contract' : 'Contracts'}, no procedure codes`,
          evidence,
        );
      return pass(
        `${withProcedures} ${withProcedures === 1 ? 'Contract holds' : 'Contracts hold'} procedure codes, each with a service code`,
        evidence,
      );
    }
    return fail(
      `Expected every Contract with a procedure code to hold a service code (system ISC) too, received ${offending.length} of ${withProcedures} without one: ${listBrief(offending, 3)}`,
      { ...evidence, sample: offending.slice(0, 20) },
    );
  },
};
