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
  /** Environment variables set for the command, null removing one (all put back after it). */
  env: Record<string, string | null>;
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

/**
 * Runs `during` with the streams written into `into` (decoded, a write's callback called) and
 * seen as a child process's pipes are (no terminal, no width: this process's stderr may be the
 * terminal `npm test` runs in); puts the streams back after.
 */
async function captured<T>(into: { stdout: string; stderr: string }, during: () => Promise<T>): Promise<T> {
  const streams = [
    [process.stdout, 'stdout'],
    [process.stderr, 'stderr'],
  ] as const;
  const saved = streams.map(([stream]) => ({
    write: stream.write,
    isTTY: Object.getOwnPropertyDescriptor(stream, 'isTTY'),
    columns: Object.getOwnPropertyDescriptor(stream, 'columns'),
  }));
  for (const [stream, name] of streams) {
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      into[name] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      if (done) process.nextTick(done);
      return true;
    }) as Write;
    Object.defineProperty(stream, 'isTTY', { value: false, configurable: true, writable: true });
    Object.defineProperty(stream, 'columns', { value: undefined, configurable: true, writable: true });
  }
  try {
    return await during();
  } finally {
    streams.forEach(([stream], i) => {
      const { write, isTTY, columns } = saved[i];
      stream.write = write;
      for (const [key, descriptor] of [
        ['isTTY', isTTY],
        ['columns', columns],
      ] as const) {
        if (descriptor) Object.defineProperty(stream, key, descriptor);
        else delete (stream as unknown as Record<string, unknown>)[key];
      }
    });
  }
}

/**
 * What a command changes in its process and a child process would take with it when it ends: put
 * back after each command, so that the next one starts as the first did.
 */
function processState(): () => void {
  const env = { ...process.env };
  const cwd = process.cwd();
  const exitCode = process.exitCode;
  const signals = (['SIGINT', 'SIGTERM'] as const).map((s) => [s, process.listeners(s)] as const);
  return () => {
    for (const k of Object.keys(process.env)) if (!(k in env)) delete process.env[k];
    Object.assign(process.env, env);
    if (process.cwd() !== cwd) process.chdir(cwd);
    process.exitCode = exitCode;
    // Signal handlers a command left behind (main() removes its own) would change how the next
    // command, or this process, ends. ('exit' hooks are the runner's own, installed once.)
    for (const [signal, before] of signals) {
      for (const l of process.listeners(signal)) if (!before.includes(l)) process.off(signal, l);
    }
  };
}

async function command(job: CommandJob): Promise<RunAnswer> {
  const { main } = await import('../../bin/cli.ts');
  const restore = processState();
  for (const [k, v] of Object.entries(job.env)) {
    if (v === null) delete process.env[k];
    else process.env[k] = v;
  }
  const output = { stdout: '', stderr: '' };
  try {
    const exitCode = await captured(output, () =>
      main(job.args, {
        out: (line) => (output.stdout += `${line}\n`),
        err: (line) => (output.stderr += `${line}\n`),
      }),
    );
    return { id: job.id, exitCode, ...output };
  } finally {
    restore();
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
