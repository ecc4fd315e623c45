import { fail, pass, type Check } from '../core/check.ts';
import { listBrief } from './listBrief.ts';
import { readBundle } from './readJson.ts';
import { resourceLabel } from './resourceKey.ts';

/**
 * Without `_include`, a role search returns roles only (document 2, 4.11; DEC-D2-19, used at
 * SHOULD): no Practitioner or Location entries.
 */
export const noIncludedResources: Check = {
  id: 'no-included-resources',
  summary: 'A role search without _include has no Practitioner or Location entries',
  run: (x) => {
    const read = readBundle(x);
    if (!read.ok) return read.finding;
    const included = read.value.resources
      .map((resource, index) => ({ resource, index }))
      .filter(({ resource }) => resource.resourceType === 'Practitioner' || resource.resourceType === 'Location')
      .map(({ resource, index }) => resourceLabel(resource, index));
    const n = read.value.entries.length;
    if (included.length === 0)
      return pass(n === 0 ? 'no entries' : `${n} ${n === 1 ? 'entry' : 'entries'}, none Practitioner or Location`);
    return fail(
      `Expected no Practitioner or Location entries without _include, received ${included.length}: ${listBrief(included, 3)}`,
      {
        included: included.slice(0, 20),
      },
    );
  },
};
