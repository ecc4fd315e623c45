/**
 * The run pool of a test file: the one every test file shares in `npm test`
 * (test/support/runPoolService.ts, provided by vitest.config.ts), or, where no such pool was
 * provided (another vitest config), a pool of the file's own, closed after the file.
 */
import { request } from 'node:http';
import { afterAll, inject } from 'vitest';
import type { CliResult } from './cli.ts';
import { readResults } from './cli.ts';
import { type PoolRun, type RunDone, RunPool, type RunRequest, type RunService } from './runPool.ts';
import type { CommandPoolRequest, RunPoolRequest } from './runPoolService.ts';

function post<T>(url: string, body: RunPoolRequest | CommandPoolRequest): Promise<T> {
  return new Promise((resolve, reject) => {
    // No time-out here: a run may wait in the queue for long, and the test's own time-out bounds it.
    const req = request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(JSON.parse(text) as T) : reject(new Error(`run pool: ${text}`)),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

class SharedRunPool implements RunService {
  constructor(readonly url: string) {}

  async run(job: RunRequest, weight?: number): Promise<PoolRun> {
    const done = await post<RunDone>(`${this.url}/run`, { job, ...(weight !== undefined ? { weight } : {}) });
    return { code: done.code, stderr: done.stderr, results: readResults(done.reportDir) };
  }

  command(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
    return post<CliResult>(`${this.url}/command`, { args, env });
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
