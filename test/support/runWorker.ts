/**
 * A long-lived process for the self-test's many runs (test/support/runPool.ts): it loads the
 * runner, the sandbox and the reports once, then does each job it is sent, one at a time:
 * - a run: starts a sandbox with the job's faults or variants, runs the suite against it over real
 *   HTTP (the same `runConformance` that `conformance run` calls) and answers with the exit code;
 *   the run's report folder is where the job said;
 * - a command: the `conformance` command's entry point (bin/cli.ts, `main`, what the binary calls)
 *   with the job's arguments and environment, answering with its exit code and everything it
 *   wrote, as a child process running the command would (a Node start and the command's modules
 *   are ~2.7 s of CPU a run, paid here once).
 */
import { runConformance } from '../../app/runConformance.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../../server/demoConfig.ts';
import { startSandbox } from '../../server/http.ts';

export interface RunJob {
  id: number;
  kind?: 'run';
  faults?: string[];
  variants?: string[];
  only?: string;
  seed: number;
  runs: number;
  minCoverage?: number;
  reportDir: string;
}

export interface CommandJob {
  id: number;
  kind: 'command';
  args: string[];
  /** Environment variables set for the command (and restored after it). */
  env: Record<string, string>;
}

export type PoolJob = RunJob | CommandJob;

export type RunAnswer = (
  | { id: number; exitCode: number; problem?: string }
  | { id: number; exitCode: number; stdout: string; stderr: string }
  | { id: number; error: string }
) & {
  /** CPU seconds the process spent on the job, its threads included (for the pool's job log). */
  cpuSeconds?: number;
};

let queue: Promise<void> = Promise.resolve();

async function run(job: RunJob): Promise<RunAnswer> {
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

type Write = typeof process.stdout.write;

async function command(job: CommandJob): Promise<RunAnswer> {
  const { main } = await import('../../bin/cli.ts');
  const saved = Object.keys(job.env).map((k) => [k, process.env[k]] as const);
  Object.assign(process.env, job.env);
  let stdout = '';
  let stderr = '';
  // What the command writes to the streams itself (progress lines) is the job's output too.
  const writes: [NodeJS.WriteStream, Write][] = [
    [process.stdout, process.stdout.write],
    [process.stderr, process.stderr.write],
  ];
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  }) as Write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  }) as Write;
  try {
    const exitCode = await main(job.args, {
      out: (line) => (stdout += `${line}\n`),
      err: (line) => (stderr += `${line}\n`),
    });
    return { id: job.id, exitCode, stdout, stderr };
  } finally {
    for (const [stream, write] of writes) stream.write = write;
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

process.on('message', (job: PoolJob) => {
  queue = queue.then(async () => {
    let answer: RunAnswer;
    const cpu = process.cpuUsage();
    try {
      answer = job.kind === 'command' ? await command(job) : await run(job);
    } catch (e) {
      answer = { id: job.id, error: (e as Error).stack ?? String(e) };
    }
    const used = process.cpuUsage(cpu);
    process.send?.({ ...answer, cpuSeconds: (used.user + used.system) / 1e6 });
  });
});
process.on('disconnect', () => process.exit(0));
