import { fail, pass, show, skip, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { bundleView, isBundle, readObject, resourcesOfType } from './readJson.ts';
import { resourceLabel } from './resourceKey.ts';

/** The Claim extensions 2.8 names: both forms, then those of the single-bill form. */
export const BILL_CLAIM_EXTENSIONS = [
  'IsArchived',
  'ClaimStatus',
  'EventReference',
  'InvoiceReference',
  'DoubleInsurance',
  'ThirdParty',
  'PackageDeal',
  'Currency',
  'DiagnosisScheme',
  'ServiceSetting',
  'ServiceProvider',
  'ClaimSource',
  'SignatureRequired',
] as const;

const lastSegment = (url: string): string => url.slice(url.lastIndexOf('/') + 1);

/**
 * Every Claim extension a bill carries under one of the names of 2.8 has its URL under
 * `{ref_url}/extension/Claim/` (document 1, 2.8; DEC-D1-54): `.../extension/Claim/IsArchived`, not
 * `.../extension/IsArchived` or a bare `IsArchived`. The `{ref_url}` prefix varies per target, so
 * only the part from `/extension/Claim/` on is judged. Extensions of other names are not judged.
 * Applies to every Claim of a Bundle (search) or to a single Claim (get).
 */
export const billExtensionUrls: Check = {
  id: 'bill-extension-urls',
  summary: 'Bill extensions of the names of 2.8 have URLs under {ref_url}/extension/Claim/',
  run: (x) => {
    const body = readObject(x);
    if (!body.ok) return body.finding;
    let claims: Record<string, unknown>[];
    if (isBundle(body.value)) {
      const view = bundleView(body.value);
      if (!view.ok) return view.finding;
      claims = resourcesOfType(view.value.resources, 'Claim');
    } else {
      claims = resourcesOfType([body.value], 'Claim');
    }
    if (claims.length === 0) return skip('No Claim to judge');
    const names: readonly string[] = BILL_CLAIM_EXTENSIONS;
    const wrong: string[] = [];
    let judged = 0;
    claims.forEach((c, i) => {
      for (const e of Array.isArray(c.extension) ? c.extension : []) {
        if (!isRecord(e) || typeof e.url !== 'string') continue;
        const name = lastSegment(e.url);
        if (!names.includes(name)) continue;
        judged += 1;
        if (!new RegExp(`.+/extension/Claim/${name}$`).test(e.url))
          wrong.push(`${resourceLabel(c, i)} ${show(e.url, 80)}`);
      }
    });
    if (judged === 0) return skip('No Claim carries an extension named in 2.8');
    if (wrong.length === 0)
      return pass(
        `${judged} extension URLs under /extension/Claim/ on ${claims.length} ${claims.length === 1 ? 'Claim' : 'Claims'}`,
        { judged },
      );
    return fail(`Expected extension URLs {ref_url}/extension/Claim/<name>, received ${listBrief(wrong, 3)}`, {
      wrong: wrong.slice(0, 20),
    });
  },
};
