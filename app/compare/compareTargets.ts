/**
 * `conformance compare`, the application layer (issue 35): the same seed's requests go to each
 * target. The conformance run (app/runConformance.ts) runs once per target with the same seed and
 * options, every call it makes logged (core/exchangeLog.ts: the coverage phase, the generated
 * cases, the state sequences); the logs are paired step by step and compared (compareLogs.ts),
 * and the comparison is written beside the candidate's usual report (reports/compareReport.ts),
 * which then carries it too (a section of report.html, sealed with its results).
 *
 * The candidate runs first (the target most likely not to answer), then the reference and the
 * second reference, each into a folder of its own inside the report folder. The runs are one after
 * another: a target's answers may depend on what was sent before, so each sees its calls in the
 * order one run makes them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allSecretsOf, type CompareIgnore, ConfigError, loadConfig } from '../../core/config.ts';
import type { WorkerResult } from '../../core/events.ts';
import type { Exchange } from '../../core/exchange.ts';
import { readExchangeLog } from '../../core/exchangeLog.ts';
import { type EvidenceMode, Redactor } from '../../core/redact.ts';
import type { ExchangeRecord } from '../../core/results.ts';
import { suiteVersion } from '../../core/suiteVersion.ts';
import {
  type BrokenRow,
  type ComparedResults,
  type ComparedTarget,
  type Comparison,
  comparisonInReport,
  type TargetRole,
} from '../../reports/compareModel.ts';
import { type ComparisonPaths, removeComparison, writeComparison } from '../../reports/compareReport.ts';
import { writeReports } from '../../reports/writeReports.ts';
import { isOperationId } from '../../spec/operations.ts';
import { requirementById } from '../../spec/requirements.ts';
import { type RunOutcome, runConformance } from '../runConformance.ts';
import { compareLogs } from './compareLogs.ts';
import { configuredNoise, type NoiseRule } from './noise.ts';

export interface CompareTarget {
  url: string;
  /** The config file its run uses. */
  config: string;
  /** How the report names the config (`server/demo-config.json (the sandbox's demo config)`). */
  configShown: string;
  /** Values for unset environment variables (the demo config's public credentials). */
  environmentFallbacks?: Readonly<Record<string, string>>;
  /** Started by the comparison (a local sandbox). */
  sandbox: boolean;
}

export interface CompareRunOptions {
  candidate: CompareTarget;
  reference: CompareTarget;
  second?: CompareTarget;
  /** The report folder, claimed by the caller: the candidate's report, the comparison, and a folder per reference. */
  reportDir: string;
  seed?: number;
  runs?: number;
  only?: string;
  allowDestructive: boolean;
  evidence?: EvidenceMode;
  concurrency?: number;
  maxRequestsPerSecond?: number;
  failOn: 'any' | 'documented';
  /** The command line that runs this comparison again, without `--seed` and `--only` (the replay adds them). */
  replay: string;
  signal?: AbortSignal;
  /** Told when a target's run starts and ends (the command's progress lines). */
  onRunStarted?: (role: TargetRole, target: CompareTarget) => void;
  onRunFinished?: (role: TargetRole, outcome: RunOutcome, ms: number) => void;
}

/** Exit codes of a comparison: 0 the same, 1 different, 2 usage or config, 3 a target could not be compared, 130 interrupted. */
export const COMPARE_EXIT = { same: 0, different: 1, usage: 2, notCompared: 3, interrupted: 130 } as const;

export interface CompareOutcome {
  exitCode: number;
  /** One line, when the comparison could not be made. */
  problem?: string;
  comparison?: Comparison;
  files?: ComparisonPaths;
  /** Wall time of each target's run, in milliseconds. */
  timings?: Partial<Record<TargetRole, number>>;
  /** What the comparison should be read with (configs that name other fixtures). */
  notes?: string[];
}

/** The fixtures two configs name otherwise, as `section.name` paths. */
export function fixturesThatDiffer(a: object, b: object): string[] {
  const flat = (f: object): Map<string, string> =>
    new Map(
      Object.entries(f).flatMap(([section, names]) =>
        Object.entries((names ?? {}) as Record<string, unknown>).map(([name, v]) => [
          `${section}.${name}`,
          JSON.stringify(v),
        ]),
      ),
    );
  const [x, y] = [flat(a), flat(b)];
  return [...new Set([...x.keys(), ...y.keys()])].filter((k) => x.get(k) !== y.get(k)).sort();
}

