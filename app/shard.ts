/**
 * Sharding a run across CI runners (`conformance run --shard I/N`). Suite files are the unit, as
 * in vitest's own sharding; coupled suites (spec/suiteCoupling.ts) form one group and a group is
 * never split, so no flow or shared state runs in two shards at once against the same target.
 *
 * The assignment depends only on the operation table and N, never on `--only` or on what a target
 * answers: every runner of a CI matrix computes the same partition on its own, and
 * `conformance merge` can check that the parts cover each group once. Groups are placed largest
 * first (by number of operations) on the least-loaded shard, ties to the lower index.
 */
import { operations } from '../spec/operations.ts';
import { suiteGroups } from '../spec/suiteCoupling.ts';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** Most shards a run can be split into (one per coupled suite group, at most). */
export function maxShards(): number {
  return new Set(suiteGroups().values()).size;
}

/** Parses `I/N` (1 <= I <= N <= the number of suite groups); a one-line Error otherwise. */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const max = maxShards();
  if (!m) throw new Error(`--shard must be I/N (for example 1/3), received ${JSON.stringify(text)}`);
  const [index, count] = [Number(m[1]), Number(m[2])];
  if (count < 1 || count > max) {
    throw new Error(`--shard count must be from 1 to ${max} (the number of coupled suite groups), received ${count}`);
  }
  if (index < 1 || index > count) throw new Error(`--shard index must be from 1 to ${count}, received ${index}`);
  return { index, count };
}

/** The shard (1-based) of every coupled suite group, for `count` shards. */
export function groupAssignment(count: number): Map<string, number> {
  const groups = suiteGroups();
  const weight = new Map<string, number>();
  for (const op of operations) {
    const g = groups.get(op.suite) as string;
    weight.set(g, (weight.get(g) ?? 0) + 1);
  }
  const ordered = [...weight.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const load = Array.from({ length: count }, () => 0);
  const assignment = new Map<string, number>();
  for (const [group, w] of ordered) {
    const least = load.indexOf(Math.min(...load));
    load[least] += w;
    assignment.set(group, least + 1);
  }
  return assignment;
}

/** True when the suite (file name without `.suite.ts`) belongs to the shard. */
export function suiteInShard(suite: string, shard: Shard): boolean {
  const group = suiteGroups().get(suite);
  if (group === undefined) throw new Error(`Suite ${suite} is not in the operation table`);
  return groupAssignment(shard.count).get(group) === shard.index;
}
