import { fail, pass, show, skip, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readBundle } from './readJson.ts';
import { resourceKey, resourceLabel } from './resourceKey.ts';
import { referenceId, roleEntries, roleReferences } from './roleReferences.ts';

/** `entry.search.mode` as sent (undefined when absent). */
function modeOf(entry: Record<string, unknown>): unknown {
  return isRecord(entry.search) ? entry.search.mode : undefined;
}

/**
 * With `_include=practitioner:location`, every resource a role references is in the Bundle
 * (document 2, 2.1 and 4.11; DEC-D2-19): each `Practitioner/<id>` and `Location/<id>` that a
 * PractitionerRole entry references is an entry of that type and id, and every role entry has
 * `search.mode` `match`. References that do not name a Practitioner (resp. Location) id are not
 * judged. The modes of the other entries are only recorded (INFO). An empty Bundle passes; one
 * without role entries is skipped.
 */
export const includedResourcesPresent: Check = {
  id: 'included-resources-present',
  summary: 'Every Practitioner and Location a role references is included, and roles have search.mode match',
  run: (x) => {
    const read = readBundle(x);
    if (!read.ok) return read.finding;
    if (read.value.entries.length === 0) return pass('no entries');
    const present = new Set<string>();
    for (const resource of read.value.resources) {
      const key = resourceKey(resource);
      if (key !== undefined) present.add(key);
    }
    const roles = roleEntries(read.value);
    if (roles.length === 0) return skip('No PractitionerRole entry to judge');
    const missing = new Set<string>();
    const badModes: string[] = [];
    let references = 0;
    for (const role of roles) {
      const mode = modeOf(role.entry);
      if (mode !== 'match') badModes.push(`${show(mode, 30)} on ${resourceLabel(role.resource, role.index)}`);
      const keys = [
        ...roleReferences(role.resource, 'practitioner').filter((k) => referenceId(k, 'Practitioner') !== undefined),
        ...roleReferences(role.resource, 'location').filter((k) => referenceId(k, 'Location') !== undefined),
      ];
      for (const key of keys) {
        references += 1;
        if (!present.has(key)) missing.add(key);
      }
    }
    const otherModes = [
      ...new Set(
        read.value.entries
          .filter((e) => isRecord(e) && isRecord(e.resource) && e.resource.resourceType !== 'PractitionerRole')
          .map((e) => show(modeOf(e as Record<string, unknown>), 30)),
      ),
    ];
    const absent = [...missing];
    const evidence = {
      roles: roles.length,
      references,
      missing: absent.slice(0, 20),
      badModes: badModes.slice(0, 20),
      includedModes: otherModes,
    };
    if (absent.length > 0) {
      return fail(
        `Expected every referenced Practitioner and Location among the entries, received ${absent.length} missing: ${listBrief(absent, 3)}`,
        evidence,
      );
    }
    if (badModes.length > 0) {
      return fail(
        `Expected search.mode "match" on every PractitionerRole entry, received ${listBrief(badModes, 3)}`,
        evidence,
      );
    }
    return pass(
      `${roles.length} ${roles.length === 1 ? 'role' : 'roles'} with search.mode match, ${references} references all included`,
      evidence,
    );
  },
};
