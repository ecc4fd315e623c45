import { fail, pass, type Check } from '../core/check.ts';
import type { RespondedExchange } from '../core/exchange.ts';
import { contractNamesPayor, contractsOf } from './contract.ts';
import { readBundle } from './readJson.ts';

const RESERVED = ['slf', 'na'] as const;

/** The pages of one payor listing (the suite walks them all: the reserved payors may be on any page). */
export interface PayorPages {
  pages: readonly RespondedExchange[];
}

/**
 * Listing a site's payors yields the reserved payors `slf` (Self-Pay) and `na` (All Others)
 * exactly once each (document 3, 2.6 and 4.5: they are created when missing; DEC-D3-12), over all
 * the pages of the listing: among its Contracts, one names `slf` and one names `na` as an insurer
 * payor (DEC-D3-37: an `authority` reference `Organization/<id>`, an asset context `I/<id>` or
 * `Payor/I-<id>`, or the Contract id; contacts, `Person/<id>`, are not insurer payors). Takes one
 * exchange (a one-page listing) or the pages of a walk.
 */
export const payorsReservedOnce: Check<RespondedExchange | PayorPages> = {
  id: 'payors-reserved-once',
  summary: 'The payor list holds slf and na exactly once each',
  run: (subject) => {
    const pages = 'pages' in subject ? subject.pages : [subject];
    const contracts: Record<string, unknown>[] = [];
    for (const page of pages) {
      const read = readBundle(page);
      if (!read.ok) return read.finding;
      contracts.push(...contractsOf(read.value.body));
    }
    const counts = Object.fromEntries(
      RESERVED.map((r) => [r, contracts.filter((c) => contractNamesPayor(c, r, { contacts: false })).length]),
    ) as Record<(typeof RESERVED)[number], number>;
    const evidence = { pages: pages.length, contracts: contracts.length, slf: counts.slf, na: counts.na };
    if (RESERVED.every((r) => counts[r] === 1))
      return pass(
        `slf and na once each among ${contracts.length} payor Contracts${pages.length > 1 ? ` over ${pages.length} pages` : ''}`,
        evidence,
      );
    const times = (n: number) => (n === 1 ? 'once' : `${n} times`);
    return fail(
      `Expected Organization/slf and Organization/na once each (DEC-D3-12), received slf ${times(counts.slf)} and na ${times(counts.na)}${pages.length > 1 ? ` over ${pages.length} pages` : ''}`,
      evidence,
    );
  },
};
