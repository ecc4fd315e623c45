import { fail, pass, skip, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readObject } from './readJson.ts';

const URL_FORM = /\/organization\/ins\/([^/]+)\/\$control-parameters\/[^/?#]+$/;
const CONTROL = /\/\$control-parameters\/[^/?#]+$/;

const decoded = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/**
 * The control-parameter extensions name the insurer asked for (document 2, 2.3: URL
 * `{ref_url}/organization/ins/<insurerId>/$control-parameters/<name>`; 4.5): every extension whose
 * URL ends `/$control-parameters/<name>` carries `/organization/ins/<insurerId>/` with the
 * requested id (compared after percent-decoding, ignoring letter case, which the documents do not
 * fix). An answer with no control-parameter extension is skipped (control-parameters-complete
 * judges presence).
 */
export function controlParametersForInsurer(insurerId: string): Check {
  return {
    id: 'control-parameters-for-insurer',
    summary: 'Control-parameter extension URLs name the insurer asked for',
    run: (x) => {
      const body = readObject(x);
      if (!body.ok) return body.finding;
      const urls = (Array.isArray(body.value.extension) ? body.value.extension : [])
        .map((e) => (isRecord(e) && typeof e.url === 'string' ? e.url : undefined))
        .filter((u): u is string => u !== undefined && CONTROL.test(u));
      if (urls.length === 0) return skip('No control-parameter extension to judge');
      const wanted = insurerId.trim().toLowerCase();
      const wrong = urls.filter((u) => {
        const m = URL_FORM.exec(u);
        return !m || decoded(m[1]).trim().toLowerCase() !== wanted;
      });
      const evidence = { insurerId, urls: urls.slice(0, 10) };
      if (wrong.length === 0) return pass(`${urls.length} control-parameter URLs name insurer ${insurerId}`, evidence);
      return fail(
        `Expected every control-parameter URL to read .../organization/ins/${insurerId}/$control-parameters/<name>, received ${listBrief(wrong, 2)}`,
        evidence,
      );
    },
  };
}
