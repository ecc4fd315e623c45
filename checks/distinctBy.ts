import { fail, pass, skip, type Check } from '../core/check.ts';
import type { RespondedExchange } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readBundle } from './readJson.ts';
import { resourceLabel } from './resourceKey.ts';
import { roleEntries, roleReferences, type RoleReferenceField } from './roleReferences.ts';

/**
 * `distinct-by` returns one role per practitioner (resp. location) (document 2, 4.11;
 * DEC-D2-20): no two PractitionerRole entries share the practitioner reference (resp. any
 * location reference). References are compared as `Practitioner/<id>` / `Location/<id>`
 * (see roleReferences). Roles without such a reference are not judged; an empty Bundle passes
 * and one where no role could be judged is skipped. Given all pages of a paged result (DEC-D2-36),
 * no two roles on any pages share the reference.
 */
export function distinctBy(field: RoleReferenceField): Check<RespondedExchange | readonly RespondedExchange[]> {
  return {
    id: 'distinct-by',
    summary: `No two roles share a ${field} reference`,
    run: (subject) => {
      const pages: readonly RespondedExchange[] = Array.isArray(subject) ? subject : [subject as RespondedExchange];
      const views = [];
      for (const x of pages) {
        const read = readBundle(x);
        if (!read.ok) return read.finding;
        views.push(read.value);
      }
      if (views.every((v) => v.entries.length === 0)) return pass('no entries');
      const firstRole = new Map<string, string>();
      const shared: string[] = [];
      let judged = 0;
      for (const [page, view] of views.entries())
        for (const role of roleEntries(view)) {
          const keys = roleReferences(role.resource, field);
          if (keys.length === 0) continue;
          judged += 1;
          const label = `${resourceLabel(role.resource, role.index)}${views.length > 1 ? ` (page ${page + 1})` : ''}`;
          for (const key of keys) {
            const earlier = firstRole.get(key);
            if (earlier === undefined) firstRole.set(key, label);
            else shared.push(`${key} on ${earlier} and ${label}`);
          }
        }
      if (judged === 0) return skip(`No PractitionerRole entry carries a ${field} reference`);
      const evidence = { judged, distinct: firstRole.size, shared: shared.slice(0, 20) };
      if (shared.length === 0)
        return pass(
          `${judged} ${judged === 1 ? 'role' : 'roles'}, ${firstRole.size} distinct ${field} references`,
          evidence,
        );
      return fail(`Expected no two roles with the same ${field} reference, received ${listBrief(shared, 3)}`, evidence);
    },
  };
}
