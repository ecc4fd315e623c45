/**
 * The `conformance` command: a dispatcher over its subcommands (cli/, one file each,
 * owning its options, help and printing). Exit codes: 0 conformant (or intact), 1 not conformant
 * (or altered), 2 usage / config / unreachable target / unreadable file / report folder in use,
 * 3 inconclusive, 4 internal error of the suite, 130 interrupted (Ctrl-C; the report written so
 * far says so, or none is written when nothing was judged yet).
 *
 * Every subcommand's heavy modules are imported when it runs, so that `conformance help` or a
 * usage error costs a Node start and these small files, not the suite, the sandbox and the
 * reports. Every option is checked before any request is sent. Ctrl-C is handled from the first
 * moment of main() (cli/interrupt.ts).
 */
import { readFileSync } from 'node:fs';
import { certifyClient } from '../cli/certifyClient.ts';
import { type Command, EXIT, type Out, SetupProblem, stdio, UsageError } from '../cli/command.ts';
import { compare } from '../cli/compare.ts';
import { diff } from '../cli/diff.ts';
import { faults } from '../cli/faults.ts';
import { commandHelp, helpCommand, overview, usageLine } from '../cli/help.ts';
import { init } from '../cli/init.ts';
import { handleInterrupts } from '../cli/interrupt.ts';
import { keys } from '../cli/keys.ts';
import { merge } from '../cli/merge.ts';
import { openapi } from '../cli/openapi.ts';
import { operations } from '../cli/operations.ts';
import { pact } from '../cli/pact.ts';
import { referenceClient } from '../cli/referenceClient.ts';
import { report } from '../cli/report.ts';
import { run } from '../cli/run.ts';
import { serve } from '../cli/serve.ts';
import { service } from '../cli/service.ts';
import { start } from '../cli/start.ts';
import { variants } from '../cli/variants.ts';
import { verifyReport } from '../cli/verifyReport.ts';

/** The commands, in the order the overview lists them. */
const COMMANDS: Record<string, Command> = {
  run,
  start,
  serve,
  merge,
  report,
  'verify-report': verifyReport,
  diff,
  compare,
  operations,
  faults,
  variants,
  init,
  openapi,
  pact,
  'certify-client': certifyClient,
  'reference-client': referenceClient,
  keys,
  service,
};
COMMANDS.help = helpCommand(COMMANDS);

function version(): string {
  const root = new URL('../package.json', import.meta.url);
  const pkg = JSON.parse(readFileSync(root, 'utf8')) as { name: string; version: string };
  return `conformance ${pkg.version} (${pkg.name}, node ${process.version})`;
}

export async function main(argv: string[], io: Out = stdio): Promise<number> {
  const stopHandlingInterrupts = handleInterrupts(io);
  try {
    return await dispatch(argv, io);
  } finally {
    stopHandlingInterrupts();
  }
}

async function dispatch(argv: string[], io: Out): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v' || name === 'version') {
    io.out(version());
    return 0;
  }
  const command = name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command && (rest.includes('--help') || rest.includes('-h'))) {
    io.out(commandHelp(command.help));
    return 0;
  }
  try {
    if (command) return await command.run(rest, io);
    if (name === undefined || name === '--help' || name === '-h') {
      io.out(overview(COMMANDS));
      return name === undefined ? EXIT.usage : 0;
    }
    throw new UsageError(`Unknown command ${JSON.stringify(name)}`);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`conformance: ${e.message}`);
      io.err(usageLine(command?.help));
      return EXIT.usage;
    }
    if (e instanceof SetupProblem) {
      io.err(`conformance: ${e.message}`);
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
