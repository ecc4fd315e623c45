/** `conformance diff A B`: what changed from run A to run B (verdict, coverage, findings, per operation). */
import { type Command, EXIT, parse, UsageError } from './command.ts';

export const diff: Command = {
  help: {
    usage: ['diff A B [--json]'],
    summary:
      'compare two report folders (or results.json files): verdict, coverage, findings new, fixed and still failing',
    options: [['--json', 'print the comparison as JSON']],
  },
  async run(argv, io) {
    const { values, positionals } = parse(argv, { json: { type: 'boolean' } }, true);
    if (positionals.length !== 2)
      throw new UsageError('diff needs exactly two report folders (or results.json files): A B');
    const [a, b] = positionals as [string, string];
    const { BaselineError, diffRuns, formatDiff, readBaseline } = await import('../core/baseline.ts');
    let d: ReturnType<typeof diffRuns>;
    try {
      d = diffRuns(readBaseline(a), a, readBaseline(b), b);
    } catch (e) {
      if (!(e instanceof BaselineError)) throw e;
      io.err(`conformance: ${e.message.replace(/^the baseline /, '')}`);
      return EXIT.usage;
    }
    if (values.json === true) io.out(JSON.stringify(d, null, 2));
    else for (const line of formatDiff(d)) io.out(line);
    return 0;
  },
};
