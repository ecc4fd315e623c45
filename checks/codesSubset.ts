import { fail, pass, skip, type Check } from '../core/check.ts';
import type { RespondedExchange } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { codeKey, readValueSet } from './valueSet.ts';

export interface NarrowedAndAll {
  /** The narrowed code set (e.g. `practitioner-specialty/{profession}`). */
  narrowed: RespondedExchange;
  /** Codes of the un-narrowed set, keyed `system|code` (see codeKey), over all its pages. */
  all: ReadonlySet<string>;
}

/**
 * A narrowed code set is a subset of the un-narrowed one (document 2, 4.1: specialties "may be
 * narrowed by profession"; DEC-D2-06). An item without a `system` matches any un-narrowed code
 * with the same `code`. Items without a code are left out; an empty narrowed set passes.
 */
export const codesSubset: Check<NarrowedAndAll> = {
  id: 'codes-subset',
  summary: 'Every code of the narrowed code set is in the un-narrowed set',
  run: ({ narrowed, all }) => {
    const read = readValueSet(narrowed);
    if (!read.ok) return read.finding;
    if (read.value.contains.length === 0) return pass('no codes');
    const bareCodes = new Set<string>();
    for (const key of all) bareCodes.add(key.slice(key.indexOf('|') + 1));
    const strays: string[] = [];
    let keyed = 0;
    for (const item of read.value.contains) {
      const key = codeKey(item);
      if (key === undefined) continue;
      keyed += 1;
      const systemless = key.startsWith('|');
      if (!all.has(key) && !(systemless && bareCodes.has(key.slice(1)))) strays.push(key);
    }
    if (keyed === 0) return skip('No item of the narrowed code set carries a code');
    const evidence = { codes: keyed, all: all.size };
    if (strays.length === 0)
      return pass(`${keyed} ${keyed === 1 ? 'code' : 'codes'}, all in the un-narrowed set`, evidence);
    return fail(
      `Expected every narrowed code in the un-narrowed set, received ${strays.length} not in it: ${listBrief(strays, 3)}`,
      {
        ...evidence,
        strays: strays.slice(0, 20),
      },
    );
  },
};
