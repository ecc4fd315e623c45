import { fail, pass, skip, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { codeLabel, readValueSet } from './valueSet.ts';

/** Runs a suite-supplied judgement; one that trips over odd target data cannot judge the item. */
function judge(
  predicate: (item: Record<string, unknown>) => boolean | undefined,
  item: Record<string, unknown>,
): boolean | undefined {
  try {
    const verdict = predicate(item);
    return typeof verdict === 'boolean' ? verdict : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every code of a code set honours the request (document 2, 2.2 and 4.1: `_since` per
 * DEC-D2-05, the profession narrowing per DEC-D2-06). `predicate` answers true (matches), false
 * (does not) or undefined (cannot judge this item, e.g. it carries no `lastUpdated`). An empty
 * code set passes; a non-empty one where nothing could be judged is skipped. Items that are not
 * objects are not judged (the schema check judges them).
 */
export function valueSetItemsMatch(
  description: string,
  predicate: (item: Record<string, unknown>) => boolean | undefined,
): Check {
  return {
    id: 'value-set-items-match',
    summary: `Every code matches ${description}`,
    run: (x) => {
      const read = readValueSet(x);
      if (!read.ok) return read.finding;
      const items = read.value.contains;
      if (items.length === 0) return pass('no codes');
      const offending: string[] = [];
      let judged = 0;
      items.forEach((item, index) => {
        if (!isRecord(item)) return;
        const verdict = judge(predicate, item);
        if (verdict === undefined) return;
        judged += 1;
        if (!verdict) offending.push(codeLabel(item, index));
      });
      const evidence = { codes: items.length, judged, offending: offending.length };
      if (judged === 0) return skip(`No code could be judged against ${description}`);
      if (offending.length === 0) {
        const unjudged = items.length - judged;
        return pass(
          `${judged} ${judged === 1 ? 'code matches' : 'codes match'} ${description}${unjudged > 0 ? ` (${unjudged} could not be judged)` : ''}`,
          evidence,
        );
      }
      return fail(
        `Expected every code to match ${description}, received ${offending.length} of ${judged} that do not: ${listBrief(offending, 3)}`,
        {
          ...evidence,
          keys: offending.slice(0, 20),
        },
      );
    },
  };
}
