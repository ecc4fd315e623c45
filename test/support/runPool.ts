/**
 * A small pool of run processes (test/support/runWorker.ts) for the self-test: the fault and
 * variant batches are dozens of runs, and starting the command for each cost more than the run
 * itself (a three-operation run: 4.5 s through `conformance run`, 1.5 s in a process that has
 * already loaded the runner). Each process does one job at a time; the jobs wait in one queue,
 * the heaviest first (a long run started last would end the whole test last), in the order
 * given among equals. The command itself is tested by test/cli*.test.ts.
 *
 * In `npm test` one pool serves every test file (test/support/runPoolService.ts, reached through
 * test/support/sharedRunPool.ts), so that its processes load the runner once for all of them.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResults } from '../../core/results.ts';
import { type CliResult, readResults, reportDir, ROOT } from './cli.ts';
import type { CommandJob, PoolJob, RunAnswer, RunJob } from './runWorker.ts';

export interface PoolRun {
  code: number;
  /** The one-line problem of a run that could not start, or the error of a crashed run. */
  stderr: string;
  results: RunResults;
}

/** A run as the pool's caller asks for it (the pool numbers it and gives it a report folder). */
export type RunRequest = Omit<RunJob, 'id' | 'kind' | 'reportDir'>;

/** What a run job answers before its results are read: the folder that holds them. */
export interface RunDone {
  code: number;
  stderr: string;
  reportDir: string;
}

/** What runs jobs: the pool itself, or a client of the pool that serves every test file. */
export interface RunService {
  /** One run of the suite against a fresh sandbox with these faults or variants. */
  run(job: RunRequest, weight?: number): Promise<PoolRun>;
  /** The `conformance` command with these arguments and environment variables (null removes one). */
  command(args: string[], env?: Record<string, string | null>, weight?: number): Promise<CliResult>;
}

/**
 * How long a run is likely to take, for the queue's order: operations judged times property runs
 * (a run of every operation first, then the larger batches). Only the order matters.
 */
export function runWeight(job: Pick<RunRequest, 'only' | 'runs'>, allOperations: number): number {
  const operations = job.only === undefined ? allOperations : job.only.split(',').length;
  return operations * Math.max(1, job.runs);
}

/** Commands run beside the pool's runs, this many at once at most (a test asks for three at once). */
const COMMANDS_AT_ONCE = 3;

/**
 * CONFORMANCE_SELFTEST_JOB_LOG names a file that gets one JSON line per job: what it was, its
 * weight, the seconds it waited in the queue and ran, and the CPU seconds it took (figures only,
 * for whoever tunes the self-test; nothing asserts them).
 */
const JOB_LOG = process.env.CONFORMANCE_SELFTEST_JOB_LOG;

function logJob(w: Waiting, a: RunAnswer): void {
  if (!JOB_LOG) return;
  const now = performance.now();
  const job = w.job;
  const what =
    job.kind === 'command'
      ? {
          command: job.args.filter((x) => !/^(\/|http)/.test(x)).join(' '),
        }
      : {
          faults: job.faults?.length ?? 0,
          variants: job.variants?.length ?? 0,
          only: job.only === undefined ? 'all' : job.only.split(',').length,
          runs: job.runs,
          seed: job.seed,
        };
  const line = {
    ...what,
    weight: Number.isFinite(w.weight) ? w.weight : 'first',
    waitedS: +(((w.started ?? now) - w.queued) / 1000).toFixed(1),
    ranS: +((now - (w.started ?? now)) / 1000).toFixed(1),
    cpuS: a.cpuSeconds === undefined ? undefined : +a.cpuSeconds.toFixed(2),
  };
  appendFileSync(JOB_LOG, `${JSON.stringify(line)}\n`);
}

interface Waiting {
  job: PoolJob;
  weight: number;
  order: number;
  queued: number;
  started?: number;
  resolve: (a: RunAnswer) => void;
  reject: (e: Error) => void;
}

interface Member {
  child: ChildProcess;
  current?: Waiting;
}

export class RunPool implements RunService {
  readonly #members: Member[] = [];
  readonly #queue: Waiting[] = [];
  #next = 1;
  #closed = false;

  constructor(readonly size = 2) {}

