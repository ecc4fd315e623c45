import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { describe, readObject } from './readJson.ts';

/**
 * Equality by meaning of two JSON values: objects by their members in any order, a member that is
 * null counted as absent (an optional member written null, DEC-D3-23), arrays in order, members
 * named in `ignore` left out at every depth. Returns the first path that differs, or undefined.
 */
export function differenceByMeaning(
  a: unknown,
  b: unknown,
  ignore: ReadonlySet<string> = new Set(),
  path = '',
): string | undefined {
  if (a === b) return undefined;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return path || '(root)';
    for (let i = 0; i < a.length; i++) {
      const d = differenceByMeaning(a[i], b[i], ignore, `${path}[${i}]`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => !ignore.has(k)));
    for (const k of keys) {
      const va = a[k] === null ? undefined : a[k];
      const vb = b[k] === null ? undefined : b[k];
      const d = differenceByMeaning(va, vb, ignore, path ? `${path}.${k}` : k);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  return path || '(root)';
}

/** Members a server may change on its own without changing the resource's meaning (FHIR `meta`). */
const VOLATILE = new Set(['meta']);

/**
 * The resource read after a refused change is the one read before it (document 3, 3: an inactive
 * patient cannot be updated; DEC-D3-08 "the patient unchanged"), compared by meaning: member order,
 * null versus absent and `meta` (version and time stamps) are not judged.
 */
export function resourceUnchanged(before: unknown): Check {
  return {
    id: 'resource-unchanged',
    summary: 'A refused change leaves the resource as it was',
    run: (x) => {
      const after = readObject(x);
      if (!after.ok) return after.finding;
      if (!isRecord(before))
        return fail(`Expected a resource read before the change to compare with, received ${describe(before)}`);
      const d = differenceByMeaning(before, after.value, VOLATILE);
      if (d === undefined)
        return pass(
          `${String(after.value.resourceType ?? 'resource')} ${String(after.value.id ?? '')} unchanged`.trim(),
        );
      const at = (v: Record<string, unknown>) =>
        d
          .split(/\.|\[/)
          .reduce<unknown>(
            (o, k) => (isRecord(o) ? o[k] : Array.isArray(o) ? o[Number(k.replace(']', ''))] : undefined),
            v,
          );
      return fail(
        `Expected the resource unchanged after the refused change, received ${d} ${show(at(before), 40)} before and ${show(at(after.value), 40)} after`,
        { differsAt: d },
      );
    },
  };
}
