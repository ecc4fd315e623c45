/** `conformance help [COMMAND]`, `--help` and the overview: every command's usage, summary and options. */
import { commandName } from '../core/commandName.ts';
import { type Command, type CommandHelp, UsageError } from './command.ts';

export function overview(commands: Readonly<Record<string, Command>>): string {
  const cmd = commandName();
  const width = Math.max(...Object.keys(commands).map((c) => c.length));
  return [
    `Usage: ${cmd} COMMAND [options]   (${cmd} COMMAND --help for its options)`,
    '',
    'Commands:',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.help.summary}`),
    '',
    'Exit codes: 0 conformant, 1 not conformant, 2 usage or config problem, 3 inconclusive,',
    '            4 internal error, 130 interrupted (the report says so)',
    `Also: ${cmd} --version`,
  ].join('\n');
}

export function commandHelp(c: CommandHelp): string {
  const cmd = commandName();
  const lines = [
    'Usage:',
    ...c.usage.map((u) => `  ${cmd} ${u}`),
    '',
    `${c.summary[0].toUpperCase()}${c.summary.slice(1)}.`,
  ];
  if (c.options?.length) {
    const width = Math.max(...c.options.map(([f]) => f.length));
    lines.push('', 'Options:', ...c.options.map(([f, d]) => `  ${f.padEnd(width)}  ${d}`));
  }
  return lines.join('\n');
}

/** The first usage line of a command, as a usage error prints it. */
export function usageLine(c: CommandHelp | undefined): string {
  const cmd = commandName();
  return `Usage: ${c ? `${cmd} ${c.usage[0]}` : `${cmd} COMMAND [options]`} (${cmd} help)`;
}

/** The `help` command over the given commands (itself among them). */
export function helpCommand(commands: Readonly<Record<string, Command>>): Command {
  return {
    help: { usage: ['help [COMMAND]'], summary: 'this overview, or the help of one command' },
    async run(argv, io) {
      const [name] = argv;
      if (name !== undefined && !(name in commands)) throw new UsageError(`Unknown command ${JSON.stringify(name)}`);
      io.out(name !== undefined ? commandHelp(commands[name].help) : overview(commands));
      return 0;
    },
  };
}