/** An exchange record read back as the redactor reads an exchange (to mask it by the evidence mode). */
function asExchange(r: ExchangeRecord): Exchange {
  return {
    id: '',
    ...(r.operation !== undefined ? { operation: r.operation } : {}),
    startedAt: r.startedAt,
    durationMs: r.duration,
    request: {
      method: r.method,
      url: r.url,
      headers: r.request.headers,
      ...(r.request.body !== undefined ? { body: r.request.body } : {}),
    },
    ...(r.response && r.status !== undefined
      ? {
          response: {
            status: r.status,
            headers: r.response.headers,
            bodyText: r.response.body,
            size: r.response.size,
            truncated: r.response.truncated,
          },
        }
      : {}),
    ...(r.error !== undefined ? { error: r.error } : {}),
  };
}

/** The MUST rows a run failed, by the id of the exchange each failure judged. */
function failuresOf(results: readonly WorkerResult[]): Map<string, BrokenRow[]> {
  const out = new Map<string, BrokenRow[]>();
  for (const r of results) {
    if (r.status !== 'fail' || r.level !== 'MUST' || r.exchange === undefined) continue;
    const rows = out.get(r.exchange) ?? [];
    for (const requirement of r.requirements) {
      const text = requirementById(requirement)?.text;
      rows.push({
        requirement,
        level: r.level,
        ...(text !== undefined ? { text } : {}),
        check: r.check,
        message: r.message,
      });
    }
    out.set(r.exchange, rows);
  }
  return out;
}

const isUnreachable = (problem: string): boolean => /^Target unreachable\b/.test(problem);

