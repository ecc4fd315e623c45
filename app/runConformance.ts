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
import type { Operation, ServiceId } from '../spec/types.ts';
import { addressedByKey, documentedPathResult, omittedByConfig, silentOperations } from './runnerResults.ts';
import { selectOperations } from './selectOperations.ts';
import type { ProgressSink } from './progress.ts';
import { type Shard, suiteInShard } from './shard.ts';
import { runSuites, workersForRoundTrip } from './vitestEngine.ts';

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
  /** The worker threads the suites ran in: 2 by default, 4 against a far target (workersForRoundTrip). */
  suiteWorkers?: number;
  /** The quickest discovery call's time, in ms, from which a far target is told. */
  targetRoundTripMs?: number;
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

/** The run's seed and property runs. */
type SeedAndRuns = { seed: number; runs: number };

/** What a run holds while it runs, given back whatever way it ends. */
class RunHoldings {
  client?: HttpClient;
  runDir?: string;
  ownClaim?: ReportFolderClaim;
  stopInterruptHook?: () => void;

  async release(): Promise<void> {
    this.stopInterruptHook?.();
    this.ownClaim?.release();
    await this.client?.close();
    if (this.runDir) {
      rmSync(this.runDir, { recursive: true, force: true });
      runDirs.delete(this.runDir);
    }
  }
}

/** The run as configured: its report folder, config with the run's pacing, and the operations it judges. */
interface Prepared {
  folder: ReportFolderClaim;
  config: ReturnType<typeof loadConfig> & {
    http: ReturnType<typeof loadConfig>['http'] & Pick<HttpOptions, 'connectGuard'>;
  };
  guard?: ConnectGuard;
  shard?: Shard;
  selected: Operation[];
}

/**
 * Phase 1, before any request: the report folder (a folder in use or unwritable stops the run
 * first), the config, the run options' pacing over the config's, and the baseline's fit.
 */
function prepareRun(options: RunOptions, holdings: RunHoldings): Prepared | { refused: RunOutcome } {
  const reportRoot = resolve(options.reportDir);
  let folder = heldReportFolder(reportRoot);
  if (!folder) {
    holdings.ownClaim = claimReportFolder(reportRoot, options.reportDir);
    folder = holdings.ownClaim;
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
      refused: {
        exitCode: EXIT.usage,
        problem: `Refused: the run would go through the proxy of ${loaded.http.proxy.https?.from ?? loaded.http.proxy.http?.from}, and this service sends runs through no proxy`,
      },
    };
  // The run options' pacing overrides the config's; the guard travels with the http settings
  // to every client of the run, the suite workers' included (it is plain data).
  const http = {
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
      return {
        refused: { exitCode: EXIT.usage, problem: `the baseline ${options.baseline.source} cannot be used: ${why}` },
      };
  }
  const shard = options.shard;
  const selected = selectOperations(options.only).filter((op) => !shard || suiteInShard(op.suite, shard));
  return { folder, config, ...(guard ? { guard } : {}), ...(shard ? { shard } : {}), selected };
}

/** The run under way: its events, its shared folder and pacing, its client, and what the runner decided itself. */
interface Opened {
  bus: RunEventBus;
  reportPaths: () => ReportPaths | undefined;
  runDir: string;
  budget: RunRetryBudget;
  pacing: SharedArrayBuffer;
  client: HttpClient;
  evidence: EvidenceMode;
  redactor: Redactor;
  /** The selected operations the config does not leave out. */
  active: Operation[];
  runnerExchanges: Map<string, ExchangeRecord>;
  runnerResults: WorkerResult[];
}

