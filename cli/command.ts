/**
 * What every subcommand of `conformance` shares: its shape (help and run), the exit codes, usage
 * errors, option parsing and checking, the report folder option, and the printing of a summary.
 * Each subcommand's file owns its options, help and printing; bin/cli.ts only dispatches.
 */
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { commandName } from '../core/commandName.ts';
import type { RunOutcome } from '../app/runConformance.ts';
import type { EvidenceMode } from '../core/redact.ts';
import {
  type ClaimOptions,
  claimReportFolder,
  makeFolder,
  type ReportFolderClaim,
  ReportFolderError,
} from '../reports/reportFolder.ts';

/** 0 conformant (or intact), 1 not conformant (or altered), 2 usage / config / unreachable target /
 * unreadable file / report folder in use, 3 inconclusive, 4 internal error, 130 interrupted. */
export const EXIT = {
  conformant: 0,
  notConformant: 1,
  usage: 2,
  inconclusive: 3,
  internal: 4,
  interrupted: 130,
} as const;

export interface CommandHelp {
  /** Each form of the command, without the command's own name (`run --target URL [options]`). */
  usage: string[];
  summary: string;
  options?: [string, string][];
}

export type Out = { out: (line: string) => void; err: (line: string) => void };
export const stdio: Out = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) };

export interface Command {
  help: CommandHelp;
  /** Runs the command with the words after its name; answers the exit code. */
  run(argv: string[], io: Out): Promise<number>;
}

/** A problem with the command line: one line on stderr, the usage, exit 2. */
export class UsageError extends Error {}

/** A problem of the place the command was pointed at (a report folder in use or unwritable): one line, exit 2. */
export class SetupProblem extends Error {}

export function integer(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, received ${JSON.stringify(value)}`);
  }
  return Number(value);
}

export function percent(name: string, value: string | undefined): number | undefined {
  const n = integer(name, value, 0, 100);
  return n === undefined ? undefined : n / 100;
}

export function evidenceMode(value: string | undefined): EvidenceMode {
  if (value === undefined || value === 'masked') return 'masked';
  if (value === 'full') return 'full';
  throw new UsageError(`--evidence must be masked or full, received ${JSON.stringify(value)}`);
}

export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;
export type Flags = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

export function parse(argv: string[], options: Flags, positionals = false): { values: Values; positionals: string[] } {
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

/** A folder the report can be written into, checked without touching it: absent (made later) or a directory. */
export function reportDirOption(value: string | undefined): string {
  const dir = value ?? 'conformance-report';
  if (dir === '') throw new UsageError('--report-dir must not be empty');
  try {
    if (!statSync(dir).isDirectory()) throw new UsageError(`--report-dir ${dir} is a file, not a folder`);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new UsageError(`--report-dir ${dir} cannot be used: ${code}`);
  }
  return dir;
}

/**
 * Claims the report folder for this run (reports/reportFolder.ts), after the other options are
 * checked and before anything is sent: a folder another run writes into, or one that cannot be
 * made or written, is a one-line problem (exit 2). The run's report writers use the claim; release() it when the
 * command ends (nothing once the report is in place).
 */
export function claimReportDir(dir: string, options: ClaimOptions = {}): ReportFolderClaim {
  try {
    return claimReportFolder(dir, dir, options);
  } catch (e) {
    if (e instanceof ReportFolderError) throw new SetupProblem(`--report-dir ${e.message}`);
    throw e;
  }
}

/** Makes an `--out DIR` folder (absent, or a folder already): a file, or a place no folder can be made, is a usage error. */
export function outFolder(dir: string): void {
  try {
    makeFolder(dir);
  } catch (e) {
    if (e instanceof ReportFolderError) throw new UsageError(`--out ${e.message}`);
    throw e;
  }
}

export function existsAsFile(path: string): boolean {
  try {
    return !statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function existsAsReadableFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The lines `--quiet` keeps of a summary. */
export const quietLines = (lines: string[]): string[] => lines.filter((l) => /^(Verdict|Report|Inconclusive):/.test(l));

/** Prints a pact verification's, pact check's or certification's summary as a run's; a problem is one line and exit 2. */
export async function printOutcome(outcome: RunOutcome, io: Out, quiet: boolean): Promise<number> {
  if (outcome.problem) {
    io.err(`conformance: ${outcome.problem}`);
    return outcome.exitCode;
  }
  if (!outcome.results || !outcome.reports) throw new Error('A pact run without a problem returned no results');
  const { formatSummary, shellWord } = await import('../core/summary.ts');
  const lines = formatSummary(outcome.results, outcome.reports.reportHtml, {
    replayCommand: `${commandName()} run --target ${shellWord(outcome.results.target)}`,
  });
  for (const line of quiet ? quietLines(lines) : lines) io.out(line);
  return outcome.exitCode;
}
