/** `conformance merge DIR...`: one sealed report from the report folders of a sharded run. */
import { commandName } from '../core/commandName.ts';
import { type Command, claimReportDir, EXIT, parse, quietLines, reportDirOption, UsageError } from './command.ts';
import { baselineOption } from './run.ts';

export const merge: Command = {
  help: {
    usage: ['merge DIR... [--report-dir DIR] [--baseline DIR [--fail-on new|any]] [--quiet]'],
    summary: 'join the report folders of a sharded run (--shard I/N) into one sealed report',
    options: [
      ['--report-dir DIR', 'where the merged report folder is written (default conformance-report)'],
      [
        '--baseline DIR',
        'compare the merged run with an earlier run of the same suite version, target and config, as run --baseline does',
      ],
      ['--fail-on new|any', 'with --baseline: new exits 1 only for new MUST findings; default any'],
      ['--quiet', 'print only the verdict and where the report is'],
    ],
  },
  async run(argv, io) {
    const { values, positionals } = parse(
      argv,
      {
        'report-dir': { type: 'string' },
        quiet: { type: 'boolean' },
        baseline: { type: 'string' },
        'fail-on': { type: 'string' },
      },
      true,
    );
    if (positionals.length === 0) throw new UsageError('merge needs the report folders of the shards');
    const baseline = await baselineOption(values);
    const { baselineLines, baselineMarks, exitCodeUnderBaseline } = await import('../core/baseline.ts');
    const out = reportDirOption(values['report-dir'] as string | undefined);
    const [{ mergeParts, MergeError }, { formatSummary, shellWord }, { exitCodeOf }] = await Promise.all([
      import('../app/merge.ts'),
      import('../core/summary.ts'),
      import('../core/results.ts'),
    ]);
    // The merged report is staged and moved into place whole, as a run's (reports/writeReports.ts).
    const folder = claimReportDir(out);
    let merged: Awaited<ReturnType<typeof mergeParts>>;
    try {
      merged = await mergeParts(positionals, out, baseline ? { baseline } : {});
    } catch (e) {
      if (e instanceof MergeError) throw new UsageError(e.message);
      throw e;
    } finally {
      folder.release();
    }
    const b = merged.results.baseline;
    const lines = formatSummary(merged.results, merged.reports.reportHtml, {
      replayCommand: `${commandName()} run --target ${shellWord(merged.results.target)}`,
      ...(b ? { baseline: baselineMarks(b) } : {}),
    });
    if (b) lines.splice(1, 0, ...baselineLines(b));
    for (const line of values.quiet ? quietLines(lines) : lines) io.out(line);
    if (merged.results.interrupted) return EXIT.interrupted;
    const ordinary = exitCodeOf(merged.results.verdict);
    return b ? exitCodeUnderBaseline(merged.results, b, ordinary) : ordinary;
  },
};
