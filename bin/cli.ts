/**
 * The `conformance` command: serve, run, faults, start. Exit codes: 0 conformant, 1 not
 * conformant, 2 usage / config / unreachable target, 3 inconclusive, 4 internal error of the suite.
 */
import { parseArgs } from 'node:util';
import { runConformance } from '../core/runner.ts';
import type { RunOptions } from '../core/runner.ts';
import { EXIT } from '../core/results.ts';
import type { EvidenceMode } from '../core/redact.ts';
import { formatSummary } from '../core/summary.ts';
import { FAULTS } from '../server/faults/catalog.ts';
import { startSandbox } from '../server/http.ts';

const USAGE = `Usage:
  conformance serve [--port N] [--host H] [--fault NAME]...
  conformance run --target URL [--config FILE] [--only PATTERN] [--report-dir DIR]
                  [--allow-destructive] [--seed N] [--runs N] [--path PATH] [--evidence masked|full]
  conformance faults [--describe]
  conformance start [--only PATTERN] [--report-dir DIR] [--seed N] [--runs N] [--evidence masked|full] [--fault NAME]...`;

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
} as const;

function runOptions(values: Values, target: string | undefined): RunOptions {
  if (!target) throw new UsageError('run needs --target URL');
  return {
    target,
    config: values.config as string | undefined,
    only: values.only as string | undefined,
    reportDir: (values['report-dir'] as string | undefined) ?? 'conformance-report',
    allowDestructive: values['allow-destructive'] === true,
    seed: integer('seed', values.seed as string | undefined, 0, 2 ** 31 - 1),
    runs: integer('runs', values.runs as string | undefined, 1, 10000),
    path: values.path as string | undefined,
    evidence: evidenceMode(values.evidence as string | undefined),
  };
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
  for (const line of formatSummary(outcome.results!, outcome.reports!.reportHtml)) io.out(line);
  return outcome.exitCode;
}

function faultNames(values: Record<string, unknown>): string[] {
  const names = (values.fault as string[] | undefined) ?? [];
  const known = new Set(FAULTS.map((f) => f.name));
  for (const n of names) if (!known.has(n)) throw new UsageError(`Unknown fault ${n} (see \`conformance faults\`)`);
  return names;
}

async function serve(argv: string[], io: Out): Promise<number> {
  const { values } = parse(argv, { port: { type: 'string' }, host: { type: 'string' }, fault: { type: 'string', multiple: true } });
  const port = integer('port', values.port as string | undefined, 0, 65535) ?? 0;
  const sandbox = await startSandbox({ host: (values.host as string | undefined) ?? '127.0.0.1', port, faults: faultNames(values) });
  io.out(`listening on ${sandbox.url}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await sandbox.close();
  return 0;
}

async function start(argv: string[], io: Out): Promise<number> {
  const { values } = parse(argv, { ...runFlags, fault: { type: 'string', multiple: true } });
  if (values.target || values.config) throw new UsageError('start always runs against the embedded sandbox; use `run --target URL` for another server');
  const sandbox = await startSandbox({ faults: faultNames(values) });
  io.out(`sandbox listening on ${sandbox.url}`);
  try {
    return await run({ ...runOptions(values, sandbox.url), allowDestructive: true }, io);
  } finally {
    await sandbox.close();
  }
}

export async function main(argv: string[], io: Out = stdio): Promise<number> {
  const [command, ...rest] = argv;
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
      case 'start':
        return await start(rest, io);
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
      io.err(USAGE.split('\n')[0] + ' ... (conformance help)');
      return EXIT.usage;
    }
    const err = e as Error;
    if (err.message?.startsWith('Unknown fault')) {
      io.err(`conformance: ${err.message}`);
      return EXIT.usage;
    }
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE' || (err as NodeJS.ErrnoException).code === 'EACCES' || (err as NodeJS.ErrnoException).code === 'EADDRNOTAVAIL') {
      io.err(`conformance: cannot listen: ${err.message.split('\n')[0]}`);
      return EXIT.usage;
    }
    io.err(`conformance: internal error: ${err.message?.split('\n')[0] ?? String(e)}${process.env.CONFORMANCE_DEBUG ? `\n${err.stack}` : ' (set CONFORMANCE_DEBUG=1 for details)'}`);
    return 4;
  }
}
