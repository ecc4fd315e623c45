/**
 * `conformance run`: config, discovery, token, the vitest suites, aggregation, reports.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { operations } from '../spec/operations.ts';
import { loadRequirements } from '../spec/requirements.ts';
import type { Operation, ServiceId } from '../spec/types.ts';
import { writeReports, type ReportPaths } from '../reports/writeReports.ts';
import { aggregate } from './aggregate.ts';
import { sealed } from './integrity.ts';
import { allSecretsOf, ConfigError, loadConfig } from './config.ts';
import { addressOf, discover, TargetUnreachableError } from './discovery.ts';
import { readEvents } from './events.ts';
import type { RunEvent, WorkerResult } from './events.ts';
import { HttpClient } from './http.ts';
import { Redactor, type EvidenceMode } from './redact.ts';
import type { ExchangeRecord, RunResults } from './results.ts';
import { EXIT, exitCodeOf } from './results.ts';
import type { RunContext } from './runContext.ts';
import { obtainToken } from './token.ts';
import { SuiteCrashCollector } from './vitestBridge.ts';
import { suiteVersion } from './suiteVersion.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface RunOptions {
  target: string;
  config?: string;
  only?: string;
  reportDir: string;
  allowDestructive: boolean;
  seed?: number;
  runs?: number;
  path?: string;
  /** `masked` (default) masks personal data in every artefact; `full` keeps it (secrets stay masked). */
  evidence?: EvidenceMode;
  /** Minimum judged share of the testable MUST requirements in scope, 0 to 1 (core/coverage.ts). */
  minCoverage?: number;
}

export interface RunOutcome {
  exitCode: number;
  results?: RunResults;
  reports?: ReportPaths;
  /** One-line reason when the run could not start (exit 2). */
  problem?: string;
}

/**
 * Testable requirements that the discovery of an operation's address judges: the ones stating
 * that the operation is addressed by its key, or that addresses come from a discovery document.
 */
export function addressRequirementsOf(op: Operation): string[] {
  return loadRequirements()
    .filter((r) => r.notTestedReason === '' && r.operations.includes(op.id))
    .filter((r) => r.text.includes(`\`${op.discoveryKey}\``) || /discovery document/i.test(r.text))
    .map((r) => r.id);
}

/**
 * An addressed, selected operation on which the suites recorded nothing was not judged at all
 * (its tests were filtered out or never collected): a MUST error, so the run cannot look
 * conformant on discovery alone. Omitted destructive steps are results, so they do not count.
 */
export function silentOperations(
  active: readonly Operation[],
  addresses: Record<string, string>,
  events: readonly RunEvent[],
): WorkerResult[] {
  const judged = new Set(events.flatMap((e) => (e.type === 'check-evaluated' ? [e.result.operation] : [])));
  return active
    .filter((op) => addresses[op.id] !== undefined && !judged.has(op.id))
    .map((op) => ({
      check: 'suite-ran',
      summary: 'The suites judged the operation',
      operation: op.id,
      requirements: [],
      level: 'MUST' as const,
      status: 'error' as const,
      message: 'Expected the suites to record results for this operation, received none (were its tests filtered out?)',
    }));
}

