import { skip, type Check } from '../core/check.ts';
import { cardinalityFinding, type ExtensionCardinalityRule } from './extensionCount.ts';
import { readObject, resourcesOfBody } from './readJson.ts';
import { resourceLabel } from './resourceKey.ts';

export interface EntryExtensionCardinality extends ExtensionCardinalityRule {
  /** Judge only entries of this resourceType. */
  resourceType?: string;
}

/**
 * Each extension of every resource of a Bundle (or of a single resource) appears as often as its
 * cardinality allows: "1-1" exactly once, "0-1" at most once (document 1, 2.4 and 2.5: remittance
 * summaries and details). A second `processedDate` with another value leaves the reader unable to
 * tell which one holds. The URL prefix varies per target, so an extension is found by the last
 * segment of its URL; value types are left to the schema.
 */
export function entryExtensionCardinality(rule: EntryExtensionCardinality): Check {
  const what = rule.resourceType ?? 'resource';
  return {
    id: 'entry-extension-cardinality',
    summary: `Extensions of every ${what} respect their cardinality`,
    run: (x) => {
      const body = readObject(x);
      if (!body.ok) return body.finding;
      const resources = resourcesOfBody(body.value, rule.resourceType);
      if (!resources.ok) return resources.finding;
      if (resources.value.length === 0) return skip(`No ${what} to judge`);
      return cardinalityFinding(
        resources.value.map((r, i) => [resourceLabel(r, i), r] as const),
        rule,
      );
    },
  };
}
