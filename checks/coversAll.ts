import { fail, pass, skip, type Check } from '../core/check.ts';
import type { RespondedExchange } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readBundle, receivedPart } from './readJson.ts';
import { roleEntries, roleReferences } from './roleReferences.ts';

export interface DistinctCoverage {
  /** The `distinct-by` result: one page, or all its pages in order. */
  distinct: RespondedExchange | readonly RespondedExchange[];
  /** Keys every one of which must appear (e.g. the practitioners of the plain result). */
  expected: ReadonlySet<string>;
  /**
   * The keys of one role; the same function must build `expected`. Default: the role's
   * practitioner reference as `Practitioner/<id>` (roleReferences(role, 'practitioner')).
   */
  keyOf?: (role: Record<string, unknown>) => string | readonly string[] | undefined;
}

const practitionerKey = (role: Record<string, unknown>): readonly string[] => roleReferences(role, 'practitioner');

/** Runs the suite's key function; one that trips over odd target data gives no keys. */
function keysOf(keyOf: NonNullable<DistinctCoverage['keyOf']>, role: Record<string, unknown>): readonly string[] {
  try {
    const keys = keyOf(role);
    if (typeof keys === 'string') return [keys];
    return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * `distinct-by` drops duplicates, not matches (document 2, 4.11; DEC-D2-20): every key of the
 * plain result (same filters, all pages) appears among the roles of the distinct result.
 */
export const coversAll: Check<DistinctCoverage> = {
  id: 'covers-all',
  summary: 'Every practitioner (or location) of the plain result appears in the distinct result',
  run: ({ distinct, expected, keyOf = practitionerKey }) => {
    const pages: readonly RespondedExchange[] = Array.isArray(distinct) ? distinct : [distinct as RespondedExchange];
    if (pages.length === 0) return skip('No distinct result to judge');
    if (expected.size === 0) return pass('nothing expected');
    const seen = new Set<string>();
    for (const [index, page] of pages.entries()) {
      const read = readBundle(page);
      if (!read.ok) {
        if (read.finding.outcome === 'skip') return read.finding;
        return fail(
          `Expected a readable Bundle on every page of the distinct result, received ${receivedPart(read.finding)} on page ${index + 1}`,
        );
      }
      for (const role of roleEntries(read.value)) for (const key of keysOf(keyOf, role.resource)) seen.add(key);
    }
    const missing = [...expected].filter((key) => !seen.has(key));
    const evidence = { expected: expected.size, seen: seen.size, missing: missing.slice(0, 20) };
    if (missing.length === 0) return pass(`all ${expected.size} expected keys among the distinct result`, evidence);
    return fail(
      `Expected all ${expected.size} keys of the plain result in the distinct result, received ${missing.length} missing: ${listBrief(missing, 3)}`,
      evidence,
    );
  },
};
