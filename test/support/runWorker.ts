/**
 * A long-lived process for the self-test's many runs (test/support/runPool.ts): it loads the
 * runner, the sandbox and the reports once, then, for each job it is sent, starts a sandbox with
 * the job's faults or variants, runs the suite against it over real HTTP (the same
 * `runConformance` that `conformance run` calls) and answers with the exit code. Jobs run one at
 * a time; a run's report folder is where the job said.
 */
import { runConformance } from '../../app/runConformance.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../../server/demoConfig.ts';
import { startSandbox } from '../../server/http.ts';

export interface RunJob {
  id: number;
  faults?: string[];
  variants?: string[];
  only?: string;
  seed: number;
  runs: number;
  minCoverage?: number;
  reportDir: string;
}

export type RunAnswer = { id: number; exitCode: number; problem?: string } | { id: number; error: string };

let queue: Promise<void> = Promise.resolve();

async function handle(job: RunJob): Promise<RunAnswer> {
  const sandbox = await startSandbox({ faults: job.faults ?? [], variants: job.variants ?? [] });
  try {
    const outcome = await runConformance({
      target: sandbox.url,
      config: DEMO_CONFIG_FILE,
      environmentFallbacks: DEMO_ENVIRONMENT,
      reportDir: job.reportDir,
      allowDestructive: true,
      seed: job.seed,
      runs: job.runs,
      only: job.only,
      minCoverage: job.minCoverage,
      // The batches read only results.json; the other files are tested by their own tests.
      artefacts: 'results',
      // Three of these processes run at once on two cores: one worker thread per run costs ~0.9 s
      // less CPU (its set-up is paid once), which the busy machine turns into wall time saved.
      workers: 1,
    });
    return { id: job.id, exitCode: outcome.exitCode, ...(outcome.problem ? { problem: outcome.problem } : {}) };
  } finally {
    await sandbox.close();
  }
}

process.on('message', (job: RunJob) => {
  queue = queue.then(async () => {
    let answer: RunAnswer;
    try {
      answer = await handle(job);
    } catch (e) {
      answer = { id: job.id, error: (e as Error).stack ?? String(e) };
    }
    process.send?.(answer);
  });
});
process.on('disconnect', () => process.exit(0));
