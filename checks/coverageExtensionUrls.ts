import { fail, pass, skip, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readObject } from './readJson.ts';

/** The extension names of document 1, 2.2 (Coverage and its contained Patient). */
const DOCUMENTED = [
  'groupId',
  'policyExpired',
  'expiryDate',
  'coverType',
  'doNotReject',
  'benefitLimit',
  'benefitUsed',
  'benefitUsedAsOf',
  'memberExcess',
  'memberExcessType',
  'excessUsed',
  'excessUsedAsOf',
  'memberCoPayment',
  'memberCoPaymentType',
  'currency',
  'insuranceSchemePlan',
  'genderIdentity',
  'otherInitials',
];
const EXCEPTION = 'insuranceSchemePlan';

type Rec = Record<string, unknown>;
const extensionsOf = (r: Rec): Rec[] => (Array.isArray(r.extension) ? r.extension.filter(isRecord) : []);

/**
 * Coverage extension URLs have the form `{ref_url}/extension/<name>`, the one exception being
 * `{ref_url}/insuranceSchemePlan` (document 1, 2.2), with one `{ref_url}` for all of them. The
 * value of `{ref_url}` is not given, so it is read off the URLs: every documented extension of
 * the Coverage and of its contained Patient must agree on it. Extensions of other names are left out.
 */
export const coverageExtensionUrls: Check = {
  id: 'coverage-extension-urls',
  summary: 'Coverage extension URLs are {ref_url}/extension/<name>, insuranceSchemePlan {ref_url}/insuranceSchemePlan',
  run: (x) => {
    const read = readObject(x);
    if (!read.ok) return read.finding;
    const coverage = read.value;
    const patients = (Array.isArray(coverage.contained) ? coverage.contained.filter(isRecord) : []).filter(
      (c) => c.resourceType === 'Patient',
    );
    const urls = [coverage, ...patients]
      .flatMap(extensionsOf)
      .map((e) => e.url)
      .filter((u): u is string => typeof u === 'string');
    const malformed: string[] = [];
    const bases = new Map<string, string[]>();
    let judged = 0;
    for (const url of urls) {
      const name = url.slice(url.lastIndexOf('/') + 1);
      if (!DOCUMENTED.includes(name)) continue;
      judged += 1;
      const parent = url.slice(0, url.length - name.length - 1);
      let base: string | undefined;
      if (name === EXCEPTION) base = parent;
      else if (parent.endsWith('/extension')) base = parent.slice(0, -'/extension'.length);
      if (base === undefined || base === '') {
        malformed.push(url);
        continue;
      }
      bases.set(base, [...(bases.get(base) ?? []), name]);
    }
    if (judged === 0) return skip('No extension of a documented name to judge');
    if (malformed.length > 0)
      return fail(`Expected {ref_url}/extension/<name>, received ${listBrief(malformed, 3)}`, { malformed });
    if (bases.size > 1) {
      const seen = [...bases.entries()].map(([b, names]) => `${b} (${listBrief(names, 2)})`);
      return fail(
        `Expected one {ref_url} for every extension (and {ref_url}/insuranceSchemePlan), received ${bases.size}: ${listBrief(seen, 3)}`,
        { bases: [...bases.keys()] },
      );
    }
    return pass(`${judged} extension URLs under ${[...bases.keys()][0]}`, { refUrl: [...bases.keys()][0], judged });
  },
};
