/**
 * The `conformance` command. Exit codes: 0 conformant (or intact), 1 not conformant (or altered),
 * 2 usage / config / unreachable target / unreadable file, 3 inconclusive, 4 internal error of the
 * suite, 130 interrupted (Ctrl-C; the report written so far says so).
 *
 * Every subcommand's modules are imported when it runs, so that `conformance help` or a usage
 * error costs a Node start and this file, not the suite, the sandbox and the reports. Every option
 * is checked before any request is sent.
 */
import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { RunOptions } from '../app/runConformance.ts';
import type { EvidenceMode } from '../core/redact.ts';

const EXIT = { conformant: 0, notConformant: 1, usage: 2, inconclusive: 3, internal: 4, interrupted: 130 } as const;

interface CommandHelp {
  usage: string[];
  summary: string;
  options?: [string, string][];
}

const RUN_OPTIONS: [string, string][] = [
  ['--config FILE', 'the target config (conformance init writes a starter); default: the sandbox demo config'],
  ['--only LIST', 'operations to judge: ids with * wildcards, or a document (D1, D2, D3), comma-separated'],
  ['--report-dir DIR', 'where the report folder is written (default conformance-report)'],
  ['--allow-destructive', 'also run the steps that create, change or delete data on the target'],
  ['--seed N', 'seed of the generated cases, 0 to 2147483647 (a run prints it; the same seed gives the same cases)'],
  ['--runs N', 'cases per property (default 25)'],
  ['--path PATH', 'replay one generated case (with --seed; a failure prints both)'],
  ['--evidence masked|full', 'masked (default) masks personal data in every artefact; full keeps it'],
  ['--min-coverage PERCENT', 'least share of the testable MUST requirements judged for a verdict (default 90)'],
  ['--shard I/N', 'judge part I of N (coupled suites stay together); join the parts with conformance merge'],
  [
    '--max-requests-per-second N',
    'start at most N requests a second, over the whole run (1 to 100000; default: the config, else no limit)',
  ],
  ['--concurrency N', 'have at most N calls in flight at once, over the whole run (1 to 1000; default: no limit)'],
  ['--quiet', 'print only the verdict and where the report is'],
];

