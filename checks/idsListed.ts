import { fail, pass, type Check } from '../core/check.ts';
import { listBrief } from './listBrief.ts';

export interface ListedIds {
  /** The ids a listing gave (over all of its pages), compared as text. */
  ids: readonly string[];
}

/**
 * Each wanted id is listed (or, with `listed: false`, none is): the run's site among the
 * authorised sites (DEC-D3-25), a configured child site on a page of version 2, every version-1
 * site in version 2, a payor created (or deleted) in the site's payor listing (DEC-D3-58). The
 * listing is collected over all its pages by the suite, so order and paging are not judged.
 */
export function idsListed(what: string, wanted: readonly string[], listed = true): Check<ListedIds> {
  return {
    id: 'ids-listed',
    summary: `${what}: ${listBrief([...wanted])} ${listed ? 'listed' : 'not listed'}`,
    run: ({ ids }) => {
      const have = new Set(ids.map(String));
      const wrong = wanted.filter((w) => have.has(w) !== listed);
      const evidence = { listed: have.size, wanted: wanted.length, wrong: wrong.length };
      if (wrong.length === 0)
        return pass(
          `${what}: ${listBrief([...wanted])} ${listed ? 'listed' : 'not listed'} among ${have.size}`,
          evidence,
        );
      return fail(
        `Expected ${what}: ${listBrief([...wanted])} ${listed ? 'listed' : 'gone'}, received ${have.size} ids ${listed ? 'without' : 'still with'} ${listBrief(wrong)}`,
        evidence,
      );
    },
  };
}
