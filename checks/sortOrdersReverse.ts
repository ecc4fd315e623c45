import { fail, pass, skip, type Check, type Finding } from '../core/check.ts';
import type { RespondedExchange } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readBundle, receivedPart } from './readJson.ts';
import { resourceKey } from './resourceKey.ts';

export interface OppositeSorts {
  /** The answer in ascending order: one page, or every page of the query in order (DEC-R-06). */
  ascending: RespondedExchange | readonly RespondedExchange[];
  descending: RespondedExchange | readonly RespondedExchange[];
  /**
   * The sort key of a resource. When given, records with equal keys may come in any order
   * (DEC-D1-22: "ties allowed to differ"); without it the orders must be exact reverses.
   */
  tieKey?: (resource: Record<string, unknown>) => string | number | undefined;
}

function safeKey(tieKey: OppositeSorts['tieKey'], resource: Record<string, unknown>): string | undefined {
  if (tieKey === undefined) return undefined;
  try {
    const key = tieKey(resource);
    return key === undefined ? undefined : `${typeof key}:${String(key)}`;
  } catch {
    return undefined;
  }
}

type Read = { ok: true; resources: Record<string, unknown>[]; entries: number } | { ok: false; finding: Finding };

/** The resources of an answer read as one sequence over its pages; the first page that is not a Bundle stops it. */
function readPages(answer: RespondedExchange | readonly RespondedExchange[]): Read {
  const pages = Array.isArray(answer) ? (answer as readonly RespondedExchange[]) : [answer as RespondedExchange];
  const resources: Record<string, unknown>[] = [];
  for (const page of pages) {
    const read = readBundle(page);
    if (!read.ok) return { ok: false, finding: read.finding };
    resources.push(...read.value.resources);
  }
  return { ok: true, resources, entries: resources.length };
}

/**
 * The ascending and descending sorts of one query return the same records in reverse order
 * (document 1, 4.3 `_sort=issueDate` / `-issueDate`, SHOULD per DEC-D1-22; 4.4/4.5 per DEC-D1-04).
 * Records are keyed `resourceType/id`; entries without an id are left out. Given the pages of each
 * order, the records of all pages are compared (DEC-R-06: a sort is over the whole result).
 */
export const sortOrdersReverse: Check<OppositeSorts> = {
  id: 'sort-orders-reverse',
  summary: 'Ascending and descending sorts return the same records in reverse order',
  run: ({ ascending, descending, tieKey }) => {
    const asc = readPages(ascending);
    if (!asc.ok)
      return asc.finding.outcome === 'skip'
        ? asc.finding
        : fail(`Expected the ascending answer to be a Bundle, received ${receivedPart(asc.finding)}`);
    const desc = readPages(descending);
    if (!desc.ok)
      return desc.finding.outcome === 'skip'
        ? desc.finding
        : fail(`Expected the descending answer to be a Bundle, received ${receivedPart(desc.finding)}`);
    const rows = (resources: Record<string, unknown>[]) =>
      resources.flatMap((r) => {
        const id = resourceKey(r);
        return id === undefined ? [] : [{ id, tie: safeKey(tieKey, r) }];
      });
    const up = rows(asc.resources);
    const down = rows(desc.resources);
    if (up.length === 0 && down.length === 0) {
      return asc.resources.length + desc.resources.length === 0
        ? pass('no entries in either order')
        : skip('No entry carries an id');
    }
    const upIds = new Set(up.map((r) => r.id));
    const downIds = new Set(down.map((r) => r.id));
    const onlyUp = [...upIds].filter((id) => !downIds.has(id));
    const onlyDown = [...downIds].filter((id) => !upIds.has(id));
    if (onlyUp.length > 0 || onlyDown.length > 0) {
      const parts = [
        ...(onlyUp.length > 0 ? [`only ascending: ${listBrief(onlyUp, 3)}`] : []),
        ...(onlyDown.length > 0 ? [`only descending: ${listBrief(onlyDown, 3)}`] : []),
      ];
      return fail(`Expected the same records in both orders, received ${parts.join('; ')}`, {
        onlyAscending: onlyUp,
        onlyDescending: onlyDown,
      });
    }
    const reversed = [...up].reverse();
    const length = Math.max(reversed.length, down.length);
    for (let i = 0; i < length; i += 1) {
      const want = reversed[i];
      const got = down[i];
      if (want?.id === got?.id) continue;
      // Within a run of equal sort keys the order is free: compare the runs as sets.
      if (want !== undefined && got !== undefined && want.tie !== undefined && want.tie === got.tie) {
        const runOf = (list: typeof down) => {
          const ids: string[] = [];
          let j = i;
          while (j > 0 && list[j - 1].tie === want.tie) j -= 1;
          for (; j < list.length && list[j].tie === want.tie; j += 1) ids.push(list[j].id);
          return ids.sort().join('\n');
        };
        if (runOf(reversed) === runOf(down)) continue;
      }
      return fail(
        `Expected the descending order to reverse the ascending one, received ${got?.id ?? '<nothing>'} at position ${i + 1} where ${want?.id ?? '<nothing>'} was expected`,
        { ascending: up.map((r) => r.id).slice(0, 50), descending: down.map((r) => r.id).slice(0, 50) },
      );
    }
    return pass(`${down.length} records in reverse order`);
  },
};
