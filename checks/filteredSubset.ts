import { fail, pass, skip, type Check } from '../core/check.ts';
import type { RespondedExchange } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readBundle } from './readJson.ts';
import { resourceKey } from './resourceKey.ts';

export interface FilteredAndAll {
  filtered: RespondedExchange;
  /** Records of the unfiltered query: keys `resourceType/id` (see resourceKey) or bare ids. */
  all: ReadonlySet<string>;
}

/**
 * A filtered search returns a subset of the unfiltered one (document 1, 4.3; DEC-D1-22: the
 * fields of an authorisation Claim are not shown, so filters are judged by set relations).
 * Entries without an id are left out.
 */
export const filteredSubset: Check<FilteredAndAll> = {
  id: 'filtered-subset',
  summary: 'Every record of a filtered search is among the unfiltered records',
  run: ({ filtered, all }) => {
    const read = readBundle(filtered);
    if (!read.ok) return read.finding;
    const strays: string[] = [];
    let keyed = 0;
    for (const resource of read.value.resources) {
      const key = resourceKey(resource);
      if (key === undefined) continue;
      keyed += 1;
      const id = String(resource.id);
      if (!all.has(key) && !all.has(id)) strays.push(key);
    }
    if (read.value.entries.length === 0) return pass('no entries');
    if (keyed === 0) return skip('No entry carries an id');
    if (strays.length === 0) return pass(`${keyed} records, all among the unfiltered ones`, { records: keyed });
    return fail(
      `Expected every filtered record among the unfiltered ones, received ${strays.length} not among them: ${listBrief(strays, 3)}`,
      { strays: strays.slice(0, 20) },
    );
  },
};
