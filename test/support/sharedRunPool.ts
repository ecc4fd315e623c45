/**
 * The run pool of a test file: the one every test file shares in `npm test`
 * (test/support/runPoolService.ts, provided by vitest.config.ts), or, where no such pool was
 * provided (another vitest config), a pool of the file's own, closed after the file.
 */
import { afterAll, inject } from 'vitest';
import type { CliResult } from './cli.ts';
import { postToPool, readResults } from './cli.ts';
import { type PoolRun, type RunDone, RunPool, type RunRequest, type RunService } from './runPool.ts';
import type { CommandPoolRequest, RunPoolRequest } from './runPoolService.ts';

class SharedRunPool implements RunService {
  constructor(readonly url: string) {}

  async run(job: RunRequest, weight?: number): Promise<PoolRun> {
    const body: RunPoolRequest = { job, ...(weight !== undefined ? { weight } : {}) };
    const done = await postToPool<RunDone>(`${this.url}/run`, body);
    return { code: done.code, stderr: done.stderr, results: readResults(done.reportDir) };
  }

  command(args: string[], env: Record<string, string | null> = {}): Promise<CliResult> {
    const body: CommandPoolRequest = { args, env };
    return postToPool<CliResult>(`${this.url}/command`, body);
  }
}

/** The pool this test file's runs go to; call it at the top level of the file. */
export function sharedRunPool(ownSize = 3): RunService {
  const url = inject('conformanceRunPool');
  if (url) return new SharedRunPool(url);
  const own = new RunPool(ownSize);
  afterAll(() => own.close());
  return own;
}
