/**
 * `conformance run`, the application layer: composes the config, discovery, credentials, the
 * vitest engine (app/vitestEngine.ts) and the reporters; the runner-decided results come from
 * app/runnerResults.ts. `core/` holds the harness pieces and imports nothing from here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { aggregate } from '../core/aggregate.ts';
import { allSecretsOf, ConfigError, loadConfig } from '../core/config.ts';
import { addressOf, discover, TargetUnreachableError } from '../core/discovery.ts';
import { type ConnectGuard, hostRefusal } from '../core/connectGuard.ts';
import { type RunEvent, RunEventBus, readEvents, type WorkerResult } from '../core/events.ts';
import { interruptRun, RunRetryBudget } from '../core/breaker.ts';
import { HttpClient, type HttpOptions, type LoadRetryTotals, Pacer, sharedPacing } from '../core/http.ts';
import { applyBaseline, exitCodeUnderBaseline, incompatibility } from '../core/baseline.ts';
import { sealed } from '../core/integrity.ts';
import { type EvidenceMode, Redactor } from '../core/redact.ts';
import type { ExchangeRecord, RunResults } from '../core/results.ts';
import { EXIT, exitCodeOf } from '../core/results.ts';
import type { RunContext } from '../core/runContext.ts';
import { suiteVersion } from '../core/suiteVersion.ts';
import { obtainToken } from '../core/token.ts';
import {
  claimReportFolder,
  heldReportFolder,
  ReportFolderError,
  type ReportFolderClaim,
} from '../reports/reportFolder.ts';
import { type ReportPaths, subscribeReportFolder } from '../reports/writeReports.ts';
import { operations } from '../spec/operations.ts';
import type { ServiceId } from '../spec/types.ts';
import { addressedByKey, documentedPathResult, omittedByConfig, silentOperations } from './runnerResults.ts';
import { selectOperations } from './selectOperations.ts';
import type { ProgressSink } from './progress.ts';
import { type Shard, suiteInShard } from './shard.ts';
import { runSuites } from './vitestEngine.ts';

export interface RunOptions {
  target: string;
  /** The config file (the application layer passes the sandbox's demo config when none is given). */
  config: string;
  /** Values standing in for unset environment variables (the demo config's public credentials). */
  environmentFallbacks?: Readonly<Record<string, string>>;
  /**
   * The environment the config's variables (`*Env`, and HTTPS_PROXY, HTTP_PROXY, NO_PROXY) are read
   * from, in place of the process's (default): the service passes the product's stored secrets
   * alone, so that no variable of its own reaches a partner's server.
   */
  environment?: Readonly<Record<string, string>>;
  /**
   * Checks every address the run's calls connect to, the runner's and the suite workers'
   * (core/connectGuard.ts): an address out of the allowed ranges, whether discovery published it
   * or a name resolved to it at connect time, ends the run with one line, "Refused: ...", as its
   * problem. The command runs without one; a run under a guard uses no proxy.
   */
  connectGuard?: ConnectGuard;
  only?: string;
  /**
   * The report folder. The run claims it (reports/reportFolder.ts) unless this process holds it
   * already (the command claims it before anything else), writes into its staging folder and moves
   * the whole report into place at the end; a folder in use by another run, or one that cannot be
   * written, ends the run before any request (exit 2).
   */
  reportDir: string;
  allowDestructive: boolean;
  seed?: number;
  runs?: number;
  path?: string;
  /** `masked` (default) masks personal data in every artefact; `full` keeps it (secrets stay masked). */
  evidence?: EvidenceMode;
  /** Further subscribers of the run's events (progress output, for instance). */
  subscribe?: (bus: RunEventBus) => void;
  /** Minimum judged share of the testable MUST requirements in scope, 0 to 1 (core/coverage.ts). */
  minCoverage?: number;
  /** Judge only this shard's operations (app/shard.ts); `conformance merge` joins the parts. */
  shard?: Shard;
  /** Progress output while the suites run (app/progress.ts). */
  progress?: ProgressSink;
  /** Told when a suite file starts: from then on an interruption has judged results to report. */
  onSuiteStarted?: (suite: string) => void;
  /**
   * Aborted by Ctrl-C: suites not yet started are not run (none, when aborted before they start),
   * and the report says the run was interrupted.
   */
  signal?: AbortSignal;
  /**
   * The run's pacing state (core/http.ts sharedPacing), when the caller bounds it: the
   * certification service moves its last start allowed forward as it renews its lease on the run
   * (sendNoLaterThan). By default the run makes its own.
   */
  pacing?: SharedArrayBuffer;
  /**
   * What the report folder holds: every file (default), or results.json alone, sealed as ever,
   * for callers that read only the results (the self-test's fault and variant batches, where the
   * other files cost a second of each run and are tested on their own).
   */
  artefacts?: 'all' | 'results';
  /**
   * Worker threads for the suite files (default 2). One spends less CPU (the workers' own set-up
   * is paid once) and more wall time: for callers that run many runs at once on few cores.
   */
  workers?: number;
  /** Requests the run starts per second at most, over every worker (overrides config `http.maxRequestsPerSecond`). */
  maxRequestsPerSecond?: number;
  /** Calls the run has in flight at once at most, over every worker (overrides config `http.concurrency`). */
  concurrency?: number;
  /**
   * An earlier run to compare with (`--baseline`, core/baseline.ts): refused before any request
   * when it is of another suite version, target or config; with `failOn: 'new'` the exit code
   * counts only new MUST findings.
   */
  baseline?: { results: RunResults; source: string; failOn: 'any' | 'new' };
  /**
   * A folder into which the suite workers log every call they send, whether or not a check keeps
   * it as evidence (core/exchangeLog.ts): `conformance compare` pairs two runs' calls from it. The
   * caller owns the folder (the run's own folder is removed when the run ends).
   */
  exchangeLog?: string;
}