const COMMANDS: Record<string, CommandHelp> = {
  run: {
    usage: ['conformance run --target URL [options]'],
    summary: 'judge a server against the documents and write the report folder',
    options: [['--target URL', 'the server to judge (its services are found through discovery)'], ...RUN_OPTIONS],
  },
  start: {
    usage: ['conformance start [options] [--fault NAME]... [--variant NAME]...'],
    summary: 'start the sandbox and run every operation against it (npm start)',
    options: [
      ...RUN_OPTIONS.filter(([flag]) => !['--config FILE', '--allow-destructive'].includes(flag)),
      ['--fault NAME', 'switch on a named fault in the sandbox (see conformance faults)'],
      [
        '--variant NAME',
        'switch on a named variant, a choice the documents allow (see conformance variants; `all` for every one)',
      ],
    ],
  },
  serve: {
    usage: ['conformance serve [--port N] [--host H] [--fault NAME]... [--variant NAME]...'],
    summary: 'serve the sandbox (the reference server) until Ctrl-C',
    options: [
      ['--port N', 'port to listen on (default 0: any free port)'],
      ['--host H', 'address to listen on (default 127.0.0.1)'],
      ['--fault NAME', 'switch on a named fault'],
      ['--variant NAME', 'switch on a named variant'],
    ],
  },
  merge: {
    usage: ['conformance merge DIR... [--report-dir DIR] [--quiet]'],
    summary: 'join the report folders of a sharded run (--shard I/N) into one sealed report',
    options: [
      ['--report-dir DIR', 'where the merged report folder is written (default conformance-report)'],
      ['--quiet', 'print only the verdict and where the report is'],
    ],
  },
  report: {
    usage: ['conformance report RESULTS.json [--out DIR] [--allure]'],
    summary: 'rebuild report.html, junit.xml and requirements-coverage.csv from a results.json',
    options: [
      ['--out DIR', 'where to write them (default: beside results.json)'],
      ['--allure', 'also build the Allure report from allure-results beside results.json'],
    ],
  },
  'verify-report': {
    usage: ['conformance verify-report DIR'],
    summary: 'check that a report folder is as its run wrote it (exit 0 intact, 1 altered)',
  },
  operations: {
    usage: ['conformance operations [--only LIST] [--json]'],
    summary: 'list the operations with their document, section, method and flags',
    options: [
      ['--only LIST', 'as for run: ids with * wildcards, or a document (D1, D2, D3)'],
      ['--json', 'one JSON array instead of a table'],
    ],
  },
  faults: {
    usage: ['conformance faults [--describe]', 'conformance faults --unproven'],
    summary: "list the sandbox's named faults (each breaks one documented rule)",
    options: [
      ['--describe', 'add what each fault breaks'],
      ['--unproven', 'list the testable MUST rows no fault proves, each with why (spec/evidence/power.json)'],
    ],
  },
  variants: {
    usage: ['conformance variants [--describe]'],
    summary: "list the sandbox's named variants (each a choice the documents allow)",
    options: [['--describe', 'add what each variant changes and what allows it']],
  },
  init: {
    usage: ['conformance init [--out FILE] [--force]'],
    summary: 'write a starter config that names its JSON Schema (editor completion)',
    options: [
      ['--out FILE', 'where to write it (default conformance.config.json)'],
      ['--force', 'overwrite an existing file'],
    ],
  },
  openapi: {
    usage: ['conformance openapi [--out DIR]'],
    summary: 'write the OpenAPI 3.1 documents (the family and one per service), generated from the operation table',
    options: [['--out DIR', 'where to write them (default conformance-openapi)']],
  },
  pact: {
    usage: [
      'conformance pact generate [--out DIR]',
      'conformance pact verify --target URL [--pact FILE]... [--config FILE] [--states endpoint|fixtures] [--allow-destructive] [--report-dir DIR] [--quiet]',
      'conformance pact check PARTNER.json [--operator-product] [--report-dir DIR] [--quiet]',
    ],
    summary:
      "reference consumer pacts: generate them, verify pacts against a server with Pact's Verifier, check a partner's pact",
    options: [
      ['--out DIR', 'generate: where the reference pacts are written (default pacts-out)'],
      ['--target URL', 'verify: the provider to verify (its services are found through discovery)'],
      ['--pact FILE', 'verify: a pact file to verify (repeatable; default: the reference pacts, generated)'],
      ['--config FILE', 'verify: the target config (default: the sandbox demo config)'],
      [
        '--states endpoint|fixtures',
        "verify: arrange provider states through the target's /_pact/provider-states (default) or the config's fixtures",
      ],
      [
        '--allow-destructive',
        "verify --states fixtures: also verify interactions that change or delete the target's data",
      ],
      [
        '--operator-product',
        "check: the consumer is one of the operator's own products (reserved operations are its to call)",
      ],
      ['--report-dir DIR', 'verify, check: where the report folder is written (default conformance-report)'],
      ['--quiet', 'verify, check: print only the verdict and where the report is'],
    ],
  },
  'certify-client': {
    usage: [
      'conformance certify-client [--scenarios LIST] [--timeout SECONDS] [--operator-product] [--config-out FILE] [--report-dir DIR] [--quiet]',
      'conformance certify-client --list',
    ],
    summary: "judge a partner's client: a sandbox workspace per scenario records and judges every request it makes",
    options: [
      ['--scenarios LIST', 'scenario ids, comma-separated (default: every scenario; --list shows them)'],
      ['--timeout SECONDS', 'how long the client has to run the scenarios (default 300)'],
      ['--operator-product', "the client is one of the operator's own products (reserved operations are its to call)"],
      [
        '--config-out FILE',
        "write each workspace's addresses and credentials as JSON (for a client started by a script)",
      ],
      ['--host H', 'address the workspaces listen on (default 127.0.0.1)'],
      ['--report-dir DIR', 'where the report folder is written (default conformance-report)'],
      ['--quiet', 'print only the verdict and where the report is'],
      ['--list', 'list the scenarios with what the client must do, and exit'],
    ],
  },
  help: { usage: ['conformance help [COMMAND]'], summary: 'this overview, or the help of one command' },
};

function overview(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  return [
    'Usage: conformance COMMAND [options]   (conformance COMMAND --help for its options)',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    '',
    'Exit codes: 0 conformant, 1 not conformant, 2 usage or config problem, 3 inconclusive,',
    '            4 internal error, 130 interrupted (the report says so)',
    'Also: conformance --version',
  ].join('\n');
}

function commandHelp(name: string): string {
  const c = COMMANDS[name];
  const lines = ['Usage:', ...c.usage.map((u) => `  ${u}`), '', `${c.summary[0].toUpperCase()}${c.summary.slice(1)}.`];
  if (c.options?.length) {
    const width = Math.max(...c.options.map(([f]) => f.length));
    lines.push('', 'Options:', ...c.options.map(([f, d]) => `  ${f.padEnd(width)}  ${d}`));
  }
  return lines.join('\n');
}

