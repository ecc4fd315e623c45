import { fail, pass, type Check } from '../core/check.ts';
import { contractNamesPayor, contractsOf } from './contract.ts';
import { listBrief } from './listBrief.ts';
import { readBundle } from './readJson.ts';

/**
 * Effective prices asked for several comma-separated payors answer for every one of them
 * (document 3, 4.5: `payor` takes "one or more payor ids, comma-separated"): for each payor of
 * `payors` (the suite passes those that, asked alone, are answered with a Contract naming them),
 * some Contract of the Bundle names it (DEC-D3-37: authority, asset context or id).
 */
export function everyPayorAnswered(payors: readonly string[]): Check {
  return {
    id: 'every-payor-answered',
    summary: `Effective prices for the payors ${payors.join(',')} hold a Contract for each of them`,
    run: (x) => {
      const read = readBundle(x);
      if (!read.ok) return read.finding;
      const contracts = contractsOf(read.value.body);
      const missing = payors.filter((p) => !contracts.some((c) => contractNamesPayor(c, p)));
      const evidence = { payors: [...payors], contracts: contracts.length, missing };
      if (missing.length === 0)
        return pass(`${contracts.length} Contracts naming each of ${payors.join(', ')}`, evidence);
      return fail(
        `Expected a Contract for every payor of ${payors.join(',')}, received ${contracts.length} Contracts naming none of ${listBrief(missing)}`,
        evidence,
      );
    },
  };
}
