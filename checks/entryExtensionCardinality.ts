import { fail, pass, skip, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { bundleView, isBundle, readObject, resourcesOfType } from './readJson.ts';
import { resourceLabel } from './resourceKey.ts';

export interface EntryExtensionCardinality {
  /** Extensions of cardinality 1-1, found by the last segment of their URL. */
  exactlyOne?: readonly string[];
  /** Extensions of cardinality 0-1. */
  atMostOne?: readonly string[];
  /** Judge only entries of this resourceType. */
  resourceType?: string;
}

function count(resource: Record<string, unknown>, name: string): number {
  return Array.isArray(resource.extension)
    ? resource.extension.filter(
        (e) => isRecord(e) && typeof e.url === 'string' && (e.url === name || e.url.endsWith(`/${name}`)),
      ).length
    : 0;
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
      let resources: Record<string, unknown>[];
      if (isBundle(body.value)) {
        const view = bundleView(body.value);
        if (!view.ok) return view.finding;
        resources = resourcesOfType(view.value.resources, rule.resourceType);
      } else {
        resources = resourcesOfType([body.value], rule.resourceType);
      }
      if (resources.length === 0) return skip(`No ${what} to judge`);
      const wrong: string[] = [];
      resources.forEach((r, i) => {
        for (const n of rule.exactlyOne ?? []) {
          const k = count(r, n);
          if (k !== 1) wrong.push(`${resourceLabel(r, i)} ${n} ${k} times (1-1)`);
        }
        for (const n of rule.atMostOne ?? []) {
          const k = count(r, n);
          if (k > 1) wrong.push(`${resourceLabel(r, i)} ${n} ${k} times (0-1)`);
        }
      });
      const named = (rule.exactlyOne?.length ?? 0) + (rule.atMostOne?.length ?? 0);
      if (wrong.length === 0)
        return pass(
          `${named} extensions within their cardinality on ${resources.length} ${resources.length === 1 ? 'resource' : 'resources'}`,
          { resources: resources.length },
        );
      return fail(`Expected each extension within its cardinality, received ${listBrief(wrong, 4)}`, {
        wrong: wrong.slice(0, 20),
      });
    },
  };
}
