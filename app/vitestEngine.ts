/**
 * The vitest engine of a run: starts vitest on the selected suites with the run context provided
 * to the workers, Allure results written through allure-vitest (masked), and suite crashes (a test
 * that threw for a reason other than a recorded MUST failure) turned into `error` results, so that
 * a broken suite never looks conformant.
 *
 * The run's pacing (config `http.maxRequestsPerSecond`, `http.concurrency`) holds for the run as a
 * whole: the workers are threads, and every one paces its calls by the run's one pacing state in
 * shared memory (RunContext `pacing`, core/http.ts sharedPacing), so a worker whose suite sends
 * independent requests together may use the places in flight another worker leaves free. With a
 * concurrency below the number of workers, fewer workers run.
 */
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reporter, TestCase, TestModule, TestSpecification } from 'vitest/node';
import type { WorkerResult } from '../core/events.ts';
import { Redactor } from '../core/redact.ts';
import type { RunContext } from '../core/runContext.ts';
import { suiteCrashed } from './runnerResults.ts';
import { type Shard, suiteInShard } from './shard.ts';
import { SUITE_SUFFIX, SUITES_TEST_OPTIONS } from './suitesConfig.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const RECORDED = '[conformance]';

class SuiteCrashCollector implements Reporter {
  readonly results: WorkerResult[] = [];

  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.result();
    if (result.state !== 'failed') return;
    const errors = (result.errors ?? []).filter((e) => !String(e.message ?? '').startsWith(RECORDED));
    if (errors.length === 0) return;
    const operation = topSuiteName(testCase);
    const why = String(errors[0].message ?? 'unknown error').split('\n')[0];
    this.results.push(suiteCrashed(operation, `The suite step "${testCase.name}" stopped: ${why}`, testCase.fullName));
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    for (const m of modules) {
      const errors = m.errors();
      if (errors.length === 0) continue;
      const suite = suiteOf(m.moduleId);
      const why = String(errors[0].message ?? 'unknown error').split('\n')[0];
      this.results.push(suiteCrashed(suite, `The suite file could not run: ${why}`));
    }
  }
}

function topSuiteName(testCase: TestCase): string {
  let parent = testCase.parent;
  let name = '';
  while (parent && parent.type === 'suite') {
    name = parent.name;
    parent = parent.parent;
  }
  return name || testCase.module.moduleId;
}

export interface EngineOptions {
  /** Run only this shard's suite files (vitest's sharding, with coupled suites kept together). */
  shard?: Shard;
  /** Told when a suite file starts and when it has run (progress output). */
  onSuiteStarted?: (suite: string) => void;
  onSuiteFinished?: (suite: string) => void;
  /** Aborting cancels the run: suites not yet started are not run (Ctrl-C). */
  signal?: AbortSignal;
  /** False: no allure-results (a run whose only reader is results.json: the self-test's batches). */
  allure?: boolean;
  /** Worker threads for the suite files (default: the suites' options, 2). */
  workers?: number;
}

/**
 * A target whose quickest discovery call took this long or longer (ms) is far: a run against it
 * waits on its calls, not on the CPU.
 */
export const FAR_TARGET_MS = 20;

/**
 * Worker threads for a target at this round trip, unless the caller chose: the suites' default (2)
 * near (on loopback the run is bound by the CPU, and each thread costs its own start and about
 * 90 MB), 4 far, where each suite file mostly waits on calls that must go one after another (a
 * state sequence, a create before its read) and more files at once fill the calls allowed in
 * flight (`npm run bench -- --latency 50`: 75 s with 2, 60 s with 4, the floor 31 s).
 */
export function workersForRoundTrip(ms: number | undefined): number | undefined {
  return ms !== undefined && ms >= FAR_TARGET_MS ? 4 : undefined;
}

/** Worker threads that may run at once: never more than the suite files, nor than the calls allowed in flight. */
export function workerCount(files: number, http: Pick<RunContext['http'], 'concurrency'>, workers?: number): number {
  const wanted = workers ?? SUITES_TEST_OPTIONS.maxWorkers;
  const most = typeof wanted === 'number' ? wanted : 2;
  return Math.max(1, Math.min(most, files, http.concurrency ?? most));
}

