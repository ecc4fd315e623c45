import { fail, pass, show, type Check } from '../core/check.ts';
import { listBrief } from './listBrief.ts';
import { readBundle } from './readJson.ts';
import { resourceLabel } from './resourceKey.ts';

/**
 * A search whose filter no record can match returns an empty Bundle (document 1, 4.3: the
 * response holds the Claims "matching the filters"; DEC-D1-74): a negative probe such as an
 * unknown `authCode`, or the configured authorisation's code under another insurer. A target that
 * ignores the filter answers records anyway. `probe` describes the filter for the message.
 */
export function filterExcludesAll(probe: string): Check {
  return {
    id: 'filter-excludes-all',
    summary: 'A filter that matches no record gives an empty Bundle',
    run: (x) => {
      const read = readBundle(x);
      if (!read.ok) return read.finding;
      const n = read.value.resources.length;
      if (n === 0) return pass(`no entries for ${probe}`, { probe });
      const labels = read.value.resources.map((r, i) => resourceLabel(r, i));
      return fail(`Expected no entries for ${probe}, received ${n}: ${listBrief(labels, 3)}`, {
        probe: show(probe, 200),
        entries: n,
      });
    },
  };
}
