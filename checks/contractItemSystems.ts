import { fail, pass, skip, type Check } from '../core/check.ts';
import { codingLabel, codingsOf, contractsOf, valuedItemsOf } from './contract.ts';
import { listBrief } from './listBrief.ts';
import { describe, readJson } from './readJson.ts';

/** `ISC` (letter case not fixed by the documents) or a system ending `/procedure` (`{ref_url}` varies, DEC-D3-30). */
const allowed = (system: unknown): boolean =>
  typeof system === 'string' && (system.toUpperCase() === 'ISC' || /\/procedure$/.test(system));

/**
 * Every coding of every valued item of the Contract(s) answered names the system `ISC` (a
 * service) or `{ref_url}/procedure` (a procedure) (document 3, 2.6: `valuedItem[].entityCodeableConcept.coding[]`
 * with `system` `ISC` for services and `{ref_url}/procedure` for procedures; DEC-D3-30: the
 * `{ref_url}` prefix is not judged). Items without codings (a fee alone) are left out.
 */
export const contractItemSystems: Check = {
  id: 'contract-item-systems',
  summary: 'Every valued item is coded with system ISC or {ref_url}/procedure',
  run: (x) => {
    const json = readJson(x);
    if (!json.ok) return json.finding;
    const contracts = contractsOf(json.value);
    if (contracts.length === 0) return skip(`No Contract to judge in ${describe(json.value)}`);
    const wrong: string[] = [];
    let codings = 0;
    for (const c of contracts)
      for (const item of valuedItemsOf(c))
        for (const coding of codingsOf(item)) {
          codings += 1;
          if (!allowed(coding.system)) wrong.push(`${typeof c.id === 'string' ? c.id : '?'}: ${codingLabel(coding)}`);
        }
    const evidence = { contracts: contracts.length, codings, wrong: wrong.length };
    if (codings === 0) return skip('No valued item coding to judge');
    if (wrong.length === 0) return pass(`${codings} valued-item codings, each ISC or …/procedure`, evidence);
    return fail(
      `Expected every valued-item coding system to be ISC or {ref_url}/procedure, received ${wrong.length} other (${listBrief(wrong, 3)})`,
      evidence,
    );
  },
};