const suiteOf = (moduleId: string): string => moduleId.split('/').pop()?.replace(SUITE_SUFFIX, '') ?? 'unknown';

export interface EngineOutcome {
  crashes: WorkerResult[];
  /** The suite files vitest ran (after sharding). */
  ran: string[];
  /** The worker threads the suite files ran in (0 when none ran). */
  workers: number;
}

export async function runSuites(
  suites: readonly string[],
  ctx: RunContext,
  reportDir: string,
  options: EngineOptions = {},
): Promise<EngineOutcome> {
  // Allure results of an earlier run into the same folder must never mix with this run's, even
  // when this run has no suite to start.
  const allureResults = resolve(reportDir, 'allure-results');
  rmSync(allureResults, { recursive: true, force: true });
  if (suites.length === 0) return { crashes: [], ran: [], workers: 0 };
  const { startVitest, BaseSequencer } = await import('vitest/node');
  const shard = options.shard;
  /** vitest's sequencer with our shard(): a file belongs to the shard of its coupled suite group. */
  class CoupledGroupSequencer extends BaseSequencer {
    override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
      return shard ? files.filter((f) => suiteInShard(suiteOf(f.moduleId), shard)) : files;
    }
  }
  const ran: string[] = [];
  let cancel: (() => void) | undefined;
  const ownListeners = new Set<unknown>([...process.listeners('SIGINT'), ...process.listeners('SIGTERM')]);
  const lifecycle: Reporter = {
    onInit: (vitest) => {
      cancel = () => void vitest.cancelCurrentRun('keyboard-input');
      if (options.signal?.aborted) cancel();
      // vitest's logger exits the process on SIGINT and SIGTERM; when the caller handles
      // interruption (a signal is given), the run is cancelled instead, so that the results judged
      // so far are reported and the run folder is removed.
      if (!options.signal) return;
      for (const name of ['SIGINT', 'SIGTERM'] as const) {
        for (const listener of process.listeners(name)) if (!ownListeners.has(listener)) process.off(name, listener);
      }
    },
    onTestModuleStart: (m) => {
      ran.push(suiteOf(m.moduleId));
      options.onSuiteStarted?.(suiteOf(m.moduleId));
    },
    onTestModuleEnd: (m) => options.onSuiteFinished?.(suiteOf(m.moduleId)),
  };
  const { default: AllureReporter } = await import('allure-vitest/reporter');
  const collector = new SuiteCrashCollector();
  // What the suites send is masked already; a test's failure text comes from vitest (a crashed
  // step's error can quote anything), so the run's known secrets and personal values are masked there too.
  const redactor = Redactor.forRun({ ...ctx, secrets: [ctx.token, ...ctx.secrets] });
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
  const files = suites.map((s) => join(ROOT, 'suites', `${s}${SUITE_SUFFIX}`));
  const workers = workerCount(files.length, ctx.http, options.workers);
  const previousExitCode = process.exitCode;
  const onAbort = () => cancel?.();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const vitest = await startVitest('test', files, {
    config: false,
    ...SUITES_TEST_OPTIONS,
    maxWorkers: workers,
    root: ROOT,
    watch: false,
    reporters: options.allure === false ? [collector, lifecycle] : [collector, allure, lifecycle],
    ...(shard ? { shard: `${shard.index}/${shard.count}`, sequence: { sequencer: CoupledGroupSequencer } } : {}),
    // allure-vitest skips every test missing from an Allure test plan named by this variable (set
    // by Allure TestOps in CI): what the suite judges is chosen by --only, never by the environment.
    env: { ALLURE_TESTPLAN_PATH: '' },
    // The pacing state goes as shared memory: the pool is threads (app/suitesConfig.ts).
    provide: { conformance: { ...ctx, workers } },
  });
  options.signal?.removeEventListener('abort', onAbort);
  await vitest.close();
  process.exitCode = previousExitCode; // vitest sets it for failed tests; the verdict decides ours
  return { crashes: collector.results, ran, workers };
}
