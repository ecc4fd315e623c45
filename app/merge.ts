/**
 * `conformance merge DIR...`: one sealed report from the report folders of a sharded run
 * (`conformance run --shard I/N` on each CI runner). The parts must be intact (their digest
 * matches), come from the same suite version, target, config, seed, property runs and options,
 * and cover every shard 1..N exactly once; the merged results are aggregated again from the
 * parts' results and exchanges (core/aggregate.ts), so verdict, coverage and counts are computed
 * exactly as for an unsharded run.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { aggregate } from '../core/aggregate.ts';
import { applyBaseline, incompatibility } from '../core/baseline.ts';
import { sealed, integrityOf } from '../core/integrity.ts';
import type { ExchangeRecord, RunResults } from '../core/results.ts';
import type { WorkerEvent, WorkerResult } from '../core/events.ts';
import { heldReportFolder } from '../reports/reportFolder.ts';
import { RESULTS_JSON, readResults, type ReportPaths, writeReports } from '../reports/writeReports.ts';
import { operations } from '../spec/operations.ts';

/** A merge that cannot be made (a missing, altered or mismatched part): one line, exit 2. */
export class MergeError extends Error {}

/** The run settings every part must share. */
const SAME = ['target', 'configDigest', 'seed', 'runs', 'evidence', 'allowDestructive', 'only'] as const;

export interface MergeOptions {
  /** An earlier run to compare the merged one with (`merge --baseline`), as `run --baseline`. */
  baseline?: { results: RunResults; source: string; failOn: 'any' | 'new' };
}

export async function mergeParts(
  dirs: readonly string[],
  outDir: string,
  options: MergeOptions = {},
): Promise<{ results: RunResults; reports: ReportPaths }> {
  if (dirs.length === 0) throw new MergeError('merge needs the report folders of the shards');
  const parts: RunResults[] = [];
  for (const dir of dirs) {
    const file = join(resolve(dir), RESULTS_JSON);
    let part: RunResults;
    try {
      part = await readResults(file);
    } catch (e) {
      throw new MergeError((e as Error).message);
    }
    const integrity = integrityOf(part);
    if (integrity.state !== 'intact') {
      throw new MergeError(
        `${file} ${integrity.state === 'altered' ? 'was altered after its run' : 'is not sealed'}; it cannot be merged`,
      );
    }
    if (!part.shard) throw new MergeError(`${file} is not a shard (it was not run with --shard I/N)`);
    parts.push(part);
  }
  const [first] = parts;
  const count = first.shard?.count as number;
  for (const [i, p] of parts.entries()) {
    if (p.suite.version !== first.suite.version || p.suite.name !== first.suite.name) {
      throw new MergeError(`${dirs[i]} was written by suite ${p.suite.version}, ${dirs[0]} by ${first.suite.version}`);
    }
    for (const key of SAME) {
      if (JSON.stringify(p[key]) !== JSON.stringify(first[key])) {
        throw new MergeError(`${dirs[i]} differs from ${dirs[0]} in ${key}: the parts are not shards of one run`);
      }
    }
    if (p.shard?.count !== count)
      throw new MergeError(`${dirs[i]} is shard ${p.shard?.index}/${p.shard?.count}, ${dirs[0]} is one of ${count}`);
  }
  const seen = parts.map((p) => p.shard?.index as number);
  const duplicate = seen.find((x, i) => seen.indexOf(x) !== i);
  if (duplicate !== undefined) throw new MergeError(`shard ${duplicate}/${count} is given twice`);
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((x) => !seen.includes(x));
  if (missing.length > 0) throw new MergeError(`shard ${missing.map((m) => `${m}/${count}`).join(', ')} is missing`);

  const exchanges = new Map<string, ExchangeRecord>();
  const results: WorkerResult[] = [];
  const events: WorkerEvent[] = [];
  for (const p of parts) {
    const key = (i: number) => `shard-${p.shard?.index}-${i}`;
    for (const [i, x] of p.exchanges.entries()) exchanges.set(key(i), x);
    for (const { exchange, ...r } of p.results)
      results.push({ ...r, ...(exchange !== undefined ? { exchange: key(exchange) } : {}) });
    for (const d of p.decisions) events.push({ type: 'decision-applied', decision: d });
  }
  const ids = new Set(parts.flatMap((p) => p.operations.map((o) => o.id)));
  const interrupted = parts.flatMap((p) => p.interrupted?.notRun ?? []);
  const merged = aggregate({
    suite: first.suite,
    target: first.target,
    configDigest: first.configDigest,
    attestation: first.attestation,
    evidence: first.evidence,
    seed: first.seed,
    runs: first.runs,
    allowDestructive: first.allowDestructive,
    only: first.only,
    startedAt: parts.map((p) => p.startedAt).sort()[0],
    finishedAt: parts
      .map((p) => p.finishedAt)
      .sort()
      .at(-1) as string,
    operations: operations.filter((o) => ids.has(o.id)).map((o) => o.id),
    events,
    runnerExchanges: exchanges,
    runnerResults: results,
    minCoverage: first.coverage?.minimum,
    mergedFrom: count,
    ...(parts.some((p) => p.interrupted) ? { interrupted: { notRun: interrupted } } : {}),
  });
  if (options.baseline) {
    const why = incompatibility(merged, options.baseline.results);
    if (why !== undefined) throw new MergeError(`the baseline ${options.baseline.source} cannot be used: ${why}`);
  }
  const compared: RunResults = options.baseline
    ? {
        ...merged,
        baseline: applyBaseline(merged, options.baseline.results, options.baseline.source, options.baseline.failOn),
      }
    : merged;
  // The parts' Allure results go with the merged report (their files are named by UUID: none clash).
  const claim = heldReportFolder(outDir);
  const allure = join(claim ? claim.staging : resolve(outDir), 'allure-results');
  for (const dir of dirs) {
    const from = join(resolve(dir), 'allure-results');
    if (!existsSync(from)) continue;
    mkdirSync(allure, { recursive: true });
    for (const name of readdirSync(from)) copyFileSync(join(from, name), join(allure, name));
  }
  const reports = await writeReports(compared, outDir);
  return { results: sealed(compared), reports };
}
