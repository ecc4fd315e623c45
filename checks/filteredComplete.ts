import { fail, pass, type Check } from '../core/check.ts';
import type { RespondedExchange } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readBundle } from './readJson.ts';
import { resourceKey } from './resourceKey.ts';

export interface FilteredAndExpected {
  filtered: RespondedExchange;
  /** Records the filter must keep (keys `resourceType/id`, see resourceKey), from the unfiltered result. */
  expected: ReadonlySet<string>;
}

/**
 * A filtered result is complete: every record of the unfiltered result that qualifies is among
 * the filtered records (document 2, 4.4; DEC-D2-48: `type=edi` holds every insurer whose `edi` is
 * `Yes`, `type=mii` every one whose `insurerType` is `MII`). The converse of filtered-subset.
 */
export const filteredComplete: Check<FilteredAndExpected> = {
  id: 'filtered-complete',
  summary: 'Every qualifying record of the unfiltered result is among the filtered records',
  run: ({ filtered, expected }) => {
    const read = readBundle(filtered);
    if (!read.ok) return read.finding;
    if (expected.size === 0) return pass('nothing expected');
    const seen = new Set<string>();
    for (const r of read.value.resources) {
      const key = resourceKey(r);
      if (key !== undefined) seen.add(key);
    }
    const missing = [...expected].filter((k) => !seen.has(k));
    const evidence = { expected: expected.size, returned: read.value.entries.length, missing: missing.slice(0, 20) };
    if (missing.length === 0) return pass(`all ${expected.size} qualifying records returned`, evidence);
    return fail(
      `Expected all ${expected.size} qualifying records in the filtered result, received ${missing.length} missing: ${listBrief(missing, 3)}`,
      evidence,
    );
  },
};