class UsageError extends Error {}

type Out = { out: (line: string) => void; err: (line: string) => void };
const stdio: Out = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) };

function integer(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, received ${JSON.stringify(value)}`);
  }
  return Number(value);
}

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;
type Flags = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

function parse(argv: string[], options: Flags, positionals = false): { values: Values; positionals: string[] } {
  try {
    const parsed = parseArgs({ args: argv, options, allowPositionals: positionals, strict: true });
    return { values: parsed.values as Values, positionals: parsed.positionals };
  } catch (e) {
    const message = (e as Error).message.split('\n')[0];
    // `--runs -3`: parseArgs refuses a value starting with a dash; take it as the value, so that
    // the option's own check says what is wrong with it.
    const ambiguous = /^Option '(--[\w-]+)' argument is ambiguous/.exec(message);
    const at = ambiguous ? argv.indexOf(ambiguous[1]) : -1;
    if (at >= 0 && argv[at + 1] !== undefined) {
      return parse([...argv.slice(0, at), `${argv[at]}=${argv[at + 1]}`, ...argv.slice(at + 2)], options, positionals);
    }
    throw new UsageError(message);
  }
}

const runFlags = {
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
} as const;

/** A folder the report can be written into: absent (it is created) or a directory. */
function reportDirOption(value: string | undefined): string {
  const dir = value ?? 'conformance-report';
  if (dir === '') throw new UsageError('--report-dir must not be empty');
  try {
    if (!statSync(dir).isDirectory()) throw new UsageError(`--report-dir ${dir} is a file, not a folder`);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw new UsageError(`--report-dir ${dir} cannot be used: ${code}`);
  }
  return dir;
}

/** Every option of run and start, checked before the run sends anything. */
async function runOptions(values: Values, target: string | undefined): Promise<RunOptions> {
  if (!target) throw new UsageError('run needs --target URL');
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
  const { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } = await import('../server/demoConfig.ts');
  return {
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

function percent(name: string, value: string | undefined): number | undefined {
  const n = integer(name, value, 0, 100);
  return n === undefined ? undefined : n / 100;
}

function evidenceMode(value: string | undefined): EvidenceMode {
  if (value === undefined || value === 'masked') return 'masked';
  if (value === 'full') return 'full';
  throw new UsageError(`--evidence must be masked or full, received ${JSON.stringify(value)}`);
}

/** The command that reruns a run, for the replay hints of the summary (seed, path and --only added per case). */
function replayCommand(head: string[], options: RunOptions, explicitConfig: boolean): string {
  const words = [...head];
  if (explicitConfig) words.push('--config', options.config);
  if (options.allowDestructive && head[1] === 'run') words.push('--allow-destructive');
  if (options.runs !== undefined) words.push('--runs', String(options.runs));
  if (options.evidence === 'full') words.push('--evidence', 'full');
  return words.join(' ');
}

async function run(options: RunOptions, io: Out, quiet: boolean, replay: string): Promise<number> {
  const [{ runConformance }, { formatSummary, shellWord }, { Progress, colourAllowed }, { selectOperations }] =
    await Promise.all([
      import('../app/runConformance.ts'),
      import('../core/summary.ts'),
      import('../app/progress.ts'),
      import('../app/selectOperations.ts'),
    ]);
  // --only is checked before anything is sent (a config problem is found by the run, also first).
  try {
    selectOperations(options.only);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const controller = new AbortController();
  const interrupt = () => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    io.err(
      'conformance: interrupted; finishing the suites already running and writing the report (Ctrl-C again to quit at once)',
    );
    controller.abort();
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
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
    const outcome = await runConformance({ ...options, progress, signal: controller.signal });
    if (outcome.problem) {
      io.err(`conformance: ${outcome.problem}`);
      return outcome.exitCode;
    }
    if (!outcome.results || !outcome.reports) throw new Error('A run without a problem returned no results');
    const lines = formatSummary(outcome.results, outcome.reports.reportHtml, {
      replayCommand: replay.replace('{target}', shellWord(options.target)),
    });
    const colour = colourAllowed(process.stdout);
    for (const line of quiet ? lines.filter((l) => /^(Verdict|Report|Inconclusive):/.test(l)) : lines) {
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
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }
}

function colouredVerdict(line: string, verdict: string): string {
  const code = verdict === 'conformant' ? 32 : verdict === 'not-conformant' ? 31 : 33;
  return `\x1b[1;${code}m${line}\x1b[0m`;
}

async function faultNames(values: Values): Promise<string[]> {
  const names = (values.fault as string[] | undefined) ?? [];
  if (names.length === 0) return names;
  // A hand-written fault, or a shape fault derived from a response schema (`shape:...`, scripts/power.ts).
  const { isFaultName } = await import('../server/faults/catalog.ts');
  for (const n of names) if (!isFaultName(n)) throw new UsageError(`Unknown fault ${n} (see \`conformance faults\`)`);
  return names;
}

async function variantNames(values: Values): Promise<string[]> {
  const names = (values.variant as string[] | undefined) ?? [];
  if (names.length === 0) return names;
  const { VARIANTS } = await import('../server/variants/catalog.ts');
  // `--variant all`: every variant at once, as the self-test and the soak run them.
  if (names.includes('all')) return VARIANTS.map((v) => v.name);
  const known = new Set(VARIANTS.map((v) => v.name));
  for (const n of names) if (!known.has(n)) throw new UsageError(`Unknown variant ${n} (see \`conformance variants\`)`);
  return names;
}

async function serve(argv: string[], io: Out): Promise<number> {
  const { values } = parse(argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    fault: { type: 'string', multiple: true },
    variant: { type: 'string', multiple: true },
  });
  const port = integer('port', values.port as string | undefined, 0, 65535) ?? 0;
  const [faults, variants] = [await faultNames(values), await variantNames(values)];
  const { startSandbox } = await import('../server/http.ts');
  const sandbox = await startSandbox({
    host: (values.host as string | undefined) ?? '127.0.0.1',
    port,
    faults,
    variants,
  });
  io.out(`listening on ${sandbox.url}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await sandbox.close();
  return 0;
}

async function start(argv: string[], io: Out): Promise<number> {
  const { values } = parse(argv, {
    ...runFlags,
    fault: { type: 'string', multiple: true },
    variant: { type: 'string', multiple: true },
  });
  if (values.target || values.config)
    throw new UsageError('start always runs against the embedded sandbox; use `run --target URL` for another server');
  const [faults, variants] = [await faultNames(values), await variantNames(values)];
  // Checked before the sandbox starts; the target is filled in once it listens.
  const checked = await runOptions(values, 'http://127.0.0.1');
  const { startSandbox } = await import('../server/http.ts');
  const sandbox = await startSandbox({ faults, variants });
  const quiet = values.quiet === true;
  if (!quiet) io.out(`sandbox listening on ${sandbox.url}`);
  const head = [
    'conformance',
    'start',
    ...faults.flatMap((f) => ['--fault', f]),
    ...variants.flatMap((v) => ['--variant', v]),
  ];
  const options = { ...checked, target: sandbox.url, allowDestructive: true };
  try {
    return await run(options, io, quiet, replayCommand(head, options, false));
  } finally {
    await sandbox.close();
  }
}

async function runCommand(argv: string[], io: Out): Promise<number> {
  const { values } = parse(argv, runFlags);
  const options = await runOptions(values, values.target as string | undefined);
  const replay = replayCommand(['conformance', 'run', '--target', '{target}'], options, values.config !== undefined);
  return run(options, io, values.quiet === true, replay);
}

/** Parses arguments; a parse error is a usage error (exit 2, one line). */
function parsedOrUsage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0]);
  }
}

/** `report`: rebuilds report.html, junit.xml and requirements-coverage.csv (and the Allure report) offline. */
async function report(argv: string[], io: Out): Promise<number> {
  const parsed = parse(argv, { out: { type: 'string' }, allure: { type: 'boolean' } }, true);
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length > 0) throw new UsageError('report needs exactly one results.json file');
  const { rebuildReports } = await import('../reports/writeReports.ts');
  let rebuilt: Awaited<ReturnType<typeof rebuildReports>>;
  try {
    rebuilt = await rebuildReports(file, parsed.values.out as string | undefined);
  } catch (e) {
    io.err(`conformance: ${(e as Error).message}`);
    return EXIT.usage;
  }
  io.out(`Report: ${rebuilt.paths.reportHtml}`);
  io.out(`Also: ${rebuilt.paths.junitXml}, ${rebuilt.paths.coverageCsv}`);
  if (parsed.values.allure) {
    const { dirname, join, resolve } = await import('node:path');
    const { buildAllureReport } = await import('../reports/allureReport.ts');
    const resultsDir = join(dirname(resolve(file)), 'allure-results');
    const outDir = join(dirname(rebuilt.paths.reportHtml), 'allure-report');
    try {
      const built = await buildAllureReport(resultsDir, outDir);
      io.out(`Allure report: ${built.index}`);
    } catch (e) {
      io.err(`conformance: ${(e as Error).message.split('\n')[0]}`);
      return EXIT.usage;
    }
  }
  if (rebuilt.integrity.state !== 'intact') {
    io.err(
      `conformance: ${file} ${rebuilt.integrity.state === 'altered' ? 'was altered after the run (its digest does not match its content)' : 'carries no integrity digest'}; the rebuilt report says so`,
    );
    return EXIT.notConformant;
  }
  return 0;
}

const FILE_STATE_TEXT: Record<string, string> = {
  matches: 'matches results.json',
  altered: 'ALTERED (differs from what results.json gives)',
  missing: 'missing',
  'not-comparable': 'not compared (written by another suite version)',
};

/** `verify-report`: exit 0 when the folder is as the run wrote it, 1 when altered, 2 when it cannot be read. */
async function verifyReport(argv: string[], io: Out): Promise<number> {
  const parsed = parsedOrUsage(() => parseArgs({ args: argv, options: {}, allowPositionals: true, strict: true }));
  const [dir, ...extra] = parsed.positionals;
  if (dir === undefined || extra.length > 0) throw new UsageError('verify-report needs exactly one report folder');
  const { verifyReportDir } = await import('../reports/writeReports.ts');
  let v: Awaited<ReturnType<typeof verifyReportDir>>;
  try {
    v = await verifyReportDir(dir);
  } catch (e) {
    io.err(`conformance: ${(e as Error).message}`);
    return EXIT.usage;
  }
  const i = v.integrity;
  io.out(
    i.state === 'intact'
      ? `results.json: intact (SHA-256 ${i.digest})`
      : i.state === 'altered'
        ? `results.json: ALTERED (states SHA-256 ${i.stored}, content has ${i.actual})`
        : `results.json: NOT SEALED (no digest; content has SHA-256 ${i.actual})`,
  );
  for (const f of v.files) io.out(`${f.name}: ${FILE_STATE_TEXT[f.state]}`);
  io.out(v.intact ? `INTACT: ${v.dir} is as the run wrote it` : `ALTERED: ${v.dir} was changed after the run`);
  return v.intact ? 0 : EXIT.notConformant;
}

/** `merge`: one sealed report from the report folders of a sharded run. */
async function merge(argv: string[], io: Out): Promise<number> {
  const { values, positionals } = parse(argv, { 'report-dir': { type: 'string' }, quiet: { type: 'boolean' } }, true);
  if (positionals.length === 0) throw new UsageError('merge needs the report folders of the shards');
  const out = reportDirOption(values['report-dir'] as string | undefined);
  const [{ mergeParts, MergeError }, { formatSummary }, { exitCodeOf }] = await Promise.all([
    import('../app/merge.ts'),
    import('../core/summary.ts'),
    import('../core/results.ts'),
  ]);
  let merged: Awaited<ReturnType<typeof mergeParts>>;
  try {
    merged = await mergeParts(positionals, out);
  } catch (e) {
    if (e instanceof MergeError) throw new UsageError(e.message);
    throw e;
  }
  const lines = formatSummary(merged.results, merged.reports.reportHtml);
  for (const line of values.quiet ? lines.filter((l) => /^(Verdict|Report|Inconclusive):/.test(l)) : lines)
    io.out(line);
  return merged.results.interrupted ? EXIT.interrupted : exitCodeOf(merged.results.verdict);
}

/** `operations`: the operation table, one line each (or JSON). */
async function listOperations(argv: string[], io: Out): Promise<number> {
  const { values } = parse(argv, { only: { type: 'string' }, json: { type: 'boolean' } });
  const { selectOperations } = await import('../app/selectOperations.ts');
  let ops: ReturnType<typeof selectOperations>;
  try {
    ops = selectOperations(values.only as string | undefined);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const flags = (o: (typeof ops)[number]) =>
    [
      o.destructive ? 'destructive' : '',
      o.reservedForOperator ? 'reserved' : '',
      /deprecated/i.test(o.summary) ? 'deprecated' : '',
    ].filter(Boolean);
  if (values.json) {
    io.out(
      JSON.stringify(
        ops.map((o) => ({
          id: o.id,
          document: o.document,
          section: o.section,
          service: o.service,
          method: o.method,
          path: o.documentedPath,
          summary: o.summary,
          flags: flags(o),
        })),
        null,
        2,
      ),
    );
    return 0;
  }
  const width = Math.max(...ops.map((o) => o.id.length));
  for (const o of ops) {
    io.out(
      `${o.id.padEnd(width)}  ${o.document}  §${o.section.padEnd(6)} ${o.method.padEnd(6)} ${o.summary}${flags(o).length ? `  [${flags(o).join(', ')}]` : ''}`,
    );
  }
  return 0;
}

/** `init`: a starter config, the demo config's shape with `$schema` pointing at the config schema. */
async function init(argv: string[], io: Out): Promise<number> {
  const { values } = parse(argv, { out: { type: 'string' }, force: { type: 'boolean' } });
  const out = (values.out as string | undefined) ?? 'conformance.config.json';
  const { existsSync, writeFileSync } = await import('node:fs');
  const { dirname, relative, resolve } = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  if (existsSync(out) && !values.force) throw new UsageError(`${out} exists; give --force to overwrite it`);
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const demo = JSON.parse(readFileSync(resolve(root, 'server/demo-config.json'), 'utf8')) as Record<string, unknown>;
  let schema = relative(dirname(resolve(out)), resolve(root, 'core/config.schema.json')).replaceAll('\\', '/');
  if (!schema.startsWith('.')) schema = `./${schema}`;
  const starter = { ...demo, $schema: schema };
  try {
    writeFileSync(out, `${JSON.stringify(starter, null, 2)}\n`, { flag: values.force ? 'w' : 'wx' });
  } catch (e) {
    throw new UsageError(`cannot write ${out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  io.out(`Wrote ${out} (JSON Schema: ${schema}).`);
  io.out('Next: set the discovery addresses and the fixtures your target holds, export the credential');
  io.out('variables it names (CONFORMANCE_CLIENT_ID, ...), then:');
  io.out(`  conformance run --target https://your-server --config ${out}`);
  return 0;
}

/** `certify-client`: workspaces per scenario, the partner's client runs, every request judged. */
async function certifyClient(argv: string[], io: Out): Promise<number> {
  const { values } = parse(argv, {
    scenarios: { type: 'string' },
    timeout: { type: 'string' },
    'operator-product': { type: 'boolean' },
    'config-out': { type: 'string' },
    host: { type: 'string' },
    'report-dir': { type: 'string' },
    quiet: { type: 'boolean' },
    list: { type: 'boolean' },
  });
  const [{ SCENARIOS }, { operation }] = await Promise.all([
    import('../certify/scenarios.ts'),
    import('../spec/operations.ts'),
  ]);
  if (values.list) {
    for (const s of SCENARIOS) {
      io.out(`${s.id}  ${s.title}`);
      for (const line of s.instructions) io.out(`    ${line}`);
    }
    return 0;
  }
  const scenarios = (values.scenarios as string | undefined)
    ?.split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const known = new Set(SCENARIOS.map((s) => s.id));
  for (const id of scenarios ?? [])
    if (!known.has(id)) throw new UsageError(`Unknown scenario ${id} (see conformance certify-client --list)`);
  const timeoutMs = (integer('timeout', values.timeout as string | undefined, 1, 86400) ?? 300) * 1000;
  const reportDir = reportDirOption(values['report-dir'] as string | undefined);
  const configOut = values['config-out'] as string | undefined;
  const { startCertification } = await import('../certify/certification.ts');
  const cert = await startCertification({
    ...(scenarios ? { scenarios } : {}),
    ...(values.host ? { host: values.host as string } : {}),
  });
  try {
    const configs = cert.runs.map((r) => r.workspace.config);
    if (configOut) {
      const { renameSync, writeFileSync } = await import('node:fs');
      try {
        // Written whole, then renamed: a script waiting for the file never reads half of it.
        writeFileSync(`${configOut}.part`, `${JSON.stringify(configs, null, 2)}\n`, { mode: 0o600 });
        renameSync(`${configOut}.part`, configOut);
      } catch (e) {
        throw new UsageError(`cannot write ${configOut}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
    }
    // The workspace's client secret is shown on a terminal (the partner types it in), never in a log.
    const showSecret = process.stdout.isTTY === true && io === stdio;
    if (!values.quiet) {
      for (const run of cert.runs) {
        const c = run.workspace.config;
        io.out(`Scenario ${run.scenario.id}: ${run.scenario.title}`);
        for (const line of run.scenario.instructions) io.out(`  ${line}`);
        const services = new Set<string>(run.scenario.operations.map((id) => operation(id).service));
        for (const [service, url] of Object.entries(c.discovery))
          if (services.has(service)) io.out(`  discovery (${service}): ${url}`);
        io.out(`  token endpoint: ${c.tokenUrl}`);
        io.out(
          `  client id: ${c.clientId}  client secret: ${showSecret ? c.clientSecret : `**** (${configOut ? `in ${configOut}` : 'shown on a terminal, or give --config-out'})`}`,
        );
        io.out(`  site id: ${c.siteId}  user: ${c.user.username} / ${showSecret ? c.user.password : '****'}`);
      }
      io.out(`Waiting up to ${timeoutMs / 1000} s for the client (Ctrl-C judges what it has done so far)...`);
    }
    const interrupted = new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await Promise.race([cert.wait(timeoutMs), interrupted]);
    const outcome = await cert.finish({
      reportDir,
      timeoutMs,
      operatorProduct: values['operator-product'] === true,
    });
    return printOutcome(outcome, io, values.quiet === true);
  } finally {
    await cert.close();
  }
}

/** Prints a pact verification's, pact check's or certification's summary as a run's; a problem is one line and exit 2. */
async function printOutcome(outcome: RunOutcomeLike, io: Out, quiet: boolean): Promise<number> {
  if (outcome.problem) {
    io.err(`conformance: ${outcome.problem}`);
    return outcome.exitCode;
  }
  if (!outcome.results || !outcome.reports) throw new Error('A pact run without a problem returned no results');
  const { formatSummary } = await import('../core/summary.ts');
  const lines = formatSummary(outcome.results, outcome.reports.reportHtml);
  for (const line of quiet ? lines.filter((l) => /^(Verdict|Report|Inconclusive):/.test(l)) : lines) io.out(line);
  return outcome.exitCode;
}

type RunOutcomeLike = Awaited<ReturnType<typeof import('../app/runConformance.ts').runConformance>>;

/** `pact generate|verify|check`: the reference pacts, Pact's Verifier against a target, a partner's pact judged. */
async function pact(argv: string[], io: Out): Promise<number> {
  const [sub, ...rest] = argv;
  process.env.PACT_DO_NOT_TRACK = 'true';
  if (sub === 'generate') {
    const { values } = parse(rest, { out: { type: 'string' } });
    const out = (values.out as string | undefined) ?? 'pacts-out';
    if (out === '') throw new UsageError('--out must not be empty');
    if (existsAsFile(out)) throw new UsageError(`--out ${out} is a file, not a folder`);
    const { generateReferencePacts } = await import('../pacts/generate.ts');
    for (const file of await generateReferencePacts(out)) io.out(file);
    return 0;
  }
  if (sub === 'verify') {
    const { values } = parse(rest, {
      target: { type: 'string' },
      pact: { type: 'string', multiple: true },
      config: { type: 'string' },
      states: { type: 'string' },
      'allow-destructive': { type: 'boolean' },
      'report-dir': { type: 'string' },
      quiet: { type: 'boolean' },
    });
    const target = values.target as string | undefined;
    if (!target) throw new UsageError('pact verify needs --target URL');
    const states = (values.states as string | undefined) ?? 'endpoint';
    if (states !== 'endpoint' && states !== 'fixtures')
      throw new UsageError(`--states must be endpoint or fixtures, received ${JSON.stringify(states)}`);
    const pacts = (values.pact as string[] | undefined) ?? [];
    for (const f of pacts) if (!existsAsReadableFile(f)) throw new UsageError(`--pact ${f} is not a readable file`);
    const reportDir = reportDirOption(values['report-dir'] as string | undefined);
    const { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } = await import('../server/demoConfig.ts');
    const { verifyPacts } = await import('../pacts/verify.ts');
    const outcome = await verifyPacts({
      target,
      ...(pacts.length ? { pactFiles: pacts } : {}),
      ...(values.config
        ? { config: values.config as string }
        : { config: DEMO_CONFIG_FILE, environmentFallbacks: DEMO_ENVIRONMENT }),
      reportDir,
      stateSource: states,
      allowDestructive: values['allow-destructive'] === true,
    });
    return printOutcome(outcome, io, values.quiet === true);
  }
  if (sub === 'check') {
    const { values, positionals } = parse(
      rest,
      { 'operator-product': { type: 'boolean' }, 'report-dir': { type: 'string' }, quiet: { type: 'boolean' } },
      true,
    );
    if (positionals.length !== 1) throw new UsageError('pact check needs exactly one pact file');
    const reportDir = reportDirOption(values['report-dir'] as string | undefined);
    const { checkPartnerPactAgainstSandbox } = await import('../pacts/check/againstSandbox.ts');
    const outcome = await checkPartnerPactAgainstSandbox({
      pactFile: positionals[0],
      reportDir,
      operatorProduct: values['operator-product'] === true,
    });
    return printOutcome(outcome, io, values.quiet === true);
  }
  throw new UsageError(
    sub === undefined ? 'pact needs generate, verify or check' : `Unknown pact command ${JSON.stringify(sub)}`,
  );
}

function existsAsFile(path: string): boolean {
  try {
    return !statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function existsAsReadableFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** `openapi`: the OpenAPI 3.1 documents, one file per service and one for the family. */
async function openapi(argv: string[], io: Out): Promise<number> {
  const { values } = parse(argv, { out: { type: 'string' } });
  const out = (values.out as string | undefined) ?? 'conformance-openapi';
  if (out === '') throw new UsageError('--out must not be empty');
  try {
    if (!statSync(out).isDirectory()) throw new UsageError(`--out ${out} is a file, not a folder`);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw new UsageError(`--out ${out} cannot be used: ${code}`);
  }
  const { writeOpenApi } = await import('../openapi/writeOpenApi.ts');
  let written: string[];
  try {
    written = writeOpenApi(out);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === undefined) throw e;
    throw new UsageError(`cannot write into ${out}: ${code}`);
  }
  for (const file of written) io.out(file);
  return 0;
}

function version(): string {
  const root = new URL('../package.json', import.meta.url);
  const pkg = JSON.parse(readFileSync(root, 'utf8')) as { name: string; version: string };
  return `conformance ${pkg.version} (${pkg.name}, node ${process.version})`;
}

export async function main(argv: string[], io: Out = stdio): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-v' || command === 'version') {
    io.out(version());
    return 0;
  }
  if (command !== undefined && command in COMMANDS && (rest.includes('--help') || rest.includes('-h'))) {
    io.out(commandHelp(command));
    return 0;
  }
  try {
    switch (command) {
      case 'serve':
        return await serve(rest, io);
      case 'run':
        return await runCommand(rest, io);
      case 'faults': {
        const { values } = parse(rest, { describe: { type: 'boolean' }, unproven: { type: 'boolean' } });
        if (values.unproven) {
          const { formatUnproven, unprovenRows } = await import('../app/power.ts');
          for (const line of formatUnproven(unprovenRows())) io.out(line);
          return 0;
        }
        const { FAULTS } = await import('../server/faults/catalog.ts');
        for (const f of FAULTS) io.out(values.describe ? `${f.name}\t${f.description}` : f.name);
        return 0;
      }
      case 'variants': {
        const { values } = parse(rest, { describe: { type: 'boolean' } });
        const { VARIANTS } = await import('../server/variants/catalog.ts');
        for (const v of VARIANTS) {
          io.out(values.describe ? `${v.name}\t${v.description} Allowed by: ${v.allowedBy.join('; ')}.` : v.name);
        }
        return 0;
      }
      case 'operations':
        return await listOperations(rest, io);
      case 'start':
        return await start(rest, io);
      case 'merge':
        return await merge(rest, io);
      case 'report':
        return await report(rest, io);
      case 'verify-report':
        return await verifyReport(rest, io);
      case 'init':
        return await init(rest, io);
      case 'openapi':
        return await openapi(rest, io);
      case 'pact':
        return await pact(rest, io);
      case 'certify-client':
        return await certifyClient(rest, io);
      case 'help':
        if (rest[0] !== undefined && !(rest[0] in COMMANDS))
          throw new UsageError(`Unknown command ${JSON.stringify(rest[0])}`);
        io.out(rest[0] !== undefined ? commandHelp(rest[0]) : overview());
        return 0;
      case undefined:
      case '--help':
      case '-h':
        io.out(overview());
        return command === undefined ? EXIT.usage : 0;
      default:
        throw new UsageError(`Unknown command ${JSON.stringify(command)}`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`conformance: ${e.message}`);
      io.err(
        `Usage: ${command && command in COMMANDS ? COMMANDS[command].usage[0] : 'conformance COMMAND [options]'} (conformance help)`,
      );
      return EXIT.usage;
    }
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE' || err.code === 'EACCES' || err.code === 'EADDRNOTAVAIL') {
      io.err(`conformance: cannot listen: ${err.message.split('\n')[0]}`);
      return EXIT.usage;
    }
    io.err(
      `conformance: internal error: ${err.message?.split('\n')[0] ?? String(e)}${process.env.CONFORMANCE_DEBUG ? `\n${err.stack}` : ' (set CONFORMANCE_DEBUG=1 for details)'}`,
    );
    return EXIT.internal;
  }
}
