/** `conformance start` (npm start): the sandbox started, and every operation judged against it. */
import { commandName } from '../core/commandName.ts';
import { type Command, claimReportDir, parse, UsageError } from './command.ts';
import { judge, RUN_OPTIONS, replayCommand, runFlags, runOptions } from './run.ts';
import { faultNames, variantNames } from './sandboxOptions.ts';

const CMD = commandName();

export const start: Command = {
  help: {
    usage: ['start [options] [--fault NAME]... [--variant NAME]...'],
    summary: 'start the sandbox and run every operation against it (npm start)',
    options: [
      ...RUN_OPTIONS.filter(([flag]) => !['--config FILE', '--allow-destructive'].includes(flag)),
      ['--fault NAME', `switch on a named fault in the sandbox (see ${CMD} faults)`],
      [
        '--variant NAME',
        `switch on a named variant, a choice the documents allow (see ${CMD} variants; \`all\` for every one)`,
      ],
    ],
  },
  async run(argv, io) {
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
    // The report folder is claimed before the sandbox starts: a folder in use is refused at once.
    const folder = claimReportDir(checked.reportDir);
    try {
      const { startSandbox } = await import('../server/http.ts');
      const sandbox = await startSandbox({ faults, variants });
      const quiet = values.quiet === true;
      if (!quiet) io.out(`sandbox listening on ${sandbox.url}`);
      const head = [
        CMD,
        'start',
        ...faults.flatMap((f) => ['--fault', f]),
        ...variants.flatMap((v) => ['--variant', v]),
      ];
      const options = { ...checked, target: sandbox.url, allowDestructive: true };
      try {
        return await judge(options, folder, io, quiet, replayCommand(head, options, false));
      } finally {
        await sandbox.close();
      }
    } finally {
      folder.release();
    }
  },
};
