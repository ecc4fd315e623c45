import { fail, pass, skip, type Check } from '../core/check.ts';
import { listBrief } from './listBrief.ts';
import { isBundle, readObject, bundleView, resourcesOfType } from './readJson.ts';
import { resourceLabel } from './resourceKey.ts';

export interface EntryFilterOptions {
  /** Judge only entries of this resourceType. */
  resourceType?: string;
}

/** Runs a suite-supplied judgement; one that trips over odd target data cannot judge the entry. */
function judge(
  predicate: (r: Record<string, unknown>) => boolean | undefined,
  resource: Record<string, unknown>,
): boolean | undefined {
  try {
    const verdict = predicate(resource);
    return typeof verdict === 'boolean' ? verdict : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every returned record honours the request's filter (document 1, 4.3-4.5, 4.9-4.11; DEC-D1-25
 * to -30). `predicate` answers true (matches), false (does not) or undefined (cannot judge this
 * entry). On a single resource instead of a Bundle the predicate judges that resource. An empty
 * Bundle passes; a non-empty one where nothing could be judged is skipped.
 */
export function entriesMatchFilter(
  description: string,
  predicate: (resource: Record<string, unknown>) => boolean | undefined,
  options: EntryFilterOptions = {},
): Check {
  return {
    id: 'entries-match-filter',
    summary: `Every entry matches ${description}`,
    run: (x) => {
      const body = readObject(x);
      if (!body.ok) return body.finding;
      let candidates: Record<string, unknown>[];
      if (isBundle(body.value)) {
        const view = bundleView(body.value);
        if (!view.ok) return view.finding;
        if (view.value.entries.length === 0) return pass('no entries');
        candidates = resourcesOfType(view.value.resources, options.resourceType);
      } else {
        candidates = resourcesOfType([body.value], options.resourceType);
      }
      const offending: string[] = [];
      let judged = 0;
      candidates.forEach((resource, index) => {
        const verdict = judge(predicate, resource);
        if (verdict === undefined) return;
        judged += 1;
        if (!verdict) offending.push(resourceLabel(resource, index));
      });
      const evidence = { candidates: candidates.length, judged, offending: offending.length };
      if (judged === 0) {
        const what = options.resourceType === undefined ? 'entry' : `${options.resourceType} entry`;
        return skip(`No ${what} could be judged against ${description}`);
      }
      if (offending.length === 0) {
        const unjudged = candidates.length - judged;
        return pass(
          `${judged} ${judged === 1 ? 'entry matches' : 'entries match'} ${description}${unjudged > 0 ? ` (${unjudged} could not be judged)` : ''}`,
          evidence,
        );
      }
      return fail(
        `Expected every entry to match ${description}, received ${offending.length} of ${judged} that do not: ${listBrief(offending, 3)}`,
        { ...evidence, ids: offending.slice(0, 20) },
      );
    },
  };
}