  #spawn(): Member {
    const child = fork(join(ROOT, 'test', 'support', 'runWorker.ts'), [], {
      cwd: ROOT,
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, FORCE_COLOR: '0' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const member: Member = { child };
    child.on('message', (a: RunAnswer) => {
      const done = member.current;
      member.current = undefined;
      if (done?.job.id === a.id) {
        logJob(done, a);
        done.resolve(a);
      }
      this.#dispatch();
    });
    child.on('exit', (code) => {
      const i = this.#members.indexOf(member);
      if (i !== -1) this.#members.splice(i, 1);
      member.current?.reject(new Error(`run process exited with ${code}`));
      member.current = undefined;
      if (!this.#closed) this.#dispatch();
    });
    this.#members.push(member);
    return member;
  }

  /**
   * Hands the heaviest waiting jobs to idle processes: at most `size` runs at once, and besides
   * them at most `COMMANDS_AT_ONCE` commands (their tests wait on them with shorter time-outs than
   * a run's, and they mostly wait on their targets), starting processes as needed; an idle process
   * takes either.
   */
  #dispatch(): void {
    while (!this.#closed) {
      const busy = (kind: 'run' | 'command') =>
        this.#members.filter(
          (m) => m.current !== undefined && (m.current.job.kind === 'command') === (kind === 'command'),
        ).length;
      const canRun = busy('run') < this.size;
      const canCommand = busy('command') < COMMANDS_AT_ONCE;
      let best: number | undefined;
      for (let i = 0; i < this.#queue.length; i++) {
        const a = this.#queue[i];
        if (!(a.job.kind === 'command' ? canCommand : canRun)) continue;
        const b = best === undefined ? undefined : this.#queue[best];
        if (!b || a.weight > b.weight || (a.weight === b.weight && a.order < b.order)) best = i;
      }
      if (best === undefined) return;
      const member =
        this.#members.find((m) => m.current === undefined) ??
        (this.#members.length < this.size + COMMANDS_AT_ONCE ? this.#spawn() : undefined);
      if (!member) return;
      const [waiting] = this.#queue.splice(best, 1);
      member.current = waiting;
      waiting.started = performance.now();
      member.child.send(waiting.job);
    }
  }

  #submit(job: Omit<RunJob, 'id'> | Omit<CommandJob, 'id'>, weight: number): Promise<RunAnswer> {
    if (this.#closed) return Promise.reject(new Error('the run pool is closed'));
    const id = this.#next++;
    return new Promise<RunAnswer>((resolve, reject) => {
      this.#queue.push({
        job: { ...job, id } as PoolJob,
        weight,
        order: id,
        queued: performance.now(),
        resolve,
        reject,
      });
      this.#dispatch();
    });
  }

  /** A run, answered with where its results are (for a caller in another process). */
  async runInto(job: RunRequest, weight = 0, dir = reportDir()): Promise<RunDone> {
    const answer = await this.#submit({ ...job, kind: 'run', reportDir: dir }, weight);
    if ('error' in answer) return { code: 4, stderr: `internal error: ${answer.error}`, reportDir: dir };
    return { code: answer.exitCode, stderr: 'problem' in answer ? (answer.problem ?? '') : '', reportDir: dir };
  }

  async run(job: RunRequest, weight = 0): Promise<PoolRun> {
    const done = await this.runInto(job, weight);
    return { code: done.code, stderr: done.stderr, results: readResults(done.reportDir) };
  }

  /** Commands go before every run unless told otherwise: their tests wait on them with shorter time-outs. */
  async command(
    args: string[],
    env: Record<string, string | null> = {},
    weight = Number.POSITIVE_INFINITY,
  ): Promise<CliResult> {
    const answer = await this.#submit({ kind: 'command', args, env }, weight);
    if ('error' in answer) return { code: 4, stdout: '', stderr: `internal error: ${answer.error}` };
    return 'stdout' in answer
      ? { code: answer.exitCode, stdout: answer.stdout, stderr: answer.stderr }
      : { code: answer.exitCode, stdout: '', stderr: answer.problem ?? '' };
  }

  /**
   * Ends the pool's processes; resolves when they have exited, so that their CPU time is counted
   * with their parent's (`/usr/bin/time npm test` misses the time of processes nobody waited for).
   */
  close(): Promise<void> {
    this.#closed = true;
    for (const w of this.#queue.splice(0)) w.reject(new Error('the run pool is closed'));
    const exited = this.#members.map(
      (m) =>
        new Promise<void>((resolve) => (m.child.exitCode !== null ? resolve() : m.child.once('exit', () => resolve()))),
    );
    for (const m of this.#members) m.child.kill();
    this.#members.length = 0;
    return Promise.all(exited).then(() => undefined);
  }
}
