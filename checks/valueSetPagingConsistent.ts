import { fail, pass, show, skip, type Check } from '../core/check.ts';
import type { RespondedExchange } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { receivedPart } from './readJson.ts';
import { codeKey, readValueSet } from './valueSet.ts';

export interface ValueSetWalk {
  /** Pages 1..n of one code-set query, in order, each requested with `count`. */
  pages: readonly RespondedExchange[];
  /** The `count` every page was requested with. */
  count: number;
  /** The walk reached the end (the last page held fewer than `count` codes or none). */
  complete: boolean;
}

/**
 * The paging members of a code set agree over the pages of one query (document 2, 2.2 and 4.1;
 * DEC-D2-04): page i (from 1) has `expansion.offset` = (i − 1) × count; `expansion.total` is the
 * same integer on every page; no code (`system|code`) appears on two pages; and a complete walk
 * collects exactly `total` distinct codes (an incomplete one at most `total`). Items without a
 * code count towards what was collected but cannot be told apart. The first rule broken is
 * reported; the evidence holds every page's members.
 */
export const valueSetPagingConsistent: Check<ValueSetWalk> = {
  id: 'value-set-paging-consistent',
  summary: 'Code-set pages have offsets (page − 1) × count, one total, no shared codes and total codes in all',
  run: ({ pages, count, complete }) => {
    if (pages.length === 0) return skip('No pages to judge');
    const offsets: unknown[] = [];
    const totals: unknown[] = [];
    const sizes: number[] = [];
    const firstPage = new Map<string, number>();
    const duplicates: string[] = [];
    let unkeyed = 0;
    for (const [index, page] of pages.entries()) {
      const read = readValueSet(page);
      if (!read.ok) {
        if (read.finding.outcome === 'skip') return read.finding;
        return fail(
          `Expected a readable ValueSet on every page, received ${receivedPart(read.finding)} on page ${index + 1}`,
        );
      }
      offsets.push(read.value.expansion.offset);
      totals.push(read.value.expansion.total);
      sizes.push(read.value.contains.length);
      const onThisPage = new Set<string>();
      for (const item of read.value.contains) {
        const key = codeKey(item);
        if (key === undefined) {
          unkeyed += 1;
          continue;
        }
        if (onThisPage.has(key)) continue;
        onThisPage.add(key);
        const earlier = firstPage.get(key);
        if (earlier === undefined) firstPage.set(key, index + 1);
        else duplicates.push(`${key} on pages ${earlier} and ${index + 1}`);
      }
    }
    const collected = firstPage.size + unkeyed;
    const evidence = { count, complete, offsets, totals, codes: sizes, collected, duplicates: duplicates.slice(0, 20) };

    const badOffset = offsets.findIndex((offset, i) => offset !== i * count);
    if (badOffset >= 0) {
      return fail(
        `Expected expansion.offset ${badOffset * count} on page ${badOffset + 1} (count ${count}), received ${show(offsets[badOffset], 40)}`,
        evidence,
      );
    }
    const badTotal = totals.findIndex((t) => !Number.isSafeInteger(t) || (t as number) < 0);
    if (badTotal >= 0)
      return fail(
        `Expected an integer expansion.total on every page, received ${show(totals[badTotal], 40)} on page ${badTotal + 1}`,
        evidence,
      );
    const ints = totals as number[];
    if (!ints.every((t) => t === ints[0]))
      return fail(`Expected the same expansion.total on every page, received ${show(ints, 80)}`, evidence);
    if (duplicates.length > 0)
      return fail(`Expected no code on two pages, received ${listBrief(duplicates, 3)}`, evidence);
    const total = ints[0];
    const codes = (n: number): string => `${n} ${n === 1 ? 'code' : 'codes'}`;
    if (complete && collected !== total) {
      return fail(`Expected ${codes(total)} over all pages (expansion.total), received ${collected}`, evidence);
    }
    if (!complete && collected > total) {
      return fail(
        `Expected at most ${codes(total)} over the pages (expansion.total), received ${collected} so far`,
        evidence,
      );
    }
    const what = `${codes(collected)} collected${complete ? '' : ' so far'}`;
    return pass(`offsets (page − 1) × ${count}, total ${total} on every page, ${what}, no code on two pages`, evidence);
  },
};
