import { fail, pass, skip, type Check } from '../core/check.ts';
import { extensionCount } from './extensionCount.ts';
import { listBrief } from './listBrief.ts';
import { isBundle, readObject, resourcesOfBody } from './readJson.ts';
import { resourceLabel } from './resourceKey.ts';

/** Whether a resource has an extension whose URL is `name` or ends with `/<name>`. */
const hasExtension = (resource: Record<string, unknown>, name: string): boolean => extensionCount(resource, name) > 0;

/**
 * Every resource carries each named extension (documents 1 and 2, section 2: extensions named
 * without a cardinality, whose presence is SHOULD by decision, e.g. DEC-D1-54, DEC-D2-42). The
 * extension URL prefix varies per target, so an extension is found by the last segment of its
 * URL. Applies to each entry of a Bundle (optionally of one resourceType) or to a single resource.
 * Values are left to the schema.
 */
export function extensionsPresent(names: readonly string[], options: { resourceType?: string } = {}): Check {
  return {
    id: 'extensions-present',
    summary: `Every resource carries the extensions ${names.join(', ')}`,
    run: (x) => {
      const body = readObject(x);
      if (!body.ok) return body.finding;
      const read = resourcesOfBody(body.value, options.resourceType);
      if (!read.ok) return read.finding;
      const resources = read.value;
      if (resources.length === 0) {
        if (!isBundle(body.value)) return skip(`The body is not a ${options.resourceType}`);
        return skip(
          options.resourceType === undefined ? 'No entry to judge' : `No ${options.resourceType} entry to judge`,
        );
      }
      const missing: string[] = [];
      resources.forEach((r, i) => {
        for (const n of names) if (!hasExtension(r, n)) missing.push(`${resourceLabel(r, i)} ${n}`);
      });
      if (missing.length === 0)
        return pass(
          `${resources.length} ${resources.length === 1 ? 'resource carries' : 'resources carry'} all ${names.length} extensions`,
          { resources: resources.length, names: [...names] },
        );
      return fail(
        `Expected every resource to carry ${names.join(', ')}, received ${missing.length} missing: ${listBrief(missing, 4)}`,
        { missing: missing.slice(0, 20) },
      );
    },
  };
}