/** Phase 2: the reporters subscribed, the run folder the workers share, Ctrl-C wired, one pacing state and client. */
function openRun(options: RunOptions, prepared: Prepared, holdings: RunHoldings): Opened {
  const { config, selected } = prepared;
  // Reporters subscribe to the run's events; the report folder is written when the run finishes.
  const bus = new RunEventBus();
  const reportPaths = subscribeReportFolder(bus, prepared.folder.dir, options.artefacts);
  options.subscribe?.(bus);
  // The run folder holds what the workers share (the breaker, the retry budget); the runner's own
  // calls (discovery, the token) take from the same retry budget, at the run's whole rate (no
  // worker runs yet).
  const runDir = mkdtempSync(join(tmpdir(), 'conformance-run-'));
  holdings.runDir = runDir;
  removedOnExit(runDir);
  const budget = new RunRetryBudget(runDir, config.http);
  // Ctrl-C reaches every HTTP client of the run: a wait for Retry-After or for a pacing turn ends at once.
  const onInterrupt = () => interruptRun(runDir);
  holdings.stopInterruptHook = () => options.signal?.removeEventListener('abort', onInterrupt);
  if (options.signal?.aborted) onInterrupt();
  else options.signal?.addEventListener('abort', onInterrupt, { once: true });
  // One pacing state for the run: the runner's calls and every worker's take from it.
  const pacing = options.pacing ?? sharedPacing();
  const client = new HttpClient(config.http, undefined, {
    budget,
    pacer: new Pacer(config.http.maxRequestsPerSecond, config.http.concurrency, pacing),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  holdings.client = client;
  const evidence: EvidenceMode = options.evidence ?? 'masked';
  const redactor = Redactor.forRun({
    secrets: allSecretsOf(config),
    evidence,
    fixtures: config.fixtures,
    http: config.http,
  });
  const omitted = config.reservedOperations === 'omit' ? selected.filter((op) => op.reservedForOperator) : [];
  const active = selected.filter((op) => !omitted.includes(op));
  return {
    bus,
    reportPaths,
    runDir,
    budget,
    pacing,
    client,
    evidence,
    redactor,
    active,
    runnerExchanges: new Map(),
    runnerResults: omitted.map(omittedByConfig),
  };
}

/** The target reached: what the suite workers are given, and the suites that have an operation to judge. */
interface Connected {
  ctx: RunContext;
  addresses: Record<string, string>;
  suites: string[];
  redactor: Redactor;
  /** The time of the quickest answered discovery call, in ms: how far the target is. */
  roundTripMs?: number;
}

/**
 * Phase 3: every configured service discovered, the run's token, each operation's address (checked
 * by the guard before any suite calls it) and the runner's results on addressing.
 */
async function connectToTarget(
  options: RunOptions,
  prepared: Prepared,
  opened: Opened,
  run: SeedAndRuns,
): Promise<Connected> {
  const { config, guard } = prepared;
  const { client, active, runnerExchanges, runnerResults } = opened;
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
  const redactor = opened.redactor.with([token]);
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
    evidence: opened.evidence,
    seed: run.seed,
    runs: run.runs,
    ...(options.path ? { path: options.path } : {}),
    selected: active.map((op) => op.id),
    runDir: opened.runDir,
    pacing: opened.pacing,
    ...(options.exchangeLog ? { exchangeLog: resolve(options.exchangeLog) } : {}),
  };
  const suites = [...new Set(active.filter((op) => addresses[op.id]).map((op) => op.suite))];
  // The quickest answered discovery call: the target's distance, the least touched by its own load.
  const times = [...discovery.values()]
    .filter((d) => d.exchange.response !== undefined)
    .map((d) => d.exchange.durationMs);
  const roundTripMs = times.length > 0 ? Math.min(...times) : undefined;
  return { ctx, addresses, suites, redactor, ...(roundTripMs !== undefined ? { roundTripMs } : {}) };
}

/** What the suites left: their events, the suites that crashed, and the operations none judged. */
interface Judged {
  events: ReturnType<typeof readEvents>;
  crashes: WorkerResult[];
  silent: WorkerResult[];
  interrupted: boolean;
  workers: number;
}

/** Phase 4: the suites run by the vitest engine (none when interrupted first), their events replayed to the reporters. */
async function judgeSuites(
  options: RunOptions,
  prepared: Prepared,
  opened: Opened,
  connected: Connected,
  run: SeedAndRuns,
): Promise<Judged> {
  const { active, bus } = opened;
  const { addresses, suites, ctx } = connected;
  options.progress?.start(
    active.filter((op) => addresses[op.id]).map((op) => ({ id: op.id, suite: op.suite })),
    opened.runDir,
  );
  await bus.emit({
    type: 'run-started',
    target: connected.redactor.text(prepared.config.target),
    operations: active.map((op) => op.id),
    seed: run.seed,
    runs: run.runs,
  });
  const workers = options.workers || workersForRoundTrip(connected.roundTripMs);
  // Allure results go to the staging folder with the rest of the report; aborted before the
  // suites start, none is started.
  const engine = await runSuites(options.signal?.aborted ? [] : suites, ctx, prepared.folder.staging, {
    shard: prepared.shard,
    signal: options.signal,
    allure: options.artefacts !== 'results',
    // The caller's choice, or more threads for a far target (app/vitestEngine.ts workersForRoundTrip).
    ...(workers !== undefined ? { workers } : {}),
    onSuiteStarted: (suite) => {
      options.onSuiteStarted?.(suite);
      options.progress?.suiteStarted(suite);
    },
    onSuiteFinished: (suite) => options.progress?.suiteFinished(suite),
  }).finally(() => options.progress?.stop());
  const stray = engine.ran.filter((s) => !suites.includes(s));
  if (stray.length > 0) throw new Error(`Suites outside the shard ran: ${stray.join(', ')}`);
  const interrupted = options.signal?.aborted === true;
  const events = readEvents(opened.runDir);
  for (const event of events) await bus.emit(event);
  const silent = silentOperations(active, addresses, events, interrupted);
  return { events, crashes: engine.crashes, silent, interrupted, workers: engine.workers };
}

/**
 * Phase 5: the results aggregated, weighed against the baseline and sealed, the report folder
 * written, and the exit code.
 */
async function concludeRun(
  options: RunOptions,
  prepared: Prepared,
  opened: Opened,
  connected: Connected,
  judged: Judged,
  run: {
    seed: number;
    runs: number;
    startedAt: string;
    marks: { start: number; discovered: number; suitesDone: number };
  },
): Promise<RunOutcome> {
  const { config, selected, shard, guard } = prepared;
  const { events, silent, interrupted } = judged;
  const aggregated = aggregate({
    suite: suiteVersion(),
    target: config.target,
    configDigest: config.digest,
    attestation: config.attestation,
    evidence: opened.evidence,
    seed: run.seed,
    runs: run.runs,
    allowDestructive: options.allowDestructive,
    only: options.only,
    startedAt: run.startedAt,
    finishedAt: new Date().toISOString(),
    operations: selected.map((op) => op.id),
    events,
    runnerExchanges: opened.runnerExchanges,
    runnerResults: [...opened.runnerResults, ...silent, ...judged.crashes],
    minCoverage: options.minCoverage,
    ...(shard ? { shard } : {}),
    ...(interrupted ? { interrupted: { notRun: silent.map((r) => r.operation) } } : {}),
  });
  const load = opened.budget.totals();
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
  await opened.bus.emit({ type: 'run-finished', results });
  const reports = opened.reportPaths();
  if (!reports) throw new Error('The report folder was not written');
  const { marks } = run;
  const timings: RunTimings = {
    startup: marks.start,
    discovery: marks.discovered - marks.start,
    suites: marks.suitesDone - marks.discovered,
    report: performance.now() - marks.suitesDone,
  };
  // A call the guard refused (a name that resolved otherwise at connect time) makes the run's
  // verdict unsafe to give: the run ends with the refusal as its problem, its report kept.
  const suiteWorkers = judged.workers;
  const far = connected.roundTripMs !== undefined ? { targetRoundTripMs: connected.roundTripMs } : {};
  if (refusedCall !== undefined)
    return { exitCode: EXIT.usage, problem: refusedCall, results, reports, timings, load, suiteWorkers, ...far };
  const exitCode = results.baseline
    ? exitCodeUnderBaseline(results, results.baseline, exitCodeOf(results.verdict))
    : exitCodeOf(results.verdict);
  return { exitCode, results, reports, timings, load, suiteWorkers, ...far };
}

/**
 * One run of the suite against a target, in five phases: prepared (folder, config), opened
 * (events, pacing, client), connected (discovery, token, addresses), judged (the suites), concluded
 * (results, report, exit code). A usage problem at any phase is the outcome's one line (exit 2).
 */
export async function runConformance(options: RunOptions): Promise<RunOutcome> {
  const startedAt = new Date().toISOString();
  const marks = { start: performance.now(), discovered: 0, suitesDone: 0 };
  const run = { seed: options.seed ?? Math.floor(Math.random() * 2 ** 31), runs: options.runs ?? 25 };
  const holdings = new RunHoldings();
  try {
    const prepared = prepareRun(options, holdings);
    if ('refused' in prepared) return prepared.refused;
    const opened = openRun(options, prepared, holdings);
    const connected = await connectToTarget(options, prepared, opened, run);
    marks.discovered = performance.now();
    const judged = await judgeSuites(options, prepared, opened, connected, run);
    marks.suitesDone = performance.now();
    return await concludeRun(options, prepared, opened, connected, judged, { ...run, startedAt, marks });
  } catch (e) {
    if (e instanceof ConfigError || e instanceof TargetUnreachableError)
      return { exitCode: EXIT.usage, problem: e.message };
    if (e instanceof ReportFolderError) return { exitCode: EXIT.usage, problem: `Report folder ${e.message}` };
    throw e;
  } finally {
    await holdings.release();
  }
}
