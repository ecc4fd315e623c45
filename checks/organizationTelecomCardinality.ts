import { fail, pass, skip, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readObject } from './readJson.ts';

/** The ContactPoint systems 2.2 gives cardinality 0-1 on the insurer Organization. */
const AT_MOST_ONE = ['email', 'phone'] as const;

/**
 * Every Organization of the body (the body itself or its contained Organizations) carries at most
 * one `telecom` entry with system `email` and at most one with system `phone` (document 1, 2.2:
 * Email and Phone are ContactPoints of cardinality 0-1). Letter case of the system is ignored.
 */
export const organizationTelecomCardinality: Check = {
  id: 'organization-telecom-cardinality',
  summary: 'An Organization carries at most one email and one phone telecom',
  run: (x) => {
    const body = readObject(x);
    if (!body.ok) return body.finding;
    const orgs: [string, Record<string, unknown>][] = [];
    if (body.value.resourceType === 'Organization') orgs.push(['Organization', body.value]);
    (Array.isArray(body.value.contained) ? body.value.contained : []).forEach((c, i) => {
      if (isRecord(c) && c.resourceType === 'Organization')
        orgs.push([`contained Organization ${typeof c.id === 'string' ? c.id : i + 1}`, c]);
    });
    if (orgs.length === 0) return skip('No Organization to judge');
    const wrong: string[] = [];
    for (const [label, o] of orgs) {
      const telecom = Array.isArray(o.telecom) ? o.telecom.filter(isRecord) : [];
      for (const system of AT_MOST_ONE) {
        const n = telecom.filter((t) => typeof t.system === 'string' && t.system.toLowerCase() === system).length;
        if (n > 1) wrong.push(`${label} ${system} ${n} times (0-1)`);
      }
    }
    if (wrong.length === 0)
      return pass(
        `${orgs.length} ${orgs.length === 1 ? 'Organization' : 'Organizations'} with at most one email and one phone`,
        { organizations: orgs.length },
      );
    return fail(`Expected at most one email and one phone per Organization, received ${listBrief(wrong, 3)}`, {
      wrong,
    });
  },
};
