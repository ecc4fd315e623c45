import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord, jsonBody } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { bundleView, isBundle, readBundle } from './readJson.ts';

const LINK = /\/claim\/([^/]+)\/encounter\/([^/]+)$/;

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Encounter ids listed in a Claim's `item[].encounter[].id`. */
function encountersOf(claim: Record<string, unknown>): Set<string> {
  const ids = new Set<string>();
  if (!Array.isArray(claim.item)) return ids;
  for (const item of claim.item) {
    if (!isRecord(item) || !Array.isArray(item.encounter)) continue;
    for (const e of item.encounter) if (isRecord(e) && typeof e.id === 'string') ids.add(e.id);
  }
  return ids;
}

function hasEncounters(body: unknown): boolean {
  if (!isBundle(body)) return false;
  const view = bundleView(body);
  return view.ok && view.value.resources.some((r) => r.resourceType === 'Encounter');
}

/**
 * Hospital-claim bundles link each Encounter to its Claim (document 1, 2.7): the Encounter
 * entry's `fullUrl` ends `/claim/<claim_id>/encounter/<encounter_id>`, the encounter id is the
 * Encounter's `id`, and a Claim of the bundle with that id lists it in `item[].encounter[].id`.
 * Applies only to bundles with Encounter entries.
 */
export const encounterLinksClaim: Check = {
  id: 'encounter-links-claim',
  summary: 'Each Encounter entry links to a Claim of the bundle through its fullUrl',
  appliesTo: (x) => hasEncounters(jsonBody(x)),
  run: (x) => {
    const read = readBundle(x);
    if (!read.ok) return read.finding;
    const claims = new Map<string, Set<string>>();
    for (const r of read.value.resources) {
      if (r.resourceType === 'Claim' && typeof r.id === 'string') claims.set(r.id, encountersOf(r));
    }
    const problems: string[] = [];
    let encounters = 0;
    read.value.entries.forEach((entry, index) => {
      if (!isRecord(entry) || !isRecord(entry.resource) || entry.resource.resourceType !== 'Encounter') return;
      encounters += 1;
      const eid = entry.resource.id;
      const label = typeof eid === 'string' ? `Encounter ${eid.slice(0, 40)}` : `Encounter at entry ${index + 1}`;
      if (typeof eid !== 'string' || eid === '') {
        problems.push(`${label} has no id`);
        return;
      }
      const fullUrl = entry.fullUrl;
      const m = typeof fullUrl === 'string' ? LINK.exec(fullUrl) : null;
      if (m === null) {
        problems.push(`${label} fullUrl ${show(fullUrl, 80)}`);
        return;
      }
      const [, rawCid, rawEid] = m;
      if (rawEid !== eid && decoded(rawEid) !== eid) {
        problems.push(`${label} fullUrl names encounter ${show(decoded(rawEid), 40)}`);
        return;
      }
      const cid = claims.has(rawCid) ? rawCid : decoded(rawCid);
      const listed = claims.get(cid);
      if (listed === undefined) problems.push(`${label} fullUrl names claim ${show(cid, 40)}, not in the bundle`);
      else if (!listed.has(eid))
        problems.push(`${label}: Claim ${show(cid, 40)} does not list it in item[].encounter[]`);
    });
    if (problems.length === 0) return pass(`${encounters} Encounters linked to their Claims`, { encounters });
    return fail(
      `Expected each Encounter fullUrl to end /claim/<claim id>/encounter/<its id> with that Claim listing it, received ${listBrief(problems, 3)}`,
      { problems: problems.slice(0, 20) },
    );
  },
};
