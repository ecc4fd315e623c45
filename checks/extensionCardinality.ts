import { fail, pass, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readObject } from './readJson.ts';

export interface ExtensionCardinality {
  /** Extensions of cardinality 1-1 (found by the last segment of their URL). */
  exactlyOne?: readonly string[];
  /** Extensions of cardinality 0-1. */
  atMostOne?: readonly string[];
  /** Where the extensions sit: the body itself, or its contained resources of this resourceType. */
  containedType?: string;
}

function count(resource: Record<string, unknown>, name: string): number {
  return Array.isArray(resource.extension)
    ? resource.extension.filter(
        (e) => isRecord(e) && typeof e.url === 'string' && (e.url === name || e.url.endsWith(`/${name}`)),
      ).length
    : 0;
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
      const wrong: string[] = [];
      for (const [label, r] of holders) {
        for (const n of rule.exactlyOne ?? []) {
          const k = count(r, n);
          if (k !== 1) wrong.push(`${label} ${n} ${k} times (1-1)`);
        }
        for (const n of rule.atMostOne ?? []) {
          const k = count(r, n);
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
    },
  };
}
