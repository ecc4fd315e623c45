/**
 * `conformance run`: judge a server against the documents and write the report folder. The run
 * options and the judging itself are shared with `start` (start.ts), which runs against the
 * embedded sandbox.
 */
import { commandName } from '../core/commandName.ts';
import type { ReportFolderClaim } from '../reports/reportFolder.ts';
import type { RunOptions } from '../app/runConformance.ts';
import {
  type Command,
  claimReportDir,
  EXIT,
  evidenceMode,
  integer,
  type Out,
  parse,
  percent,
  quietLines,
  reportDirOption,
  UsageError,
  type Values,
} from './command.ts';
import { endInterrupted, onInterrupt } from './interrupt.ts';

const CMD = commandName();

export const RUN_OPTIONS: [string, string][] = [
  ['--config FILE', `the target config (${CMD} init writes a starter); default: the sandbox demo config`],
  ['--only LIST', 'operations to judge: ids with * wildcards, or a document (D1, D2, D3), comma-separated'],
  [
    '--report-dir DIR',
    'where the report folder is written (default conformance-report); one run at a time, the previous report kept until this one is whole',
  ],
  ['--allow-destructive', 'also run the steps that create, change or delete data on the target'],
  ['--seed N', 'seed of the generated cases, 0 to 2147483647 (a run prints it; the same seed gives the same cases)'],
  ['--runs N', 'cases per property (default 25)'],
  ['--path PATH', 'replay one generated case (with --seed; a failure prints both)'],
  ['--evidence masked|full', 'masked (default) masks personal data in every artefact; full keeps it'],
  ['--min-coverage PERCENT', 'least share of the testable MUST requirements judged for a verdict (default 90)'],
  ['--shard I/N', `judge part I of N (coupled suites stay together); join the parts with ${CMD} merge`],
  [
    '--max-requests-per-second N',
    'start at most N requests a second, over the whole run (1 to 100000; default: the config, else no limit)',
  ],
  [
    '--concurrency N',
    'have at most N calls in flight at once, over the whole run (1 to 1000; default: the config, else 8); the results are the same whatever N',
  ],
  ['--quiet', 'print only the verdict and where the report is'],
  [
    '--baseline DIR',
    'compare with an earlier run of the same suite version, target and config (its report folder or results.json): each finding new, still failing or fixed',
  ],
  [
    '--fail-on new|any',
    'with --baseline: new exits 1 only for new MUST findings (the verdict still says what it is); default any',
  ],
];

export const runFlags = {
  target: { type: 'string' },
  config: { type: 'string' },
  only: { type: 'string' },
  'report-dir': { type: 'string' },
  'allow-destructive': { type: 'boolean' },
  seed: { type: 'string' },
  runs: { type: 'string' },
  path: { type: 'string' },
  evidence: { type: 'string' },
  'min-coverage': { type: 'string' },
  shard: { type: 'string' },
  quiet: { type: 'boolean' },
  'max-requests-per-second': { type: 'string' },
  concurrency: { type: 'string' },
  baseline: { type: 'string' },
  'fail-on': { type: 'string' },
} as const;

/**
 * The target a `--config` file names (its `"target"`, as `init --target` writes it), when no
 * `--target` is given; undefined when there is no config or it names none (a config that cannot be
 * read is the run's to report, as ever).
 */
async function configTarget(values: Values): Promise<string | undefined> {
  if (typeof values.config !== 'string' || values.config === '') return undefined;
  const { readConfigFile } = await import('../core/config.ts');
  try {
    const target = (readConfigFile(values.config) as { target?: unknown }).target;
    return typeof target === 'string' && target !== '' ? target : undefined;
  } catch {
    return undefined;
  }
}

/** `--baseline DIR` and `--fail-on new|any` (run and merge), read and checked; undefined without --baseline. */
export async function baselineOption(values: Values): Promise<RunOptions['baseline']> {
  const failOn = values['fail-on'] as string | undefined;
  if (failOn !== undefined && failOn !== 'new' && failOn !== 'any')
    throw new UsageError(`--fail-on must be new or any, received ${JSON.stringify(failOn)}`);
  if (failOn !== undefined && values.baseline === undefined)
    throw new UsageError('--fail-on compares with a baseline: give --baseline DIR too');
  if (values.baseline === undefined) return undefined;
  const { BaselineError, readBaseline } = await import('../core/baseline.ts');
  const source = values.baseline as string;
  try {
    return { results: readBaseline(source), source, failOn: failOn === 'new' ? 'new' : 'any' };
  } catch (e) {
    if (e instanceof BaselineError) throw new UsageError(e.message);
    throw e;
  }
}

