import { fail, pass, show, type Check } from '../core/check.ts';
import { describe, readObject } from './readJson.ts';

/**
 * The JSON object answered carries the named member as an empty list (document 3, 4.1: a site
 * without users is answered 200 with `users: []`).
 */
export function listMemberEmpty(member: string): Check {
  return {
    id: 'list-member-empty',
    summary: `The answer's ${member} is an empty list`,
    run: (x) => {
      const body = readObject(x);
      if (!body.ok) return body.finding;
      const v = body.value[member];
      if (Array.isArray(v) && v.length === 0) return pass(`${member}: []`);
      return fail(
        `Expected ${member}: [], received ${Array.isArray(v) ? `${v.length} items` : v === undefined ? `no ${member} in ${describe(body.value)}` : show(v, 60)}`,
      );
    },
  };
}
