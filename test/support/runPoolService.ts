/**
 * The run pool of `npm test` (vitest.config.ts, globalSetup): one pool of run processes
 * (test/support/runPool.ts) for every test file, so that the runner is loaded by a few processes
 * once, and not by a pool per file or a command per run; one queue, the heaviest run first.
 * Test files reach it over HTTP on the loopback (test/support/sharedRunPool.ts): POST /run with a
 * run, POST /command with the command's arguments. Its processes start with the first job.
 *
 * CONFORMANCE_SELFTEST_PROCESSES sets how many run at once (default 3: runs wait on HTTP as much
 * as they compute, and three keep two cores busy).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { RunPool, type RunRequest } from './runPool.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The address of the shared run pool (test/support/runPoolService.ts). */
    conformanceRunPool: string;
  }
}

export interface RunPoolRequest {
  job: RunRequest;
  weight?: number;
}

export interface CommandPoolRequest {
  args: string[];
  /** Variables set for the command; null removes one. */
  env?: Record<string, string | null>;
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  let text = '';
  req.setEncoding('utf8');
  for await (const chunk of req) text += chunk;
  return JSON.parse(text) as unknown;
}

export function processesWanted(env: NodeJS.ProcessEnv = process.env): number {
  const wanted = env.CONFORMANCE_SELFTEST_PROCESSES;
  return wanted !== undefined && /^[1-9]\d?$/.test(wanted) ? Number(wanted) : 3;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const pool = new RunPool(processesWanted());
  const server = createServer({ requestTimeout: 0 }, (req, res) => {
    const answer = async (): Promise<unknown> => {
      if (req.method === 'POST' && req.url === '/run') {
        const { job, weight } = (await bodyOf(req)) as RunPoolRequest;
        return pool.runInto(job, weight ?? 0);
      }
      if (req.method === 'POST' && req.url === '/command') {
        const { args, env } = (await bodyOf(req)) as CommandPoolRequest;
        return pool.command(args, env ?? {});
      }
      throw new Error(`Expected POST /run or POST /command, received ${req.method} ${req.url}`);
    };
    answer().then(
      (a) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(a)),
      (e: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(e.message),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide('conformanceRunPool', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return async () => {
    await pool.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
}
