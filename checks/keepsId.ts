import { fail, pass, type Check } from '../core/check.ts';
import { describe, readObject } from './readJson.ts';

/**
 * An update answers the resource under the id it already had (document 3, 4.5: posting a payor
 * Contract again with its `id` updates it; DEC-D3-58), compared as text.
 */
export function keepsId(id: string): Check {
  return {
    id: 'keeps-id',
    summary: `The updated resource keeps its id ${id}`,
    run: (x) => {
      const body = readObject(x);
      if (!body.ok) return body.finding;
      const got = body.value.id;
      if ((typeof got === 'string' || typeof got === 'number') && String(got) === id) return pass(`id ${id}`);
      return fail(`Expected id ${id}, received ${describe(got)}`);
    },
  };
}
