/** `conformance merge DIR...`: one sealed report from the report folders of a sharded run. */
import { commandName } from '../../core/commandName.ts';
import { type Command, claimReportDir, EXIT, parse, quietLines, reportDirOption, UsageError } from './command.ts';

export const merge: Command = {
  help: {
    usage: ['merge DIR... [--report-dir DIR] [--quiet]'],
    summary: 'join the report folders of a sharded run (--shard I/N) into one sealed report',
    options: [
      ['--report-dir DIR', 'where the merged report folder is written (default conformance-report)'],
      ['--quiet', 'print only the verdict and where the report is'],
    ],
  },
  async run(argv, io) {
    const { values, positionals } = parse(argv, { 'report-dir': { type: 'string' }, quiet: { type: 'boolean' } }, true);
    if (positionals.length === 0) throw new UsageError('merge needs the report folders of the shards');
    const out = reportDirOption(values['report-dir'] as string | undefined);
    const [{ mergeParts, MergeError }, { formatSummary, shellWord }, { exitCodeOf }] = await Promise.all([
      import('../merge.ts'),
      import('../../core/summary.ts'),
      import('../../core/results.ts'),
    ]);
    // The merged report is staged and moved into place whole, as a run's (reports/writeReports.ts).
    const folder = claimReportDir(out);
    let merged: Awaited<ReturnType<typeof mergeParts>>;
    try {
      merged = await mergeParts(positionals, out);
    } catch (e) {
      if (e instanceof MergeError) throw new UsageError(e.message);
      throw e;
    } finally {
      folder.release();
    }
    const lines = formatSummary(merged.results, merged.reports.reportHtml, {
      replayCommand: `${commandName()} run --target ${shellWord(merged.results.target)}`,
    });
    for (const line of values.quiet ? quietLines(lines) : lines) io.out(line);
    return merged.results.interrupted ? EXIT.interrupted : exitCodeOf(merged.results.verdict);
  },
};
