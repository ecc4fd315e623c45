import type { Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { cardinalityFinding, type ExtensionCardinalityRule } from './extensionCount.ts';
import { readObject } from './readJson.ts';

export interface ExtensionCardinality extends ExtensionCardinalityRule {
  /** Where the extensions sit: the body itself, or its contained resources of this resourceType. */
  containedType?: string;
}

/**
 * Each extension appears as often as its cardinality allows (document 1, 2.2: "1-1" exactly once,
 * "0-1" at most once). The URL prefix varies per target, so an extension is found by the last
 * segment of its URL. Value types are left to the schema.
 */
export function extensionCardinality(rule: ExtensionCardinality): Check {
  const where = rule.containedType ? `contained ${rule.containedType}` : 'the resource';
  return {
    id: 'extension-cardinality',
    summary: `Extensions of ${where} respect their cardinality`,
    run: (x) => {
      const body = readObject(x);
      if (!body.ok) return body.finding;
      const holders: [string, Record<string, unknown>][] = rule.containedType
        ? (Array.isArray(body.value.contained) ? body.value.contained : [])
            .filter((c): c is Record<string, unknown> => isRecord(c) && c.resourceType === rule.containedType)
            .map((c, i) => [`contained ${rule.containedType}[${i}]`, c])
        : [['resource', body.value]];
      return cardinalityFinding(holders, rule);
    },
  };
}
