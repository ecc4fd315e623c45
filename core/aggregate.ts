/**
 * Builds the canonical RunResults from the workers' events and the runner's own results.
 */
import { loadDecisions } from '../spec/decisions.ts';
import { operation } from '../spec/operations.ts';
import { loadRequirements, type Party } from '../spec/requirements.ts';
import { coverageShortfall, DEFAULT_MIN_COVERAGE, mustCoverage, shareOf } from './coverage.ts';
import type { WorkerEvent, WorkerResult } from './events.ts';
import type { CheckResult, ExchangeRecord, OperationSummary, RunResults } from './results.ts';
import { emptyCounts, verdictOf } from './results.ts';

export interface AggregateInput
  extends Pick<
    RunResults,
    | 'suite'
    | 'target'
    | 'configDigest'
    | 'attestation'
    | 'evidence'
    | 'seed'
    | 'runs'
    | 'allowDestructive'
    | 'only'
    | 'startedAt'
    | 'finishedAt'
    | 'shard'
    | 'mergedFrom'
    | 'interrupted'
  > {
  operations: readonly string[];
  events: readonly WorkerEvent[];
  /** Exchanges recorded by the runner itself (discovery), by id. */
  runnerExchanges: ReadonlyMap<string, ExchangeRecord>;
  runnerResults: readonly WorkerResult[];
  /** Minimum judged share of the testable MUST requirements in scope (0 to 1; default DEFAULT_MIN_COVERAGE). */
  minCoverage?: number;
  /** Whose requirements the run judges (spec/requirements.csv `party`); default the server's. */
  party?: Party;
}

export function aggregate(input: AggregateInput): RunResults {
  const exchanges: ExchangeRecord[] = [];
  const index = new Map<string, number>();
  const add = (id: string, x: ExchangeRecord) => {
    if (!index.has(id)) {
      index.set(id, exchanges.length);
      exchanges.push(x);
    }
  };
  for (const [id, x] of input.runnerExchanges) add(id, x);
  for (const e of input.events) if (e.type === 'exchange-recorded') add(e.id, e.exchange);
  const raw = [
    ...input.runnerResults,
    ...input.events.flatMap((e) => (e.type === 'check-evaluated' ? [e.result] : [])),
  ];
  const results: CheckResult[] = raw.map(({ exchange, ...r }) => ({
    ...r,
    ...(exchange !== undefined && index.get(exchange) !== undefined ? { exchange: index.get(exchange) } : {}),
  }));
  const order = new Map(input.operations.map((id, i) => [id, i]));
  results.sort((a, b) => (order.get(a.operation) ?? 1e9) - (order.get(b.operation) ?? 1e9));
  const summary = emptyCounts();
  for (const r of results) summary[r.status]++;
  const operations: OperationSummary[] = input.operations.map((id) => {
    const op = operation(id);
    const own = results.filter((r) => r.operation === id);
    const counts = emptyCounts();
    for (const r of own) counts[r.status]++;
    return { id, document: op.document, section: op.section, summary: op.summary, counts, verdict: verdictOf(own) };
  });
  const requirements = loadRequirements(input.party ?? 'server');
  const coverage = mustCoverage(requirements, input.operations, results, input.minCoverage ?? DEFAULT_MIN_COVERAGE);
  let verdict = verdictOf(results);
  const interruption =
    input.interrupted && verdict !== 'not-conformant'
      ? `the run was interrupted before ${input.interrupted.notRun.length} operation(s) were judged${input.interrupted.notRun.length ? ` (${input.interrupted.notRun.join(', ')})` : ''}`
      : undefined;
  const shortfall = interruption ?? (verdict === 'conformant' ? coverageShortfall(coverage) : undefined);
  if (shortfall) verdict = 'inconclusive';
  // An operation judged too little is inconclusive too, whatever the run's overall share.
  for (const o of operations) {
    const c = coverage.operations[o.id];
    if (o.verdict === 'conformant' && c && shareOf(c) < coverage.minimum) o.verdict = 'inconclusive';
  }
  const decisions = [
    ...new Set(input.events.flatMap((e) => (e.type === 'decision-applied' ? [e.decision] : []))),
  ].sort();
  return {
    suite: input.suite,
    target: input.target,
    configDigest: input.configDigest,
    attestation: input.attestation,
    evidence: input.evidence,
    seed: input.seed,
    runs: input.runs,
    allowDestructive: input.allowDestructive,
    ...(input.only ? { only: input.only } : {}),
    startedAt: input.startedAt,
    finishedAt: input.finishedAt,
    verdict,
    ...(shortfall ? { verdictReason: shortfall } : {}),
    coverage,
    summary,
    operations,
    results,
    exchanges,
    decisions,
    appliedDecisions: loadDecisions().filter((d) => decisions.includes(d.id)),
    requirements,
    ...(input.party === 'client' ? { party: 'client' as const } : {}),
    ...(input.shard ? { shard: input.shard } : {}),
    ...(input.mergedFrom ? { mergedFrom: input.mergedFrom } : {}),
    ...(input.interrupted ? { interrupted: input.interrupted } : {}),
  };
}
