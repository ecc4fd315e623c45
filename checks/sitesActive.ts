import { fail, pass, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { describe, readJson } from './readJson.ts';

export interface SitesActiveOptions {
  /** Where the sites are: `[]` (a bare array, list authorised sites v1) or a member holding a list (`sites`). */
  list: '[]' | string;
  /** The member naming a site (`id`, `siteId`). */
  idMember: string;
  /** Whether every site must carry a `status` (v1 Site objects) or only those that do (user-details entries, DEC-D3-27). */
  statusRequired: boolean;
  /** A site the config names as inactive, which must not be listed. */
  inactiveId?: string;
}

const isActive = (status: unknown): boolean => typeof status === 'string' && status.trim().toUpperCase() === 'ACTIVE';

/**
 * Only active sites are listed (document 3, 4.1 "active sites of the user", 2.2 user details
 * "only active sites"): a site's `status` means active when it is `ACTIVE`, letter case ignored
 * (DEC-D3-26); a site named inactive by the config is not listed (DEC-D3-27).
 */
export function sitesActive(o: SitesActiveOptions): Check {
  return {
    id: 'sites-active',
    summary: 'Only active sites are listed',
    run: (x) => {
      const json = readJson(x);
      if (!json.ok) return json.finding;
      const list = o.list === '[]' ? json.value : isRecord(json.value) ? json.value[o.list] : undefined;
      if (!Array.isArray(list))
        return fail(`Expected a list of sites${o.list === '[]' ? '' : ` in ${o.list}`}, received ${describe(list)}`);
      const sites = list.filter(isRecord);
      const idOf = (s: Record<string, unknown>) => String(s[o.idMember]);
      const wrong = sites.filter(
        (s) =>
          (o.inactiveId !== undefined && idOf(s) === o.inactiveId) ||
          ((o.statusRequired || s.status !== undefined) && !isActive(s.status)),
      );
      const statuses = [...new Set(sites.map((s) => String(s.status)))];
      const evidence = { sites: sites.length, statuses, inactive: wrong.length };
      if (wrong.length === 0)
        return pass(
          `${sites.length} sites, none inactive${o.inactiveId ? ` (${o.inactiveId} not listed)` : ''}`,
          evidence,
        );
      return fail(
        `Expected only active sites, received ${wrong.length} inactive (${listBrief(wrong.map((s) => `${idOf(s)} ${String(s.status)}`))})`,
        evidence,
      );
    },
  };
}
