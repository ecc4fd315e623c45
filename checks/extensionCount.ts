import { fail, pass, type Finding } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';

/**
 * How often a resource carries an extension. The URL prefix varies per target, so an extension is
 * found by its whole URL or by the last segment of it (`.../processedDate`).
 */
export function extensionCount(resource: Record<string, unknown>, name: string): number {
  return Array.isArray(resource.extension)
    ? resource.extension.filter(
        (e) => isRecord(e) && typeof e.url === 'string' && (e.url === name || e.url.endsWith(`/${name}`)),
      ).length
    : 0;
}

/** Extensions by cardinality: "1-1" exactly once, "0-1" at most once. */
export interface ExtensionCardinalityRule {
  /** Extensions of cardinality 1-1, found by the last segment of their URL. */
  exactlyOne?: readonly string[];
  /** Extensions of cardinality 0-1. */
  atMostOne?: readonly string[];
}

/** The verdict on labelled resources: each named extension within its cardinality. Value types are left to the schema. */
export function cardinalityFinding(
  holders: readonly (readonly [string, Record<string, unknown>])[],
  rule: ExtensionCardinalityRule,
): Finding {
  const wrong: string[] = [];
  for (const [label, r] of holders) {
    for (const n of rule.exactlyOne ?? []) {
      const k = extensionCount(r, n);
      if (k !== 1) wrong.push(`${label} ${n} ${k} times (1-1)`);
    }
    for (const n of rule.atMostOne ?? []) {
      const k = extensionCount(r, n);
      if (k > 1) wrong.push(`${label} ${n} ${k} times (0-1)`);
    }
  }
  const named = (rule.exactlyOne?.length ?? 0) + (rule.atMostOne?.length ?? 0);
  if (wrong.length === 0)
    return pass(
      `${named} extensions within their cardinality on ${holders.length} ${holders.length === 1 ? 'resource' : 'resources'}`,
      { resources: holders.length },
    );
  return fail(`Expected each extension within its cardinality, received ${listBrief(wrong, 4)}`, {
    wrong: wrong.slice(0, 20),
  });
}