/** Where a run's wall time went, in milliseconds (the benchmark prints them: npm run bench). */
export interface RunTimings {
  /** From the start of the process to the start of the run (loading the command and its modules). */
  startup: number;
  /** Config, discovery of every service and the run's token. */
  discovery: number;
  /** The suites (vitest start-up included). */
  suites: number;
  /** Aggregating, sealing and writing the report folder. */
  report: number;
}

export interface RunOutcome {
  exitCode: number;
  timings?: RunTimings;
  results?: RunResults;
  reports?: ReportPaths;
  /** One-line reason when the run could not start (exit 2). */
  problem?: string;
  /** What the run spent on load refusals (HTTP 429, or 503 with Retry-After), runner and workers together. */
  load?: LoadRetryTotals;
}

/** Run folders of the runs in progress: removed when the process ends at once (a second Ctrl-C). */
const runDirs = new Set<string>();
let runDirExitHook = false;
function removedOnExit(dir: string): void {
  runDirs.add(dir);
  if (runDirExitHook) return;
  runDirExitHook = true;
  process.on('exit', () => {
    for (const d of runDirs) rmSync(d, { recursive: true, force: true });
  });
}

/** The first refusal of the connect guard among the suites' calls, or undefined. */
function refusalIn(events: readonly RunEvent[]): string | undefined {
  for (const event of events)
    if (event.type === 'exchange-recorded' && event.exchange.error?.startsWith('Refused: '))
      return event.exchange.error;
  return undefined;
}