/** `--only` patterns: comma-separated operation ids with `*` wildcards. */
export function selectOperations(only: string | undefined): Operation[] {
  if (!only) return [...operations];
  const patterns = only
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const regexes = patterns.map((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`));
  const picked = operations.filter((op) => regexes.some((r) => r.test(op.id)));
  if (picked.length === 0)
    throw new ConfigError(`--only ${only} matches no operation (see spec/operations.ts for ids)`);
  return picked;
}

export { suiteVersion };

export async function runConformance(options: RunOptions): Promise<RunOutcome> {
  const startedAt = new Date().toISOString();
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const runs = options.runs ?? 25;
  let client: HttpClient | undefined;
  let runDir: string | undefined;
  try {
    const config = loadConfig({ file: options.config, target: options.target });
    const selected = selectOperations(options.only);
    client = new HttpClient(config.http);
    const runnerExchanges = new Map<string, ExchangeRecord>();
    const runnerResults: WorkerResult[] = [];
    const evidence: EvidenceMode = options.evidence ?? 'masked';
    let redactor = new Redactor(allSecretsOf(config), {
      personalData: evidence === 'masked',
      personalValues: Redactor.personalValuesOf(config.fixtures),
    });

    const omitted = config.reservedOperations === 'omit' ? selected.filter((op) => op.reservedForOperator) : [];
    const active = selected.filter((op) => !omitted.includes(op));
    for (const op of omitted) {
      runnerResults.push({
        check: 'operation-in-scope',
        summary: 'The operation is in the scope of this run',
        operation: op.id,
        requirements: [],
        level: 'INFO',
        status: 'omit',
        message: "Reserved for the operator's products and omitted by the config (reservedOperations: omit, DEC-D1-33)",
      });
    }

    // Every configured service is discovered so that a selected operation's steps can set up or
    // observe through others (revoke is observed through introspect); only the services of the
    // selected operations must be reachable.
    const services = [...new Set(active.map((op) => op.service))] as ServiceId[];
    const others = (Object.keys(config.services) as ServiceId[]).filter((s) => !services.includes(s));
    const discovery = await discover(client, config.services, services, others);
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
    const unaddressable: Record<string, string> = {};
    for (const op of active) {
      const a = addressOf(op, discovery);
      const exchange = discovery.get(op.service)?.exchange.id;
      if (!('url' in a)) unaddressable[op.id] = a.problem;
      runnerResults.push({
        check: 'discovery-key-present',
        summary: "The discovery document gives the operation's address by its key",
        operation: op.id,
        requirements: addressRequirementsOf(op),
        level: 'MUST',
        status: 'url' in a ? 'pass' : 'fail',
        message: 'url' in a ? `${op.discoveryKey} = ${a.url}` : a.problem,
        exchange,
      });
    }

    runDir = mkdtempSync(join(tmpdir(), 'conformance-run-'));
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
    };
    const suites = [...new Set(active.filter((op) => addresses[op.id]).map((op) => op.suite))];
    const crashes = await runSuites(suites, ctx, options.reportDir);
    const events = readEvents(runDir);
    runnerResults.push(...silentOperations(active, addresses, events));

    const results = sealed(
      aggregate({
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
      }),
    );
    const reports = await writeReports(results, resolve(options.reportDir));
    return { exitCode: exitCodeOf(results.verdict), results, reports };
  } catch (e) {
    if (e instanceof ConfigError || e instanceof TargetUnreachableError)
      return { exitCode: EXIT.usage, problem: e.message };
    throw e;
  } finally {
    await client?.close();
    if (runDir) rmSync(runDir, { recursive: true, force: true });
  }
}

async function runSuites(suites: readonly string[], ctx: RunContext, reportDir: string): Promise<WorkerResult[]> {
  // Allure results of an earlier run into the same folder must never mix with this run's, even
  // when this run has no suite to start.
  const allureResults = resolve(reportDir, 'allure-results');
  rmSync(allureResults, { recursive: true, force: true });
  if (suites.length === 0) return [];
  const { startVitest } = await import('vitest/node');
  const { default: AllureReporter } = await import('allure-vitest/reporter');
  const collector = new SuiteCrashCollector();
  // What the suites send is masked already; a test's failure text comes from vitest (a crashed
  // step's error can quote anything), so the run's known secrets and personal values are masked there too.
  const redactor = new Redactor([ctx.token, ...ctx.secrets], {
    personalData: ctx.evidence !== 'full',
    personalValues: Redactor.personalValuesOf(ctx.fixtures),
  });
  const allure = new AllureReporter({
    resultsDir: allureResults,
    // allure-vitest would record every expect() call with its values, unmasked: the suites' own
    // steps (one per judged result) say what was judged.
    reportMatchers: false,
    environmentInfo: { target: redactor.text(ctx.target), seed: String(ctx.seed) },
    listeners: [
      {
        beforeTestResultWrite: (result) => {
          const d = result.statusDetails;
          if (d.message) d.message = redactor.text(d.message);
          if (d.trace) d.trace = redactor.text(d.trace);
          if (d.actual) d.actual = redactor.text(d.actual);
          if (d.expected) d.expected = redactor.text(d.expected);
        },
      },
    ],
  });
  const files = suites.map((s) => join(ROOT, 'suites', `${s}.suite.ts`));
  const previousExitCode = process.exitCode;
  const vitest = await startVitest('test', files, {
    config: join(ROOT, 'suites.vitest.config.ts'),
    root: ROOT,
    watch: false,
    reporters: [collector, allure],
    // allure-vitest skips every test missing from an Allure test plan named by this variable (set
    // by Allure TestOps in CI): what the suite judges is chosen by --only, never by the environment.
    env: { ALLURE_TESTPLAN_PATH: '' },
    provide: { conformance: ctx },
  });
  await vitest.close();
  process.exitCode = previousExitCode; // vitest sets it for failed tests; the verdict decides ours
  return collector.results;
}
