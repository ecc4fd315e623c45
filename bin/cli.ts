/**
 * The `conformance` command: serve, run, start, report, verify-report, faults. Exit codes: 0
 * conformant (or intact), 1 not conformant (or altered), 2 usage / config / unreachable target /
 * unreadable file, 3 inconclusive, 4 internal error of the suite.
 */
import { parseArgs } from 'node:util';
import { type RunOptions, runConformance } from '../app/runConformance.ts';
import { EXIT } from '../core/results.ts';
import type { EvidenceMode } from '../core/redact.ts';
import { formatSummary } from '../core/summary.ts';
import { FAULTS } from '../server/faults/catalog.ts';
import { VARIANTS } from '../server/variants/catalog.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { startSandbox } from '../server/http.ts';
import { buildAllureReport } from '../reports/allureReport.ts';
import { rebuildReports, verifyReportDir } from '../reports/writeReports.ts';
import { dirname, join, resolve } from 'node:path';

const USAGE = `Usage:
  conformance serve [--port N] [--host H] [--fault NAME]... [--variant NAME]...
  conformance run --target URL [--config FILE] [--only PATTERN] [--report-dir DIR]
                  [--allow-destructive] [--seed N] [--runs N] [--path PATH] [--evidence masked|full]
                  [--min-coverage PERCENT]
  conformance report RESULTS.json [--out DIR] [--allure]
  conformance verify-report DIR
  conformance faults [--describe]
  conformance variants [--describe]
  conformance start [--only PATTERN] [--report-dir DIR] [--seed N] [--runs N] [--evidence masked|full]
                    [--fault NAME]... [--variant NAME]...`;

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

function parse(argv: string[], options: NonNullable<Parameters<typeof parseArgs>[0]>['options']): { values: Values } {
  try {
    return { values: parseArgs({ args: argv, options, allowPositionals: false, strict: true }).values as Values };
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0]);
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
} as const;

function runOptions(values: Values, target: string | undefined): RunOptions {
  if (!target) throw new UsageError('run needs --target URL');
  return {
    target,
    // Without --config the sandbox's demo config applies, its demo credentials standing in for unset variables.
    ...(values.config
      ? { config: values.config as string }
      : { config: DEMO_CONFIG_FILE, environmentFallbacks: DEMO_ENVIRONMENT }),
    only: values.only as string | undefined,
    reportDir: (values['report-dir'] as string | undefined) ?? 'conformance-report',
    allowDestructive: values['allow-destructive'] === true,
    seed: integer('seed', values.seed as string | undefined, 0, 2 ** 31 - 1),
    runs: integer('runs', values.runs as string | undefined, 1, 10000),
    path: values.path as string | undefined,
    evidence: evidenceMode(values.evidence as string | undefined),
    minCoverage: percent('min-coverage', values['min-coverage'] as string | undefined),
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

async function run(options: RunOptions, io: Out): Promise<number> {
  const outcome = await runConformance(options);
  if (outcome.problem) {
    io.err(`conformance: ${outcome.problem}`);
    return outcome.exitCode;
  }
  if (!outcome.results || !outcome.reports) throw new Error('A run without a problem returned no results');
  for (const line of formatSummary(outcome.results, outcome.reports.reportHtml)) io.out(line);
  return outcome.exitCode;
}

function faultNames(values: Record<string, unknown>): string[] {
  const names = (values.fault as string[] | undefined) ?? [];
  const known = new Set(FAULTS.map((f) => f.name));
  for (const n of names) if (!known.has(n)) throw new UsageError(`Unknown fault ${n} (see \`conformance faults\`)`);
  return names;
}

function variantNames(values: Record<string, unknown>): string[] {
  const names = (values.variant as string[] | undefined) ?? [];
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
  const sandbox = await startSandbox({
    host: (values.host as string | undefined) ?? '127.0.0.1',
    port,
    faults: faultNames(values),
    variants: variantNames(values),
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
  const sandbox = await startSandbox({ faults: faultNames(values), variants: variantNames(values) });
  io.out(`sandbox listening on ${sandbox.url}`);
  try {
    return await run({ ...runOptions(values, sandbox.url), allowDestructive: true }, io);
  } finally {
    await sandbox.close();
  }
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
  const parsed = parsedOrUsage(() =>
    parseArgs({
      args: argv,
      options: { out: { type: 'string' }, allure: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    }),
  );
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length > 0) throw new UsageError('report needs exactly one results.json file');
  let rebuilt: Awaited<ReturnType<typeof rebuildReports>>;
  try {
    rebuilt = await rebuildReports(file, parsed.values.out);
  } catch (e) {
    io.err(`conformance: ${(e as Error).message}`);
    return EXIT.usage;
  }
  io.out(`Report: ${rebuilt.paths.reportHtml}`);
  io.out(`Also: ${rebuilt.paths.junitXml}, ${rebuilt.paths.coverageCsv}`);
  if (parsed.values.allure) {
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

export async function main(argv: string[], io: Out = stdio): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== undefined && (rest.includes('--help') || rest.includes('-h'))) {
    // `conformance run --help`: the usage lines of that command (all of them for an unknown one).
    const own = USAGE.split('\n').filter(
      (l, i, all) =>
        l.startsWith(`  conformance ${command} `) ||
        l === `  conformance ${command}` ||
        (l.startsWith('      ') &&
          all
            .slice(0, i)
            .reverse()
            .find((p) => !p.startsWith('      '))
            ?.startsWith(`  conformance ${command}`)),
    );
    io.out(own.length > 0 ? ['Usage:', ...own].join('\n') : USAGE);
    return 0;
  }
  try {
    switch (command) {
      case 'serve':
        return await serve(rest, io);
      case 'run': {
        const { values } = parse(rest, runFlags);
        return await run(runOptions(values, values.target as string | undefined), io);
      }
      case 'faults': {
        const { values } = parse(rest, { describe: { type: 'boolean' } });
        for (const f of FAULTS) io.out(values.describe ? `${f.name}\t${f.description}` : f.name);
        return 0;
      }
      case 'variants': {
        const { values } = parse(rest, { describe: { type: 'boolean' } });
        for (const v of VARIANTS) {
          io.out(values.describe ? `${v.name}\t${v.description} Allowed by: ${v.allowedBy.join('; ')}.` : v.name);
        }
        return 0;
      }
      case 'start':
        return await start(rest, io);
      case 'report':
        return await report(rest, io);
      case 'verify-report':
        return await verifyReport(rest, io);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(USAGE);
        return command === undefined ? EXIT.usage : 0;
      default:
        throw new UsageError(`Unknown command ${JSON.stringify(command)}`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`conformance: ${e.message}`);
      io.err(`${USAGE.split('\n')[0]} ... (conformance help)`);
      return EXIT.usage;
    }
    const err = e as Error;
    if (err.message?.startsWith('Unknown fault') || err.message?.startsWith('Unknown variant')) {
      io.err(`conformance: ${err.message}`);
      return EXIT.usage;
    }
    if (
      (err as NodeJS.ErrnoException).code === 'EADDRINUSE' ||
      (err as NodeJS.ErrnoException).code === 'EACCES' ||
      (err as NodeJS.ErrnoException).code === 'EADDRNOTAVAIL'
    ) {
      io.err(`conformance: cannot listen: ${err.message.split('\n')[0]}`);
      return EXIT.usage;
    }
    io.err(
      `conformance: internal error: ${err.message?.split('\n')[0] ?? String(e)}${process.env.CONFORMANCE_DEBUG ? `\n${err.stack}` : ' (set CONFORMANCE_DEBUG=1 for details)'}`,
    );
    return 4;
  }
}
