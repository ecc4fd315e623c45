/**
 * The ending every kind of run shares (`conformance run` aside, which also streams its events):
 * aggregate the results, seal them, write the report folder, and answer with the exit code of the
 * verdict. Used by `pact verify`, `pact check` and `certify-client`.
 */
import { resolve } from 'node:path';
import { type AggregateInput, aggregate } from '../core/aggregate.ts';
import { RunEventBus } from '../core/events.ts';
import { sealed } from '../core/integrity.ts';
import { exitCodeOf } from '../core/results.ts';
import { subscribeReportFolder } from '../reports/writeReports.ts';
import type { RunOutcome } from './runConformance.ts';

export async function writeSealedReport(reportDir: string, input: AggregateInput): Promise<RunOutcome> {
  const bus = new RunEventBus();
  const reportPaths = subscribeReportFolder(bus, resolve(reportDir));
  const results = sealed(aggregate(input));
  await bus.emit({ type: 'run-finished', results });
  const reports = reportPaths();
  if (!reports) throw new Error('The report folder was not written');
  return { exitCode: exitCodeOf(results.verdict), results, reports };
}
