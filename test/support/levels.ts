/**
 * The creed in code: no result is reported at a stricter level than a requirement it cites
 * (a MUST result citing a SHOULD or INFO row would fail a target on a point the documents leave
 * open). Used by the self-tests on every run they make.
 */
import type { RunResults } from '../../core/results.ts';
import { loadRequirements } from '../../spec/requirements.ts';

const RANK = { INFO: 0, SHOULD: 1, MUST: 2 } as const;

/** One line per (check, requirement, level) pair where the result is stricter than the row it cites. */
export function stricterThanCited(results: RunResults): string[] {
  const level = new Map(loadRequirements().map((r) => [r.id, r.level]));
  const out = new Set<string>();
  for (const r of results.results) {
    for (const id of r.requirements) {
      const cited = level.get(id);
      if (cited !== undefined && RANK[r.level] > RANK[cited])
        out.add(`${r.operation} ${r.check} at ${r.level} cites ${id} (${cited})`);
    }
  }
  return [...out].sort();
}
