/**
 * `conformance run`: config, discovery, token, the vitest suites, aggregation, reports.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { operations } from '../spec/operations.ts';
import type { Operation, ServiceId } from '../spec/types.ts';
import { writeReports } from '../reports/writeReports.ts';
import { aggregate } from './aggregate.ts';
import { allSecretsOf, ConfigError, loadConfig } from './config.ts';
import { addressOf, discover, TargetUnreachableError } from './discovery.ts';
import { readEvents } from './events.ts';
import type { WorkerResult } from './events.ts';
import { HttpClient } from './http.ts';
import { Redactor, type EvidenceMode } from './redact.ts';
import type { ExchangeRecord, RunResults } from './results.ts';
import { EXIT, exitCodeOf } from './results.ts';
import type { RunContext } from './runContext.ts';
import { obtainToken } from './token.ts';
import { SuiteCrashCollector } from './vitestBridge.ts';

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
}

export interface RunOutcome {
  exitCode: number;
  results?: RunResults;
  reports?: { resultsJson: string; junitXml: string; reportHtml: string };
  /** One-line reason when the run could not start (exit 2). */
  problem?: string;
}

/** `--only` patterns: comma-separated operation ids with `*` wildcards. */
export function selectOperations(only: string | undefined): Operation[] {
  if (!only) return [...operations];
  const patterns = only.split(',').map((p) => p.trim()).filter(Boolean);
  const regexes = patterns.map((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`));
  const picked = operations.filter((op) => regexes.some((r) => r.test(op.id)));
  if (picked.length === 0) throw new ConfigError(`--only ${only} matches no operation (see spec/operations.ts for ids)`);
  return picked;
}

export function suiteVersion(): { name: string; version: string } {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version };
}

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
    let redactor = new Redactor(allSecretsOf(config), { personalData: evidence === 'masked' });

    const omitted = config.reservedOperations === 'omit' ? selected.filter((op) => op.reservedForOperator) : [];
    const active = selected.filter((op) => !omitted.includes(op));
    for (const op of omitted) {
      runnerResults.push({
        check: 'operation-in-scope', summary: 'The operation is in the scope of this run', operation: op.id, requirements: [],
        level: 'INFO', status: 'omit', message: 'Reserved for the operator\'s products and omitted by the config (reservedOperations: omit, DEC-D1-33)',
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
        check: 'discovery-key-present', summary: 'The discovery document gives the operation\'s address by its key', operation: op.id,
        requirements: ['D1-1-04'], level: 'MUST', status: 'url' in a ? 'pass' : 'fail',
        message: 'url' in a ? `${op.discoveryKey} = ${a.url}` : a.problem, exchange,
      });
    }

    runDir = mkdtempSync(join(tmpdir(), 'conformance-run-'));
    const ctx: RunContext = {
      target: config.target, addresses, unaddressable, token, secrets: allSecretsOf(config), credentials: config.named, basic: config.basic, siteId: config.siteId,
      features: config.features, fixtures: config.fixtures, http: config.http, allowDestructive: options.allowDestructive, evidence,
      seed, runs, ...(options.path ? { path: options.path } : {}), selected: active.map((op) => op.id), runDir,
    };
    const suites = [...new Set(active.filter((op) => addresses[op.id]).map((op) => op.suite))];
    const crashes = await runSuites(suites, ctx);

    const results = aggregate({
      suite: suiteVersion(), target: config.target, configDigest: config.digest, seed, runs,
      allowDestructive: options.allowDestructive, only: options.only, startedAt, finishedAt: new Date().toISOString(),
      operations: selected.map((op) => op.id), events: readEvents(runDir), runnerExchanges,
      runnerResults: [...runnerResults, ...crashes],
    });
    const reports = await writeReports(results, resolve(options.reportDir));
    return { exitCode: exitCodeOf(results.verdict), results, reports };
  } catch (e) {
    if (e instanceof ConfigError || e instanceof TargetUnreachableError) return { exitCode: EXIT.usage, problem: e.message };
    throw e;
  } finally {
    await client?.close();
    if (runDir) rmSync(runDir, { recursive: true, force: true });
  }
}

async function runSuites(suites: readonly string[], ctx: RunContext): Promise<WorkerResult[]> {
  if (suites.length === 0) return [];
  const { startVitest } = await import('vitest/node');
  const collector = new SuiteCrashCollector();
  const files = suites.map((s) => join(ROOT, 'suites', `${s}.suite.ts`));
  const previousExitCode = process.exitCode;
  const vitest = await startVitest('test', files, {
    config: join(ROOT, 'suites.vitest.config.ts'),
    root: ROOT,
    watch: false,
    reporters: [collector],
    provide: { conformance: ctx },
  });
  await vitest.close();
  process.exitCode = previousExitCode; // vitest sets it for failed tests; the verdict decides ours
  return collector.results;
}
