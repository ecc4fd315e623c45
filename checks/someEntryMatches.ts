import { fail, pass, type Check } from '../core/check.ts';
import { readBundle, resourcesOfType } from './readJson.ts';
import { resourceLabel } from './resourceKey.ts';

/** Runs a suite-supplied judgement; one that trips over odd target data does not match. */
function holds(
  predicate: (r: Record<string, unknown>) => boolean | undefined,
  resource: Record<string, unknown>,
): boolean {
  try {
    return predicate(resource) === true;
  } catch {
    return false;
  }
}

/**
 * At least one entry of the Bundle satisfies `predicate` (document 3, 4.5; DEC-D3-56: a service
 * the suite set for a payor is in the effective prices of that site and payor). The converse of
 * entries-match-filter, which judges every entry.
 */
export function someEntryMatches(
  description: string,
  predicate: (resource: Record<string, unknown>) => boolean | undefined,
  options: { resourceType?: string } = {},
): Check {
  return {
    id: 'some-entry-matches',
    summary: `An entry of the Bundle is ${description}`,
    run: (x) => {
      const read = readBundle(x);
      if (!read.ok) return read.finding;
      const candidates = resourcesOfType(read.value.resources, options.resourceType);
      const at = candidates.findIndex((r) => holds(predicate, r));
      if (at >= 0)
        return pass(`${resourceLabel(candidates[at], at)} is ${description}`, { candidates: candidates.length });
      return fail(`Expected an entry ${description}, received none among ${candidates.length}`, {
        candidates: candidates.length,
      });
    },
  };
}
