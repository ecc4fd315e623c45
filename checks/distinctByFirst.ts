import { fail, pass, skip, type Check } from '../core/check.ts';
import { listBrief } from './listBrief.ts';
import { roleReferences, type RoleReferenceField } from './roleReferences.ts';

export interface DistinctFirstInput {
  /** The PractitionerRole resources of the `distinct-by` result, all pages in order. */
  distinct: readonly Record<string, unknown>[];
  /** The PractitionerRole resources of the plain result (same filters and `_sort`), all pages in order. */
  plain: readonly Record<string, unknown>[];
  field: RoleReferenceField;
  /** The value `_sort` orders by (e.g. the distance from the `near` centre); equal keys are ties. */
  sortKey?: (role: Record<string, unknown>) => number | string | undefined;
}

const same = (a: number | string | undefined, b: number | string | undefined): boolean => {
  if (a === undefined || b === undefined) return false;
  if (typeof a === 'number' && typeof b === 'number')
    return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
  return String(a).toLowerCase() === String(b).toLowerCase();
};

/**
 * `distinct-by` returns "the first matching record" of each practitioner (resp. location)
 * (document 2, 4.11; DEC-D2-20, -55): when `_sort` defines the order, each role of the distinct
 * result is the first role of its practitioner (resp. location) in the plain result under the same
 * filters and sort, or ties with it on the sort key. Roles are identified by `id`; a key absent
 * from the plain result is not judged here (covers-all and distinct-by judge the sets).
 */
export const distinctByFirst: Check<DistinctFirstInput> = {
  id: 'distinct-by-first',
  summary: 'distinct-by keeps the first matching role of each practitioner (or location) in the sort order',
  run: ({ distinct, plain, field, sortKey }) => {
    const first = new Map<string, Record<string, unknown>>();
    for (const role of plain) for (const key of roleReferences(role, field)) if (!first.has(key)) first.set(key, role);
    const wrong: string[] = [];
    let judged = 0;
    for (const role of distinct) {
      for (const key of roleReferences(role, field)) {
        const expected = first.get(key);
        if (!expected) continue;
        judged += 1;
        if (expected.id !== undefined && expected.id === role.id) continue;
        if (sortKey && same(sortKey(role), sortKey(expected))) continue;
        wrong.push(`${key}: ${String(role.id)} instead of ${String(expected.id)}`);
      }
    }
    if (judged === 0) return skip(`No role of the distinct result shares a ${field} with the plain result`);
    const evidence = { judged, wrong: wrong.slice(0, 20) };
    if (wrong.length === 0) return pass(`${judged} ${field} keys keep their first role`, evidence);
    return fail(`Expected the first matching role of each ${field}, received ${listBrief(wrong, 3)}`, evidence);
  },
};
