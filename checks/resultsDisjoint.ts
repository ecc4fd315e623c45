import { fail, pass, type Check } from '../core/check.ts';
import { listBrief } from './listBrief.ts';

export interface TwoResults {
  /** Labels of the two queries, for the message (`status=read`, `status=unread`). */
  labels: readonly [string, string];
  /** Record keys of each query, collected over all its pages. */
  sets: readonly [ReadonlySet<string>, ReadonlySet<string>];
}

/**
 * Two filtered results that exclude each other share no record (document 1, 4.3 and 3: a record
 * is either read or unread; it has one pre-authorisation status at a time; DEC-D1-39).
 */
export const resultsDisjoint: Check<TwoResults> = {
  id: 'results-disjoint',
  summary: 'Two results that exclude each other share no record',
  run: ({ labels, sets: [a, b] }) => {
    const shared = [...a].filter((k) => b.has(k));
    return shared.length === 0
      ? pass(`${a.size} ${labels[0]} and ${b.size} ${labels[1]}, none shared`, { sizes: [a.size, b.size] })
      : fail(
          `Expected no record in both the ${labels[0]} and ${labels[1]} results, received ${shared.length} (${listBrief(shared, 3)})`,
          { shared: shared.slice(0, 20) },
        );
  },
};
