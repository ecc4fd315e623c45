import { fail, pass, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { contractsOf } from './contract.ts';
import { readBundle } from './readJson.ts';

/** `Organization/<id>`, also at the end of an absolute reference. */
const ORGANIZATION = /(?:^|\/)Organization\/([^/]+)$/;

/**
 * The payor ids of a body's Contracts (document 3, 2.6): the `<payor>` of every `authority[]`
 * reference `Organization/<payor>`, in order and with repeats (contacts, `Person/<contact>`,
 * are not payor organisations and are left out). Takes a Bundle or a single Contract; never
 * throws.
 */
export function payorIdsOf(body: unknown): string[] {
  const ids: string[] = [];
  for (const contract of contractsOf(body)) {
    const authority = Array.isArray(contract.authority) ? contract.authority : [];
    for (const a of authority) {
      if (!isRecord(a) || typeof a.reference !== 'string') continue;
      const m = ORGANIZATION.exec(a.reference);
      if (m) ids.push(m[1]);
    }
  }
  return ids;
}

const RESERVED = ['slf', 'na'] as const;

/**
 * Listing a site's payors yields the reserved payors `slf` (Self-Pay) and `na` (All Others)
 * exactly once each (document 3, 2.6 and 4.5: they are created when missing; DEC-D3-12): among
 * the Bundle's Contracts, `Organization/slf` and `Organization/na` are each referenced by one
 * `authority` entry.
 */
export const payorsReservedOnce: Check = {
  id: 'payors-reserved-once',
  summary: 'The payor list holds slf and na exactly once each',
  run: (x) => {
    const read = readBundle(x);
    if (!read.ok) return read.finding;
    const ids = payorIdsOf(read.value.body);
    const counts = Object.fromEntries(RESERVED.map((r) => [r, ids.filter((id) => id === r).length])) as Record<(typeof RESERVED)[number], number>;
    const evidence = { contracts: contractsOf(read.value.body).length, payors: ids.length, slf: counts.slf, na: counts.na };
    if (RESERVED.every((r) => counts[r] === 1)) return pass(`slf and na once each among ${ids.length} payors`, evidence);
    const times = (n: number) => (n === 1 ? 'once' : `${n} times`);
    return fail(`Expected Organization/slf and Organization/na once each (DEC-D3-12), received slf ${times(counts.slf)} and na ${times(counts.na)}`, evidence);
  },
};
