/**
 * The ending every kind of run shares (`conformance run` aside, which also streams its events):
 * aggregate the results, seal them, write the report folder, and answer with the exit code of the
 * verdict. Used by `pact verify`, `pact check` and `certify-client`.
 *
 * The folder is written through its claim (reports/reportFolder.ts): the command's, made before
 * the run began, or one made here; the report is staged and moved into place whole, and a folder
 * in use by another run or unwritable gives a one-line problem (exit 2).
 */
import { resolve } from 'node:path';
import { type AggregateInput, aggregate } from '../core/aggregate.ts';
import { RunEventBus } from '../core/events.ts';
import { sealed } from '../core/integrity.ts';
import { EXIT, exitCodeOf } from '../core/results.ts';
import { claimReportFolder, heldReportFolder, ReportFolderError } from '../reports/reportFolder.ts';
import { subscribeReportFolder } from '../reports/writeReports.ts';
import type { RunOutcome } from './runConformance.ts';

export async function writeSealedReport(reportDir: string, input: AggregateInput): Promise<RunOutcome> {
  const root = resolve(reportDir);
  let own: ReturnType<typeof claimReportFolder> | undefined;
  try {
    if (!heldReportFolder(root)) own = claimReportFolder(root, reportDir);
  } catch (e) {
    if (e instanceof ReportFolderError) return { exitCode: EXIT.usage, problem: `Report folder ${e.message}` };
    throw e;
  }
  try {
    const bus = new RunEventBus();
    const reportPaths = subscribeReportFolder(bus, root);
    const results = sealed(aggregate(input));
    await bus.emit({ type: 'run-finished', results });
    const reports = reportPaths();
    if (!reports) throw new Error('The report folder was not written');
    return { exitCode: exitCodeOf(results.verdict), results, reports };
  } finally {
    own?.release();
  }
}
