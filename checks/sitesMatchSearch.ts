import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readSites, siteIdOf } from './sites.ts';

/**
 * Every site the `search` of list authorised sites v2 returns matches it (document 3, 4.1:
 * "site id or name"; DEC-D3-05): its `id` equals the text or its `name` contains it, both
 * ignoring letter case. Sites that are not objects, or have neither, do not match. An empty
 * list passes.
 */
export function sitesMatchSearch(search: string): Check {
  const needle = search.toLowerCase();
  return {
    id: 'sites-match-search',
    summary: `Every listed site has id ${show(search)} or a name containing it`,
    run: (x) => {
      const read = readSites(x);
      if (!read.ok) return read.finding;
      const { sites } = read.value;
      if (sites.length === 0) return pass('no sites');
      const offending: string[] = [];
      sites.forEach((site, index) => {
        const id = siteIdOf(site);
        const name = isRecord(site) && typeof site.name === 'string' ? site.name : undefined;
        if (id?.toLowerCase() === needle || name?.toLowerCase().includes(needle)) return;
        offending.push(`${id ?? `site ${index + 1}`} ${name === undefined ? '(no name)' : show(name, 40)}`);
      });
      const evidence = { search, sites: sites.length, offending: offending.length };
      if (offending.length === 0)
        return pass(`${sites.length} ${sites.length === 1 ? 'site matches' : 'sites match'} ${show(search)}`, evidence);
      return fail(
        `Expected every site to have id ${show(search)} or a name containing it (ignoring case), received ${offending.length} of ${sites.length} that do not: ${listBrief(offending, 3)}`,
        { ...evidence, sample: offending.slice(0, 20) },
      );
    },
  };
}
