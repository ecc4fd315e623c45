/**
 * A small pool of run processes (test/support/runWorker.ts) for the self-test: the fault and
 * variant batches are dozens of runs, and starting the command for each cost more than the run
 * itself (a three-operation run: 4.5 s through `conformance run`, 1.5 s in a process that has
 * already loaded the runner). Each process runs its jobs one at a time; jobs go to the process
 * with the fewest waiting. The command itself is tested by test/cli*.test.ts.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import type { RunResults } from '../../core/results.ts';
import { readResults, reportDir, ROOT } from './cli.ts';
import type { RunAnswer, RunJob } from './runWorker.ts';

export interface PoolRun {
  code: number;
  /** The one-line problem of a run that could not start, or the error of a crashed run. */
  stderr: string;
  results: RunResults;
}

interface Member {
  child: ChildProcess;
  waiting: Map<number, { resolve: (a: RunAnswer) => void; reject: (e: Error) => void }>;
}

export class RunPool {
  readonly #members: Member[] = [];
  #next = 1;

  constructor(readonly size = 2) {}

  #member(): Member {
    while (this.#members.length < this.size) {
      const child = fork(join(ROOT, 'test', 'support', 'runWorker.ts'), [], {
        cwd: ROOT,
        execArgv: ['--import', 'tsx'],
        env: { ...process.env, FORCE_COLOR: '0' },
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      const member: Member = { child, waiting: new Map() };
      child.on('message', (a: RunAnswer) => {
        member.waiting.get(a.id)?.resolve(a);
        member.waiting.delete(a.id);
      });
      child.on('exit', (code) => {
        for (const w of member.waiting.values()) w.reject(new Error(`run process exited with ${code}`));
        member.waiting.clear();
      });
      this.#members.push(member);
    }
    return this.#members.reduce((a, b) => (b.waiting.size < a.waiting.size ? b : a));
  }

  /** One run of the suite against a fresh sandbox with these faults or variants. */
  async run(job: Omit<RunJob, 'id' | 'reportDir'>): Promise<PoolRun> {
    const member = this.#member();
    const id = this.#next++;
    const dir = reportDir();
    const answer = await new Promise<RunAnswer>((resolve, reject) => {
      member.waiting.set(id, { resolve, reject });
      member.child.send({ ...job, id, reportDir: dir } satisfies RunJob);
    });
    if ('error' in answer) return { code: 4, stderr: `internal error: ${answer.error}`, results: readResults(dir) };
    return { code: answer.exitCode, stderr: answer.problem ?? '', results: readResults(dir) };
  }

  close(): void {
    for (const m of this.#members) m.child.kill();
    this.#members.length = 0;
  }
}
