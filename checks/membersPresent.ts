import { fail, pass, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readJson } from './readJson.ts';

/**
 * Where each path of a body is missing. A path is dotted member names; `name[]` steps into every
 * item of the array `name` (a leading `[]` into every item of a top-level array). A member is
 * present when it is neither absent nor null; an empty array has nothing to look into.
 */
export function missingMembers(body: unknown, path: string): string[] {
  const steps = path.split('.');
  const walk = (value: unknown, at: number, where: string): string[] => {
    if (at === steps.length) return [];
    const step = steps[at];
    const many = step.endsWith('[]');
    const name = many ? step.slice(0, -2) : step;
    let member: unknown = value;
    let here = where;
    if (name !== '') {
      if (!isRecord(value)) return [`${where || '/'} is not an object`];
      member = Object.hasOwn(value, name) ? value[name] : undefined;
      here = where ? `${where}.${name}` : name;
      if (member === undefined || member === null) return [here];
    }
    if (!many) return walk(member, at + 1, here);
    if (!Array.isArray(member)) return [`${here || '/'} is not a list`];
    return member.flatMap((item, i) => walk(item, at + 1, `${here}[${i}]`));
  };
  return walk(body, 0, '');
}

/**
 * Every named member is present (documents 2 and 3, section 2: members named without a
 * cardinality, whose presence is SHOULD or MUST by decision, e.g. DEC-D2-42, DEC-D3-22,
 * DEC-D3-29). Types are left to the schema; this check judges presence only.
 */
export function membersPresent(paths: readonly string[]): Check {
  return {
    id: 'members-present',
    summary: `Every named member is present: ${paths.join(', ')}`,
    run: (x) => {
      const json = readJson(x);
      if (!json.ok) return json.finding;
      const missing = paths.flatMap((p) => missingMembers(json.value, p));
      if (missing.length === 0)
        return pass(`${paths.length} named ${paths.length === 1 ? 'member' : 'members'} present`, {
          paths: [...paths],
        });
      return fail(`Expected every named member present, received ${missing.length} missing: ${listBrief(missing, 5)}`, {
        missing: missing.slice(0, 20),
      });
    },
  };
}
