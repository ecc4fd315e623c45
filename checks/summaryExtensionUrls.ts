import { fail, pass, skip, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readBundle } from './readJson.ts';

/** The extension names of document 1, 2.4 (remittance summary). */
const DOCUMENTED = [
  'paymentMethod',
  'sortCode',
  'accountNumber',
  'processedDate',
  'amountDue',
  'broughtForwarded',
  'carriedForwarded',
  'totalInvoiced',
  'totalShortfall',
  'totalInvoices',
  'isExported',
];

/**
 * Remittance summary extension URLs have the form `{clearing_ext_url}/<name>` (document 1, 2.4),
 * one `{clearing_ext_url}` for all of them. Its value is not given, so it is read off the URLs:
 * every documented extension of every PaymentReconciliation of the answer must agree on it.
 * Extensions of other names are left out.
 */
export const summaryExtensionUrls: Check = {
  id: 'summary-extension-urls',
  summary: 'Remittance summary extension URLs are {clearing_ext_url}/<name> with one {clearing_ext_url}',
  run: (x) => {
    const read = readBundle(x);
    if (!read.ok) return read.finding;
    const bases = new Map<string, string[]>();
    const malformed: string[] = [];
    let judged = 0;
    for (const r of read.value.resources.filter((res) => res.resourceType === 'PaymentReconciliation')) {
      for (const e of Array.isArray(r.extension) ? r.extension.filter(isRecord) : []) {
        if (typeof e.url !== 'string') continue;
        const name = e.url.slice(e.url.lastIndexOf('/') + 1);
        if (!DOCUMENTED.includes(name)) continue;
        judged += 1;
        const base = e.url.includes('/') ? e.url.slice(0, e.url.length - name.length - 1) : '';
        if (base === '') malformed.push(e.url);
        else bases.set(base, [...new Set([...(bases.get(base) ?? []), name])]);
      }
    }
    if (judged === 0) return skip('No summary extension of a documented name to judge');
    if (malformed.length > 0)
      return fail(`Expected {clearing_ext_url}/<name>, received ${listBrief(malformed, 3)}`, { malformed });
    if (bases.size > 1) {
      const seen = [...bases.entries()].map(([b, names]) => `${b} (${listBrief(names, 2)})`);
      return fail(
        `Expected one {clearing_ext_url} for every extension, received ${bases.size}: ${listBrief(seen, 3)}`,
        {
          bases: [...bases.keys()],
        },
      );
    }
    const [base] = bases.keys();
    return pass(`${judged} extension URLs under ${base}`, { clearingExtUrl: base, judged });
  },
};