export async function runConformance(options: RunOptions): Promise<RunOutcome> {
  const startedAt = new Date().toISOString();
  const marks = { start: performance.now(), discovered: 0, suitesDone: 0 };
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const runs = options.runs ?? 25;
  let client: HttpClient | undefined;
  let runDir: string | undefined;
  let budget: RunRetryBudget | undefined;
  let ownClaim: ReportFolderClaim | undefined;
  let stopInterruptHook: (() => void) | undefined;
  try {
    // The report folder first: a folder in use or unwritable stops the run before any request.
    const reportRoot = resolve(options.reportDir);
    let folder = heldReportFolder(reportRoot);
    if (!folder) {
      ownClaim = claimReportFolder(reportRoot, options.reportDir);
      folder = ownClaim;
    }
    const loaded = loadConfig({
      file: options.config,
      target: options.target,
      fallbacks: options.environmentFallbacks,
      ...(options.environment ? { environment: { ...options.environment } } : {}),
    });
    const guard = options.connectGuard;
    // A proxy would connect to the target's addresses where the guard cannot see them.
    if (guard && loaded.http.proxy)
      return {
        exitCode: EXIT.usage,
        problem: `Refused: the run would go through the proxy of ${loaded.http.proxy.https?.from ?? loaded.http.proxy.http?.from}, and this service sends runs through no proxy`,
      };
    // The run options' pacing overrides the config's; the guard travels with the http settings
    // to every client of the run, the suite workers' included (it is plain data).
    const http: typeof loaded.http & Pick<HttpOptions, 'connectGuard'> = {
      ...loaded.http,
      ...(options.maxRequestsPerSecond !== undefined ? { maxRequestsPerSecond: options.maxRequestsPerSecond } : {}),
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      ...(guard ? { connectGuard: guard } : {}),
    };
    const config = { ...loaded, http };
    if (options.baseline) {
      const why = incompatibility(
        { suite: suiteVersion(), target: config.target, configDigest: config.digest } as RunResults,
        options.baseline.results,
      );
      if (why !== undefined)
        return { exitCode: EXIT.usage, problem: `the baseline ${options.baseline.source} cannot be used: ${why}` };
    }
    const shard = options.shard;
    const selected = selectOperations(options.only).filter((op) => !shard || suiteInShard(op.suite, shard));
    // Reporters subscribe to the run's events; the report folder is written when the run finishes.
    const bus = new RunEventBus();
    const reportPaths = subscribeReportFolder(bus, folder.dir, options.artefacts);
    options.subscribe?.(bus);
    // The run folder holds what the workers share (the breaker, the retry budget); the runner's own
    // calls (discovery, the token) take from the same retry budget, at the run's whole rate (no
    // worker runs yet).
    runDir = mkdtempSync(join(tmpdir(), 'conformance-run-'));
    removedOnExit(runDir);
    budget = new RunRetryBudget(runDir, config.http);
    // Ctrl-C reaches every HTTP client of the run: a wait for Retry-After or for a pacing turn ends at once.
    const dirOfRun = runDir;
    stopInterruptHook = () => options.signal?.removeEventListener('abort', onInterrupt);
    const onInterrupt = () => interruptRun(dirOfRun);
    if (options.signal?.aborted) onInterrupt();
    else options.signal?.addEventListener('abort', onInterrupt, { once: true });
    // One pacing state for the run: the runner's calls and every worker's take from it.
    const pacing = options.pacing ?? sharedPacing();
    client = new HttpClient(config.http, undefined, {
      budget,
      pacer: new Pacer(config.http.maxRequestsPerSecond, config.http.concurrency, pacing),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const runnerExchanges = new Map<string, ExchangeRecord>();
    const runnerResults: WorkerResult[] = [];
    const evidence: EvidenceMode = options.evidence ?? 'masked';
    let redactor = Redactor.forRun({
      secrets: allSecretsOf(config),
      evidence,
      fixtures: config.fixtures,
      http: config.http,
    });

    const omitted = config.reservedOperations === 'omit' ? selected.filter((op) => op.reservedForOperator) : [];
    const active = selected.filter((op) => !omitted.includes(op));
    runnerResults.push(...omitted.map(omittedByConfig));

    // Every configured service is discovered so that a selected operation's steps can set up or
    // observe through others (revoke is observed through introspect); only the services of the
    // selected operations must be reachable.
    const services = [...new Set(active.map((op) => op.service))] as ServiceId[];
    const others = (Object.keys(config.services) as ServiceId[]).filter((s) => !services.includes(s));
    const discovery = await discover(client, config.services, services, others).catch((e: unknown) => {
      // A discovery document the guard refused: the refusal is the run's problem, said once.
      const refused = e instanceof TargetUnreachableError ? /Refused: [^(]*[^ (]/.exec(e.message) : null;
      throw refused ? new TargetUnreachableError(refused[0]) : e;
    });
    const token = await obtainToken(client, config.credentials);
    redactor = redactor.with([token]);
    for (const d of discovery.values()) runnerExchanges.set(d.exchange.id, redactor.exchange(d.exchange));

    // Every operation of a discovered service gets its address, so that a selected operation's
    // steps can set up through others (acknowledging lists and gets batches); only selected
    // operations are judged on their discovery key.
    const addresses: Record<string, string> = {};
    for (const op of operations.filter((o) => discovery.get(o.service)?.keys)) {
      const a = addressOf(op, discovery);
      if ('url' in a) addresses[op.id] = a.url;
    }
    // Addresses discovery published are checked before any suite calls them (each call is checked
    // again as it connects: a name may resolve otherwise by then).
    if (guard) {
      const hosts = new Set(Object.values(addresses).map((a) => new URL(a).hostname));
      for (const host of hosts) {
        const refused = await hostRefusal(host, guard);
        if (refused !== undefined) throw new TargetUnreachableError(refused);
      }
    }
    const unaddressable: Record<string, string> = {};
    for (const op of active) {
      const a = addressOf(op, discovery);
      const exchange = discovery.get(op.service)?.exchange.id;
      if (!('url' in a)) unaddressable[op.id] = a.problem;
      const base = discovery.get(op.service)?.documentedBase;
      runnerResults.push(addressedByKey(op, a, exchange, base !== undefined));
      const path = 'url' in a ? documentedPathResult(op, a.url, base, exchange) : undefined;
      if (path) runnerResults.push(path);
    }

    const ctx: RunContext = {
      target: config.target,
      addresses,
      unaddressable,
      token,
      secrets: allSecretsOf(config),
      credentials: config.named,
      basic: config.basic,
      siteId: config.siteId,
      features: config.features,
      fixtures: config.fixtures,
      http: config.http,
      allowDestructive: options.allowDestructive,
      evidence,
      seed,
      runs,
      ...(options.path ? { path: options.path } : {}),
      selected: active.map((op) => op.id),
      runDir,
      pacing,
      ...(options.exchangeLog ? { exchangeLog: resolve(options.exchangeLog) } : {}),
    };
    const suites = [...new Set(active.filter((op) => addresses[op.id]).map((op) => op.suite))];
    marks.discovered = performance.now();
    options.progress?.start(
      active.filter((op) => addresses[op.id]).map((op) => ({ id: op.id, suite: op.suite })),
      runDir,
    );
    await bus.emit({
      type: 'run-started',
      target: redactor.text(config.target),
      operations: active.map((op) => op.id),
      seed,
      runs,
    });
    // Allure results go to the staging folder with the rest of the report; aborted before the
    // suites start, none is started.
    const engine = await runSuites(options.signal?.aborted ? [] : suites, ctx, folder.staging, {
      shard,
      signal: options.signal,
      allure: options.artefacts !== 'results',
      ...(options.workers ? { workers: options.workers } : {}),
      onSuiteStarted: (suite) => {
        options.onSuiteStarted?.(suite);
        options.progress?.suiteStarted(suite);
      },
      onSuiteFinished: (suite) => options.progress?.suiteFinished(suite),
    }).finally(() => options.progress?.stop());
    const crashes = engine.crashes;
    const stray = engine.ran.filter((s) => !suites.includes(s));
    if (stray.length > 0) throw new Error(`Suites outside the shard ran: ${stray.join(', ')}`);
    marks.suitesDone = performance.now();
    const interrupted = options.signal?.aborted === true;
    const events = readEvents(runDir);
    for (const event of events) await bus.emit(event);
    const silent = silentOperations(active, addresses, events, interrupted);
    runnerResults.push(...silent);

    const aggregated = aggregate({
      suite: suiteVersion(),
      target: config.target,
      configDigest: config.digest,
      attestation: config.attestation,
      evidence,
      seed,
      runs,
      allowDestructive: options.allowDestructive,
      only: options.only,
      startedAt,
      finishedAt: new Date().toISOString(),
      operations: selected.map((op) => op.id),
      events,
      runnerExchanges,
      runnerResults: [...runnerResults, ...crashes],
      minCoverage: options.minCoverage,
      ...(shard ? { shard } : {}),
      ...(interrupted ? { interrupted: { notRun: silent.map((r) => r.operation) } } : {}),
    });
    const load = budget.totals();
    const refusedCall = guard ? refusalIn(events) : undefined;
    const results = sealed({
      ...aggregated,
      // What load refusals cost the run (issue 22): retries waited out, and calls left unjudged.
      ...(load.retries + load.gaveUp > 0 ? { load } : {}),
      ...(options.baseline
        ? {
            baseline: applyBaseline(
              aggregated,
              options.baseline.results,
              options.baseline.source,
              options.baseline.failOn,
            ),
          }
        : {}),
    });
    await bus.emit({ type: 'run-finished', results });
    const reports = reportPaths();
    if (!reports) throw new Error('The report folder was not written');
    const timings: RunTimings = {
      startup: marks.start,
      discovery: marks.discovered - marks.start,
      suites: marks.suitesDone - marks.discovered,
      report: performance.now() - marks.suitesDone,
    };
    // A call the guard refused (a name that resolved otherwise at connect time) makes the run's
    // verdict unsafe to give: the run ends with the refusal as its problem, its report kept.
    if (refusedCall !== undefined)
      return { exitCode: EXIT.usage, problem: refusedCall, results, reports, timings, load };
    const exitCode = results.baseline
      ? exitCodeUnderBaseline(results, results.baseline, exitCodeOf(results.verdict))
      : exitCodeOf(results.verdict);
    return { exitCode, results, reports, timings, load };
  } catch (e) {
    if (e instanceof ConfigError || e instanceof TargetUnreachableError)
      return { exitCode: EXIT.usage, problem: e.message };
    if (e instanceof ReportFolderError) return { exitCode: EXIT.usage, problem: `Report folder ${e.message}` };
    throw e;
  } finally {
    stopInterruptHook?.();
    ownClaim?.release();
    await client?.close();
    if (runDir) {
      rmSync(runDir, { recursive: true, force: true });
      runDirs.delete(runDir);
    }
  }
}
