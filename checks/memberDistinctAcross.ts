import { fail, pass, show, skip, type Check } from '../core/check.ts';
import type { RespondedExchange } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readObject } from './readJson.ts';

export interface DistinctAcross {
  /** Answers about distinct records (e.g. the batches of one pending list, fetched one by one). */
  exchanges: readonly RespondedExchange[];
}

/**
 * A top-level member differs between distinct records (document 1, 2.6; DEC-D1-49: the `msgId`
 * values of distinct batches of one listing must differ). Records without the member are left to
 * the schema; fewer than two values cannot be compared.
 */
export function memberDistinctAcross(member: string): Check<DistinctAcross> {
  return {
    id: 'member-distinct-across',
    summary: `Distinct records carry distinct ${member} values`,
    run: ({ exchanges }) => {
      const seen = new Map<string, number>();
      for (const x of exchanges) {
        const body = readObject(x);
        if (!body.ok) {
          if (body.finding.outcome === 'skip') continue;
          return body.finding;
        }
        const value = body.value[member];
        if (value === undefined || value === null) continue;
        const key = JSON.stringify(value);
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
      const total = [...seen.values()].reduce((a, b) => a + b, 0);
      if (total < 2) return skip(`Fewer than two records carry ${member}, nothing to compare`);
      const repeated = [...seen.entries()]
        .filter(([, n]) => n > 1)
        .map(([k, n]) => `${show(JSON.parse(k) as unknown, 40)} (${n} times)`);
      if (repeated.length === 0)
        return pass(`${total} records, ${total} distinct ${member} values`, { records: total });
      return fail(`Expected distinct ${member} values, received ${listBrief(repeated, 3)}`, {
        records: total,
        repeated: repeated.slice(0, 20),
      });
    },
  };
}