/** Every option of run and start, checked before the run sends anything. */
export async function runOptions(values: Values, target: string | undefined): Promise<RunOptions> {
  if (!target) throw new UsageError('run needs --target URL (or a --config file that names its "target")');
  const path = values.path as string | undefined;
  if (path !== undefined && !/^\d+(:\d+)*(#[A-Za-z0-9+/:]*)?$/.test(path)) {
    throw new UsageError(
      `--path must be a replay path such as 0:1:3 (printed beside a failure), received ${JSON.stringify(path)}`,
    );
  }
  const seed = integer('seed', values.seed as string | undefined, 0, 2 ** 31 - 1);
  if (path !== undefined && seed === undefined)
    throw new UsageError('--path replays a case of one seed: give --seed too');
  const { parseShard } = await import('../app/shard.ts');
  let shard: RunOptions['shard'];
  if (values.shard !== undefined) {
    try {
      shard = parseShard(values.shard as string);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  // --only is checked before anything is sent (a config problem is found by the run, also first).
  const { selectOperations } = await import('../app/selectOperations.ts');
  try {
    selectOperations(values.only as string | undefined);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const baseline = await baselineOption(values);
  const { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } = await import('../server/demoConfig.ts');
  return {
    ...(baseline ? { baseline } : {}),
    target,
    // Without --config the sandbox's demo config applies, its demo credentials standing in for unset variables.
    ...(values.config
      ? { config: values.config as string }
      : { config: DEMO_CONFIG_FILE, environmentFallbacks: DEMO_ENVIRONMENT }),
    only: values.only as string | undefined,
    reportDir: reportDirOption(values['report-dir'] as string | undefined),
    allowDestructive: values['allow-destructive'] === true,
    seed,
    runs: integer('runs', values.runs as string | undefined, 1, 10000),
    path,
    evidence: evidenceMode(values.evidence as string | undefined),
    minCoverage: percent('min-coverage', values['min-coverage'] as string | undefined),
    shard,
    maxRequestsPerSecond: integer(
      'max-requests-per-second',
      values['max-requests-per-second'] as string | undefined,
      1,
      100000,
    ),
    concurrency: integer('concurrency', values.concurrency as string | undefined, 1, 1000),
  };
}

/** The command that reruns a run, for the replay hints of the summary (seed, path and --only added per case). */
export function replayCommand(head: string[], options: RunOptions, explicitConfig: boolean): string {
  const words = [...head];
  if (explicitConfig) words.push('--config', options.config);
  if (options.allowDestructive && head[1] === 'run') words.push('--allow-destructive');
  if (options.runs !== undefined) words.push('--runs', String(options.runs));
  if (options.evidence === 'full') words.push('--evidence', 'full');
  return words.join(' ');
}

function colouredVerdict(line: string, verdict: string): string {
  const code = verdict === 'conformant' ? 32 : verdict === 'not-conformant' ? 31 : 33;
  return `\x1b[1;${code}m${line}\x1b[0m`;
}

/**
 * Runs into the claimed report folder (released at the end: nothing once the report is in place),
 * prints the summary, answers the exit code. Ctrl-C before the first suite starts ends the process
 * at once (nothing judged, the report folder as it was); after, the suites running finish and the
 * report says the run was interrupted.
 */
export async function judge(
  options: RunOptions,
  folder: ReportFolderClaim,
  io: Out,
  quiet: boolean,
  replay: string,
): Promise<number> {
  const [{ runConformance }, { formatSummary, shellWord }, { Progress, colourAllowed }] = await Promise.all([
    import('../app/runConformance.ts'),
    import('../core/summary.ts'),
    import('../app/progress.ts'),
  ]);
  const controller = new AbortController();
  let judging = false;
  const stopInterrupt = onInterrupt(() => {
    if (!judging) endInterrupted('interrupted before any operation was judged; the report folder is as it was');
    io.err(
      'conformance: interrupted; finishing the suites already running and writing the report (Ctrl-C again to quit at once)',
    );
    controller.abort();
  });
  const progress =
    quiet || process.env.CONFORMANCE_PROGRESS === '0'
      ? undefined
      : new Progress({
          write: (t) => process.stderr.write(t),
          tty: process.stderr.isTTY === true,
          color: colourAllowed(process.stderr),
          columns: process.stderr.columns,
        });
  try {
    const outcome = await runConformance({
      ...options,
      // The folder this command claimed: the run writes through the claim (heldReportFolder).
      reportDir: folder.dir,
      progress,
      signal: controller.signal,
      onSuiteStarted: () => {
        judging = true;
      },
    });
    if (outcome.problem) {
      io.err(`conformance: ${outcome.problem}`);
      return outcome.exitCode;
    }
    if (!outcome.results || !outcome.reports) throw new Error('A run without a problem returned no results');
    const b = outcome.results.baseline;
    const { baselineLines, baselineMarks } = await import('../core/baseline.ts');
    const lines = formatSummary(outcome.results, outcome.reports.reportHtml, {
      replayCommand: replay.replace('{target}', shellWord(options.target)),
      ...(b ? { baseline: baselineMarks(b) } : {}),
    });
    if (b) lines.splice(1, 0, ...baselineLines(b));
    const colour = colourAllowed(process.stdout);
    for (const line of quiet ? quietLines(lines) : lines) {
      io.out(colour && line.startsWith('Verdict:') ? colouredVerdict(line, outcome.results.verdict) : line);
    }
    const load = outcome.load;
    if (!quiet && load && load.retries + load.gaveUp > 0) {
      io.out(
        `Load refusals: ${load.retries + load.gaveUp} answers HTTP 429 or 503 with Retry-After; ${load.retries} waited out (${Math.round(load.waitedMs / 1000)} s in all) and sent again, ${load.gaveUp} left unjudged`,
      );
    }
    return outcome.results.interrupted ? EXIT.interrupted : outcome.exitCode;
  } finally {
    stopInterrupt();
  }
}

export const run: Command = {
  help: {
    usage: ['run --target URL [options]', 'run --config FILE [options]   (FILE names its "target")'],
    summary: 'judge a server against the documents and write the report folder',
    options: [['--target URL', 'the server to judge (its services are found through discovery)'], ...RUN_OPTIONS],
  },
  async run(argv, io) {
    const { values } = parse(argv, runFlags);
    const options = await runOptions(values, (values.target as string | undefined) ?? (await configTarget(values)));
    const replay = replayCommand([CMD, 'run', '--target', '{target}'], options, values.config !== undefined);
    const folder = claimReportDir(options.reportDir);
    try {
      return await judge(options, folder, io, values.quiet === true, replay);
    } finally {
      folder.release();
    }
  },
};