export async function compareTargets(options: CompareRunOptions): Promise<CompareOutcome> {
  const startedAt = new Date().toISOString();
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const roles: [TargetRole, CompareTarget][] = [
    ['candidate', options.candidate],
    ['reference', options.reference],
    ...(options.second ? ([['second', options.second]] as [TargetRole, CompareTarget][]) : []),
  ];

  // Every config is read first: a bad config, a missing secret or an unknown operation in
  // compare.ignore stops the comparison before any request.
  const configured: NoiseRule[] = [];
  const fixturesOf = new Map<TargetRole, object>();
  let fixtures = {};
  let secrets: string[] = [];
  let maxEvidenceBytes: number | undefined;
  for (const [role, t] of roles) {
    try {
      const config = loadConfig({ file: t.config, target: t.url, fallbacks: t.environmentFallbacks });
      secrets = [...secrets, ...allSecretsOf(config)];
      fixturesOf.set(role, config.fixtures);
      if (role === 'candidate') {
        fixtures = config.fixtures;
        maxEvidenceBytes = config.http.maxEvidenceBytes;
      }
      if (role !== 'second') configured.push(...checkedIgnores(config.compareIgnore, t.configShown));
    } catch (e) {
      if (e instanceof ConfigError) return { exitCode: COMPARE_EXIT.usage, problem: `${role} ${t.url}: ${e.message}` };
      throw e;
    }
  }
  // The same rule from both configs (one config given to both runs) is one rule.
  const rules = [...new Map(configured.map((r) => [`${r.operation}\u0000${r.path}`, r])).values()];
  const differing = fixturesThatDiffer(fixturesOf.get('candidate') ?? {}, fixturesOf.get('reference') ?? {});
  const notes =
    differing.length === 0
      ? []
      : [
          `the candidate's config names ${differing.length} fixture(s) otherwise than the reference's (${differing.slice(0, 5).join(', ')}${differing.length > 5 ? ', ...' : ''}): requests that carry them differ, are paired by their place in their test, and their answers may differ for that alone`,
        ];

  const work = mkdtempSync(join(tmpdir(), 'conformance-compare-'));
  const failures: WorkerResult[] = [];
  const outcomes = new Map<TargetRole, RunOutcome>();
  const timings: Partial<Record<TargetRole, number>> = {};
  try {
    removeComparison(options.reportDir);
    for (const [role, t] of roles) {
      if (options.signal?.aborted) return { exitCode: COMPARE_EXIT.interrupted, problem: 'interrupted', timings };
      options.onRunStarted?.(role, t);
      const began = performance.now();
      const outcome = await runConformance({
        target: t.url,
        config: t.config,
        ...(t.environmentFallbacks ? { environmentFallbacks: t.environmentFallbacks } : {}),
        only: options.only,
        reportDir: role === 'candidate' ? options.reportDir : join(options.reportDir, role),
        allowDestructive: options.allowDestructive,
        seed,
        ...(options.runs !== undefined ? { runs: options.runs } : {}),
        evidence: options.evidence ?? 'masked',
        ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
        ...(options.maxRequestsPerSecond !== undefined ? { maxRequestsPerSecond: options.maxRequestsPerSecond } : {}),
        exchangeLog: join(work, role),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(role === 'candidate'
          ? { subscribe: (bus) => bus.on('check-evaluated', (e) => void failures.push(e.result)) }
          : {}),
      });
      timings[role] = performance.now() - began;
      options.onRunFinished?.(role, outcome, timings[role] ?? 0);
      if (outcome.problem) {
        const line = `${role} ${t.url}: ${outcome.problem}`;
        return {
          exitCode: isUnreachable(outcome.problem) ? COMPARE_EXIT.notCompared : outcome.exitCode,
          problem: line,
          timings,
        };
      }
      if (outcome.results?.interrupted || options.signal?.aborted)
        return { exitCode: COMPARE_EXIT.interrupted, problem: 'interrupted', timings };
      outcomes.set(role, outcome);
    }

    const logs = {
      candidate: readExchangeLog(join(work, 'candidate')),
      reference: readExchangeLog(join(work, 'reference')),
      ...(options.second ? { second: readExchangeLog(join(work, 'second')) } : {}),
    };
    const evidence = options.evidence ?? 'masked';
    // The artefacts are masked as results.json is: secrets always, personal data unless --evidence full.
    const redactor = Redactor.forRun({
      secrets,
      evidence,
      fixtures,
      http: maxEvidenceBytes !== undefined ? { maxEvidenceBytes } : {},
    });
    const compared = compareLogs({
      reference: logs.reference,
      candidate: logs.candidate,
      ...(logs.second ? { second: logs.second } : {}),
      failures: failuresOf(failures),
      configured: rules,
      mask: (x) => redactor.exchange(asExchange(x)),
      maskValue: (v) => redactor.value(v),
      replay: (operation) => `${options.replay} --seed ${seed} --only ${operation}`,
    });
    const fails = compared.groups.some((g) => options.failOn === 'any' || g.breaks.length > 0);
    const exitCode = fails ? COMPARE_EXIT.different : COMPARE_EXIT.same;
    const targets: ComparedTarget[] = roles.map(([role, t]) => {
      const outcome = outcomes.get(role);
      return {
        role,
        url: redactor.text(t.url),
        sandbox: t.sandbox,
        config: t.configShown,
        verdict: outcome?.results?.verdict ?? 'inconclusive',
        exitCode: outcome?.exitCode ?? 0,
        exchanges: logs[role]?.length ?? 0,
        report: role === 'candidate' ? 'report.html' : `${role}/report.html`,
      };
    });
    const comparison: Comparison = {
      suite: suiteVersion(),
      startedAt,
      finishedAt: new Date().toISOString(),
      seed,
      runs: options.runs ?? 25,
      ...(options.only ? { only: options.only } : {}),
      allowDestructive: options.allowDestructive,
      evidence,
      failOn: options.failOn,
      noiseFrom: options.second ? 'second' : 'documents',
      targets,
      summary: compared.summary,
      outcome: fails ? 'different' : 'same',
      exitCode,
      operations: compared.operations,
      noise: compared.noise,
      groups: compared.groups,
    };
    const files = writeComparison(options.reportDir, comparison);
    // The candidate's report carries the comparison (report.html's section "Comparison with
    // REFERENCE"): its results are sealed again with it and its files rewritten through the one
    // writer of report folders, so that `verify-report` re-derives the section from results.json.
    const candidateResults = outcomes.get('candidate')?.results;
    if (candidateResults) {
      const compared: ComparedResults = { ...candidateResults, comparison: comparisonInReport(comparison) };
      await writeReports(compared, options.reportDir);
    }
    return { exitCode, comparison, files, timings, notes };
  } finally {
    // CONFORMANCE_DEBUG=1 keeps the runs' exchange logs (secrets masked, personal data kept) to look into a pairing.
    if (process.env.CONFORMANCE_DEBUG) process.stderr.write(`conformance: the exchange logs are kept in ${work}\n`);
    else rmSync(work, { recursive: true, force: true });
  }
}

/** The configs' `compare.ignore`, their operations checked against the operation table. */
function checkedIgnores(ignore: readonly CompareIgnore[], configShown: string): NoiseRule[] {
  for (const item of ignore)
    for (const op of item.operations ?? [])
      if (!isOperationId(op))
        throw new ConfigError(
          `compare.ignore of ${configShown} names the operation ${JSON.stringify(op)}, which is none (conformance operations lists them)`,
        );
  return configuredNoise(ignore, configShown);
}
