import { fail, pass, show, type Check } from '../core/check.ts';
import type { RespondedExchange } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readBundle } from './readJson.ts';
import { resourceLabel } from './resourceKey.ts';

/**
 * A search filter given a value no record holds returns no record (document 2, 4.12: the search
 * returns the practitioners matching its filters; DEC-D2-59): an empty Bundle passes, and so does
 * a refusal with a 4xx status (the documents do not say whether an unknown code, location or a
 * place with nobody near it is refused or answered empty). A success answer carrying records
 * fails: the target ignored the filter.
 */
export function unmatchedValueGivesNothing(probe: string): Check<RespondedExchange> {
  return {
    id: 'unmatched-value-gives-nothing',
    summary: 'A filter value no record holds gives no record (an empty Bundle or a refusal)',
    run: (x) => {
      const status = x.response.status;
      if (status >= 400 && status < 500) return pass(`${probe} refused with HTTP ${status}`, { probe, status });
      const read = readBundle(x);
      if (!read.ok) return read.finding;
      const n = read.value.resources.length;
      if (n === 0) return pass(`no entries for ${probe}`, { probe });
      const labels = read.value.resources.map((r, i) => resourceLabel(r, i));
      return fail(
        `Expected no entries for ${probe} (no record holds the value), received ${n}: ${listBrief(labels, 3)}`,
        { probe: show(probe, 200), entries: n },
      );
    },
  };
}
