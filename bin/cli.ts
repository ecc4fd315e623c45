/**
 * The `conformance` command: a dispatcher over its subcommands (app/commands/, one file each,
 * owning its options, help and printing). Exit codes: 0 conformant (or intact), 1 not conformant
 * (or altered), 2 usage / config / unreachable target / unreadable file / report folder in use,
 * 3 inconclusive, 4 internal error of the suite, 130 interrupted (Ctrl-C; the report written so
 * far says so, or none is written when nothing was judged yet).
 *
 * Every subcommand's heavy modules are imported when it runs, so that `conformance help` or a
 * usage error costs a Node start and these small files, not the suite, the sandbox and the
 * reports. Every option is checked before any request is sent. Ctrl-C is handled from the first
 * moment of main() (app/commands/interrupt.ts).
 */
import { readFileSync } from 'node:fs';
import { certifyClient } from '../app/commands/certifyClient.ts';
import { type Command, EXIT, type Out, SetupProblem, stdio, UsageError } from '../app/commands/command.ts';
import { diff } from '../app/commands/diff.ts';
import { faults } from '../app/commands/faults.ts';
import { commandHelp, helpCommand, overview, usageLine } from '../app/commands/help.ts';
import { init } from '../app/commands/init.ts';
import { handleInterrupts } from '../app/commands/interrupt.ts';
import { keys } from '../app/commands/keys.ts';
import { merge } from '../app/commands/merge.ts';
import { openapi } from '../app/commands/openapi.ts';
import { operations } from '../app/commands/operations.ts';
import { pact } from '../app/commands/pact.ts';
import { referenceClient } from '../app/commands/referenceClient.ts';
import { report } from '../app/commands/report.ts';
import { run } from '../app/commands/run.ts';
import { serve } from '../app/commands/serve.ts';
import { service } from '../app/commands/service.ts';
import { start } from '../app/commands/start.ts';
import { variants } from '../app/commands/variants.ts';
import { verifyReport } from '../app/commands/verifyReport.ts';

/** The commands, in the order the overview lists them. */
const COMMANDS: Record<string, Command> = {
  run,
  start,
  serve,
  merge,
  report,
  'verify-report': verifyReport,
  diff,
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
